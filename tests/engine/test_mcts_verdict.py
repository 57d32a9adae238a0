"""MCTS with a verdict cut short: what the solver proved in time still narrows the search.

The positions are ones MCTS at 0.15 s missed on a loaded machine (benchmarks/
mcts_strength.py --misses, position seeds 2026-2034), where the solver's verdict ran out
of its share of the clock. The verdict is given here as the solver left it when cut
short, so the tests need no clock: an iteration budget, a fixed seed.
"""

from __future__ import annotations

import math
from contextlib import contextmanager

import pytest

from c4tui.engine.board.geometry import centre_first
from c4tui.engine.board.position import Position
from c4tui.engine.players import mcts, opening
from c4tui.engine.players.mcts import MctsEngine
from c4tui.engine.players.mcts_tree import Tree
from c4tui.engine.solver import ColumnBounds, SearchStopped, analyze

LOSS, DRAW, WIN, OPEN, NOT_LOST = (-1, -1), (0, 0), (1, 1), (-1, 1), (0, 1)


def outcomes(position: Position) -> list[int | None]:
    return [None if s is None else (s > 0) - (s < 0) for s in analyze(position)]


def search_with(monkeypatch, moves: str, verdict, iterations: int = 2000, seed: int = 1):
    """The engine's search of `moves` as if the solver had given `verdict` in time."""
    monkeypatch.setattr(mcts, "in_reach", lambda position, clock=False: True)
    monkeypatch.setattr(mcts, "column_bounds", lambda position, *args, **kwargs: verdict)
    return MctsEngine(seed=seed, iterations=iterations).search(Position.from_moves(moves))


# Only column 7 wins; the six losses are cheap to prove (12 ms), the win is not (62 ms).
LONE_WIN = "531634263175"


def test_proven_losses_beside_an_unsettled_column_are_ruled_out(monkeypatch):
    assert outcomes(Position.from_moves(LONE_WIN)) == [-1, -1, -1, -1, -1, -1, 1]
    # Nothing known: the search plays column 4 (a loss) at this budget.
    assert search_with(monkeypatch, LONE_WIN, None).move == 3
    result = search_with(monkeypatch, LONE_WIN, [LOSS] * 6 + [OPEN])
    assert result.move == 6
    stats = result.info.columns
    assert all(stats[c].by_book and stats[c].proven == "loss" for c in range(6))
    assert stats[6].visits == 2000


def test_a_proven_win_is_played_while_other_columns_are_unsettled(monkeypatch):
    # Columns 5 and 6 win; cut short, the verdict had proven column 6 and the losses
    # of 2-4 and 7. The search alone plays 1, a draw.
    moves = "1455471457775"
    assert outcomes(Position.from_moves(moves)) == [0, -1, -1, -1, 1, 1, -1]
    verdict = [OPEN, LOSS, LOSS, LOSS, OPEN, WIN, OPEN]
    assert search_with(monkeypatch, moves, [OPEN] * 7).move == 0
    result = search_with(monkeypatch, moves, verdict)
    assert result.move == 5
    # Not ruled out: the search still ran among the unsettled columns too.
    assert result.info.columns[0].visits


def tree_after(moves: str, verdict) -> Tree:
    tree = Tree(Position.from_moves(moves))
    tree.expand_root()
    tree.rule_out(verdict)
    return tree


def ruled_out_columns(tree: Tree) -> dict[int, int]:
    return {tree.column_of(kid): outcome for kid, outcome in tree.ruled_out.items()}


@pytest.mark.parametrize(
    ("verdict", "ruled_out"),
    [
        # A proven draw beside a column proven not to lose: that one is as good or better.
        ([DRAW, NOT_LOST, LOSS, OPEN, OPEN, OPEN, OPEN], {0: 0, 2: -1}),
        # A proven draw beside unsettled columns only: they may all lose, the draw stays.
        ([DRAW, OPEN, LOSS, OPEN, OPEN, OPEN, OPEN], {2: -1}),
        # Settled alike: the search chooses among them, as with a whole verdict.
        ([DRAW, DRAW, LOSS, LOSS, LOSS, LOSS, LOSS], {2: -1, 3: -1, 4: -1, 5: -1, 6: -1}),
        ([LOSS] * 7, {}),
        # Nothing settled: nothing ruled out.
        ([OPEN, NOT_LOST, OPEN, OPEN, OPEN, OPEN, OPEN], {}),
    ],
)
def test_which_settled_columns_a_verdict_rules_out(verdict, ruled_out):
    assert ruled_out_columns(tree_after("44", verdict)) == ruled_out


@pytest.mark.parametrize("sure", [DRAW, NOT_LOST])
def test_a_column_sure_to_draw_is_preferred_to_one_whose_games_are_mostly_lost(sure):
    # Column 1 is a proven draw, or proven not to lose (the verdict's first probe).
    tree = tree_after("44", [sure, OPEN, OPEN, OPEN, OPEN, OPEN, OPEN])
    best = max(tree.children[0], key=tree.column_of)  # column 7, say, searched most
    tree.visits[best], tree.mean[best] = 100, -0.5
    assert tree.best_column() == 0
    tree.mean[best] = 0.2
    assert tree.best_column() == 6


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def perf_counter(self) -> float:
        return self.now


class TimedProbes:
    """A stand-in for the small solver whose probes take known times on a fake clock.

    As in the weak search, a column's first probe asks whether it loses: a losing
    column is settled by it, another one is then known not to lose, and its second probe
    settles it as a draw or a win. `costs[column]` holds the seconds of its probes.
    Its `analyze` probes the columns in turns, centre first, each probe to its end, as
    the solver's one-call analysis does.
    """

    def __init__(self, clock: FakeClock, costs: list[tuple[float, ...]], outcomes: list[int]):
        self.clock, self.costs, self.outcomes = clock, costs, outcomes
        self.deadlines = [math.inf]

    @contextmanager
    def working(self, deadline=None, stop=None, tick=None, *, wait=True):
        self.deadlines.append(min(self.deadlines[-1], deadline or math.inf))
        try:
            yield
        finally:
            self.deadlines.pop()

    def _probe(self, column: int, bounds: ColumnBounds) -> None:
        """One probe of `column`, whose bounds (the mover's view) it narrows."""
        second = bounds.low == 0
        cost = self.costs[column][second]
        if self.clock.now + cost > self.deadlines[-1]:
            self.clock.now = max(self.clock.now, self.deadlines[-1])
            raise SearchStopped
        self.clock.now += cost
        outcome = self.outcomes[column]
        bounds.low, bounds.high = (outcome, outcome) if second or outcome < 0 else (0, 1)

    def analyze(self, position, *, weak, deadline=None, stop=None, wait=True, columns):
        self.root = position
        with self.working(deadline):
            for column in position.legal_moves():
                columns[column] = ColumnBounds(-1, 1)
            while not all(columns[c].exact for c in position.legal_moves()):
                for column in centre_first(position.width):
                    if not columns[column].exact:
                        self._probe(column, columns[column])
        return columns

    def probe(self, child, bounds, *, weak, guess=None):
        heights = self.root.column_height, child.column_height
        column = next(c for c in range(child.width) if heights[0](c) != heights[1](c))
        mover = ColumnBounds(-bounds.high, -bounds.low)
        self._probe(column, mover)
        bounds.low, bounds.high = -mover.high, -mover.low


def verdict_in(monkeypatch, costs, outcomes, seconds: float) -> list[int | None] | None:
    """The verdict on LONE_WIN's columns (as far as the fake solver is concerned, a
    position whose columns have `outcomes`) with `seconds` of the fake clock."""
    clock = FakeClock()
    solver = TimedProbes(clock, costs, outcomes)
    monkeypatch.setattr(opening, "time", clock, raising=False)
    monkeypatch.setattr(opening, "_solver", lambda geometry: solver)
    return opening.column_outcomes(Position.from_moves(LONE_WIN), clock.now + seconds)


def test_a_long_probe_does_not_hold_up_the_quick_losses_of_the_other_columns(monkeypatch):
    # The centre column takes 50 ms to prove lost and column 7 100 ms to prove won; the
    # other losses take 1 ms each. Probed each to its end, centre first, a 24 ms verdict
    # knew nothing; in turns of a growing slice it knows the five quick losses.
    costs = [(0.001,)] * 3 + [(0.05,)] + [(0.001,)] * 2 + [(0.05, 0.05)]
    outcomes = [-1, -1, -1, -1, -1, -1, 1]
    assert verdict_in(monkeypatch, costs, outcomes, 0.024) == [-1, -1, -1, None, -1, -1, None]
    # Given the time, the turns settle every column.
    assert verdict_in(monkeypatch, costs, outcomes, 1) == outcomes


def test_a_column_proven_not_to_lose_goes_on_first(monkeypatch):
    # As in 2414275651774224 and 433463341746777117, missed on a loaded machine: the
    # lone winning column's two probes are quicker than the other columns' losses. Once
    # column 7 is known not to lose (after 13.5 ms here), its next probe comes before
    # the others' (17.5 ms), where it waited for three 3 ms losses first (past 20 ms).
    costs = [(0.003,)] * 6 + [(0.0005, 0.0025)]
    outcomes = [-1, -1, -1, -1, -1, -1, 1]
    verdict = verdict_in(monkeypatch, costs, outcomes, 0.02)
    assert verdict is not None and verdict[6] == 1
