"""Checks every engine must pass, shared by the per-engine test modules.

Positions are found by seeded random play and classified by `tactics` (itself checked
against the reference board), so the same sets serve every engine and board size.
"""

from __future__ import annotations

import random
import threading
from functools import cache

from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import Engine, Limits, SearchInfo
from c4tui.engine.players.specs import make_engine, reading_of
from c4tui.engine.players.tactics import threatened_columns, winning_columns

SIZES = [(7, 6, 4), (4, 4, 3), (10, 10, 6), (5, 7, 5), (9, 4, 3)]


@cache
def random_positions(size: tuple[int, int, int], count: int = 60, seed: int = 1):
    """Unfinished positions from seeded random games, early and late ones alike."""
    rng = random.Random(f"{size}/{seed}")
    found = []
    while len(found) < count:
        pos = Position.start(*size)
        for _ in range(rng.randrange(size[0] * size[1])):
            if pos.is_over():
                break
            pos = pos.play(rng.choice(pos.legal_moves()))
        if not pos.is_over():
            found.append(pos)
    return tuple(found)


@cache
def wins_in_one(size: tuple[int, int, int], count: int = 12) -> tuple[Position, ...]:
    """Positions where the side to move has exactly one winning column."""
    return tuple(
        pos for pos in random_positions(size, 400, seed=2) if len(winning_columns(pos)) == 1
    )[:count]


@cache
def blocks_in_one(size: tuple[int, int, int], count: int = 12) -> tuple[Position, ...]:
    """Positions with no win for the mover and exactly one opponent threat to block."""
    return tuple(
        pos
        for pos in random_positions(size, 400, seed=3)
        if not winning_columns(pos) and len(threatened_columns(pos)) == 1
    )[:count]


def check_wins_and_blocks(spec: str | Engine, size: tuple[int, int, int]) -> None:
    """The engine (or the one a spec makes) plays every win in one and every block."""
    wins, blocks = wins_in_one(size), blocks_in_one(size)
    assert len(wins) >= 5 and len(blocks) >= 5, "too few tactical test positions"
    engine = make_engine(spec, seed=5) if isinstance(spec, str) else spec
    for pos in wins:
        assert engine.search(pos).move == winning_columns(pos)[0], pos
    for pos in blocks:
        assert engine.search(pos).move == threatened_columns(pos)[0], pos


def check_legal_moves_and_infos(spec: str, size: tuple[int, int, int]) -> None:
    engine = make_engine(spec, seed=7)
    for pos in random_positions(size, 25):
        infos: list[SearchInfo] = []
        result = engine.search(pos, on_info=infos.append)
        assert result.move in pos.legal_moves(), pos
        assert infos, "no SearchInfo sent"
        for info in (*infos, result.info):
            assert info.engine == engine.name
            assert len(info.columns) == pos.width
            for col, stat in enumerate(info.columns):
                assert (stat is None) == (not pos.can_play(col))
        assert result.info.best == result.move
        assert line_agrees(result.info, result.move)


def line_agrees(info: SearchInfo, move: int) -> bool:
    """The principal variation starts with the move played; an engine that picks at
    random has none."""
    reading = reading_of(info.engine)
    if reading is not None and reading.at_random and not info.handicap:
        return info.pv == ()
    return info.pv[:1] == (move,)


def check_deterministic(spec: str, size: tuple[int, int, int] = (7, 6, 4)) -> None:
    """The same seed gives the same moves and figures over a series of searches."""

    def run(seed: int) -> list[tuple]:
        engine = make_engine(spec, seed=seed)
        out = []
        for pos in random_positions(size, 12):
            result = engine.search(pos)
            info = result.info
            out.append((result.move, info.nodes, info.iterations, info.depth, info.columns))
        return out

    assert run(11) == run(11)


def check_stops_when_asked(spec: str, limits: Limits) -> SearchInfo:
    """Set the stop event at the first report of a search with a huge budget.

    Returns the final info, whose counts the caller bounds: give `limits` a count cap
    far above that bound, so an engine that ignored the event runs to the cap and fails.
    """
    engine = make_engine(spec, seed=1)
    stop = threading.Event()
    seen: list[SearchInfo] = []

    def on_info(info: SearchInfo) -> None:
        seen.append(info)
        stop.set()

    pos = Position.from_moves("4453")
    result = engine.search(pos, limits, on_info=on_info, stop=stop)
    assert result.move in pos.legal_moves()
    return result.info


def play_a_game(spec: str, size: tuple[int, int, int]) -> Position:
    """The engine against the random player, to the end: every move legal, no crash."""
    engine = make_engine(spec, seed=3)
    opponent = make_engine("random", seed=4)
    pos = Position.start(*size)
    while not pos.is_over():
        player = engine if pos.moves % 2 == 0 else opponent
        move = player.search(pos).move
        assert move in pos.legal_moves()
        pos = pos.play(move)
    return pos
