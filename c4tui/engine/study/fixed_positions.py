"""A fixed set of positions to measure any engine's accuracy on, the same for every engine.

The positions met in rated games depend on the engine and its opponents; these do not,
so two engines' figures on them compare directly. Made by `make_positions()` (the test
checks that it still makes exactly `POSITIONS`): random play from the empty 7x6 board,
seeded, ten positions of each phase of the game (a length drawn from 6-11, 12-17,
18-23 and 24-30 plies), each kept when
- the game goes on and neither side can complete a line with its next stone (no win in
  one to take and none to block: a position that asks for judgement, not a reflex);
- some column loses a result class against the best one (there is a way to go wrong);
- it is new up to mirroring.
Each position is answered once, from a fresh game (`new_game()`), and the move is
judged as in the games (accuracy.py).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import result_class
from c4tui.engine.players.contract import Engine
from c4tui.engine.study.accuracy import Accuracy
from c4tui.engine.study.exact_columns import column_scores
from c4tui.engine.study.review import review_move

SEED = 2026
# Ten positions from each phase of the game: plies (from, to), both included.
PHASES = ((6, 11), (12, 17), (18, 23), (24, 30))
PER_PHASE = 10

# made by make_positions(); the test checks that it still is
POSITIONS: tuple[str, ...] = (
    "355671", "5554755", "77477542151", "46324333746", "6665317", "577754453", "6474423731",
    "323644577", "745617334", "466753", "4111455715722", "462277535447", "74351532516125",
    "16716241265726", "56326611527765", "2651235221156667", "731332525522", "5336674432274276",
    "77347754224656", "3563156257112324", "5626315465655211341", "435775751733115115451",
    "47561726641312613213561", "61755353742665753767", "77255437677112224544",
    "1132244715747211644", "314517122662372453", "752725466172372616", "2226775664247754441",
    "24324657132113661424", "226371164526246622775655471551", "23345257215116716623171574",
    "22173224526214716544373314", "336366356434163227154116", "4741746243772337411763411",
    "614533544766327163352112", "5165333514714557772532774", "333653121124751153237777",
    "432716774612374166612574", "442544272225247771571754",
)  # fmt: skip


def make_positions(seed: int = SEED, per_phase: int = PER_PHASE) -> tuple[str, ...]:
    """The set, made again from its recipe (see the module docstring)."""
    rng = random.Random(seed)
    found: list[str] = []
    seen: set[int] = set()
    for low, high in PHASES:
        found += _phase(rng, low, high, per_phase, seen)
    return tuple(found)


def _phase(rng: random.Random, low: int, high: int, count: int, seen: set[int]) -> list[str]:
    found: list[str] = []
    while len(found) < count:
        position = Position.start()
        plies = rng.randint(low, high)
        while position.moves < plies and not position.is_over():
            position = position.play(rng.choice(position.legal_moves()))
        if not asks_for_judgement(position):
            continue
        key = min(position.key(), position.mirror().key())
        if key in seen:
            continue
        scores = column_scores(position)
        assert scores is not None  # no time limit: the solver always answers
        classes = {result_class(s) for s in scores if s is not None}
        if len(classes) < 2:
            continue
        seen.add(key)
        found.append(position.to_moves())
    return found


def asks_for_judgement(position: Position) -> bool:
    """The game goes on and no line can be completed, by either side, with one stone."""
    if position.is_over():
        return False
    g = position.geometry
    playable = g.playable(position.mask)
    mine = g.winning_spots(position.current, position.mask)
    theirs = g.winning_spots(position.opponent_stones, position.mask)
    return not (mine | theirs) & playable


class Failure(Exception):
    """The engine did not answer a position with a legal column."""


def measure(
    engine: Engine,
    positions: tuple[str, ...] = POSITIONS,
    stop: threading.Event | None = None,
    on_position: Callable[[int], None] | None = None,
) -> tuple[Accuracy, list[str]]:
    """The engine's accuracy on the positions, and what went wrong where it gave no
    legal column (one line each: the position and why). `on_position(i)` after each."""
    accuracy = Accuracy()
    failures: list[str] = []
    for index, moves in enumerate(positions):
        if stop is not None and stop.is_set():
            break
        position = Position.from_moves(moves)
        try:
            engine.new_game()
            column = engine.search(position, stop=stop).move
            if not position.can_play(column):
                raise Failure(f"played column {column + 1}, which is not playable")
        except Exception as error:  # an engine's failure is a figure here, not a crash
            failures.append(f"{moves}: {error}")
        else:
            scores = column_scores(position, stop=stop)
            if scores is not None:
                accuracy.add(review_move(position, column, scores))
        if on_position is not None:
            on_position(index)
    return accuracy, failures
