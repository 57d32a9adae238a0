"""What a match asks of its engines: who plays each AI side, what their search says a
move is worth (and the line of those values), and which engine gives hints."""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from c4tui.engine.board.game import Game
from c4tui.engine.board.position import Position
from c4tui.engine.external.outside import OutsideEngine
from c4tui.engine.players.contract import Engine, SearchInfo
from c4tui.engine.players.specs import SpecError, make_engine
from c4tui.match.search_requests import Notice
from c4tui.match.sides import Sides, engine_title

FALLBACK_SPEC = "random"


def engines_for(sides: Sides, seed: int | None) -> tuple[dict[int, Engine], list[Notice]]:
    """Fresh engines for both AI sides (seeded, so a fixed seed replays a game); a spec
    that cannot be built plays FALLBACK_SPEC instead, with a notice saying so."""
    engines: dict[int, Engine] = {}
    notices = []
    for player in (0, 1):
        spec = sides.spec(player)
        if spec is None:
            continue
        player_seed = None if seed is None else seed + player
        try:
            engines[player] = make_engine(spec, seed=player_seed)
        except SpecError as error:
            said = f"{spec}: {error}; playing {FALLBACK_SPEC} instead."
            notices.append(Notice(said, "error", title="Opponent unavailable"))
            engines[player] = make_engine(FALLBACK_SPEC, seed=player_seed)
    return engines, notices


def engine_name(engine: Engine) -> str:
    """What the screen calls an engine that plays: an outside program by its spec's
    `name=`, else by the name it gave itself (`id name`, known once it has started: its
    title); ours by the spec's title ("Level 4", "MCTS")."""
    if isinstance(engine, OutsideEngine):
        return engine.title
    return engine_title(engine.spec)


def evaluation_of(info: SearchInfo, move: int, mover: int) -> float | None:
    """The AI's value of its move in [-1, 1], from the first player's (●) side."""
    if not 0 <= move < len(info.columns) or info.columns[move] is None:
        return None
    stat = info.columns[move]
    assert stat is not None
    if stat.score is not None and (stat.proven is not None or info.exact):
        value: float = (stat.score > 0) - (stat.score < 0)
    elif stat.value is not None:
        value = stat.value
    elif stat.score is not None:
        # NegaMax heuristic scores are unbounded; squash them so the line stays readable.
        value = math.tanh(stat.score / 100)
    else:
        return None
    return value if mover == 0 else -value


def values_columns(info: SearchInfo) -> bool:
    """Whether a search's snapshot values any column (what evaluation_of reads): Random
    and Greedy never do, so their games have no evaluation line at all."""
    return any(
        stat is not None and (stat.value is not None or stat.score is not None)
        for stat in info.columns
    )


def proven(info: SearchInfo, move: int) -> bool:
    """Whether the engine's value of `move` is a proven result (evaluation_of reads it as
    1, 0 or -1), not an estimate."""
    stat = info.columns[move] if 0 <= move < len(info.columns) else None
    return stat is not None and stat.score is not None and (stat.proven is not None or info.exact)


@dataclass(frozen=True)
class Judge:
    """Whose values the evaluation graph plots (the engine's title), and whether the last
    of them is a proven result: an exact engine speaks in results, not win rates."""

    title: str
    exact: bool = False


def evaluation_line(
    game: Game, playing: Collection[str | None], names: Mapping[str, str] | None = None
) -> tuple[list[float], Judge | None]:
    """The values the evaluation graph plots (●'s side, in play order) and whose they are.

    One engine's values only: two engines' numbers are not on one scale (Perfect's
    sure win is 1 where MCTS says 0.55 on the next move, so a line of both zig-zags).
    Of the engines `playing` now (their specs), the one that judged the first move it
    played in this game speaks for the game. An engine that no longer plays does not:
    its last value, labelled "now", was of a position long gone (MCTS's "● wins 50%
    now" stayed under a game gone on against Random or Level 3). `names`: what the
    engines playing are called (engine_name), by spec; else the spec's title.
    """
    judged = [
        node.evaluation
        for node in game.line()
        if node.evaluation is not None and node.evaluation.spec in playing
    ]
    if not judged:
        return [], None
    judge = judged[0].spec
    line = [e for e in judged if e.spec == judge]
    name = (names or {}).get(judge) or engine_title(judge)
    return [e.value for e in line], Judge(name, line[-1].exact)


HINT_SECONDS = 3


def hint_spec(position: Position) -> str:
    """The strongest helper in time: the perfect player on the book's board, else MCTS."""
    standard = (position.width, position.height, position.connect) == (7, 6, 4)
    if standard or position.width * position.height <= 30:
        # Time-boxed: in pure Python a hard middle game can take a minute to solve; cut
        # short, the perfect player still never suggests a column proven worse.
        return f"perfect:time={HINT_SECONDS:g}"
    return "mcts:time=1"
