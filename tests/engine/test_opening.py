"""The opening book's verdict per column, and MCTS searching only the columns it keeps."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from c4tui.engine.board.position import Position
from c4tui.engine.players import opening
from c4tui.engine.players.mcts import MctsEngine
from c4tui.engine.players.specs import make_engine
from c4tui.engine.solver import analyze
from tests.engine.engine_contract import random_positions

pytestmark = pytest.mark.skipif(
    opening._solver(Position.start().geometry) is None, reason="no opening book installed"
)


def sign(score: int | None) -> int | None:
    return None if score is None else (score > 0) - (score < 0)


def early_positions(count: int, seed: int) -> list[Position]:
    """Unfinished 7x6 positions within the book's reach."""
    found = random_positions((7, 6, 4), 200, seed=seed)
    return [position for position in found if position.moves <= opening.REACH][:count]


@pytest.mark.parametrize("position", early_positions(12, seed=3), ids=Position.to_moves)
def test_outcomes_agree_with_the_solver(position):
    outcomes = opening.column_outcomes(position, deadline=None)
    assert outcomes == [sign(score) for score in analyze(position)]


@pytest.mark.parametrize("moves", sorted(opening.FIRST_PLIES))
def test_the_written_out_first_plies_are_the_solvers(moves):
    position = Position.from_moves(moves)
    expected = [sign(score) for score in analyze(position)]
    assert list(opening.FIRST_PLIES[moves]) == expected
    assert opening.column_outcomes(position, deadline=None) == expected


def test_nothing_beyond_the_reach_of_the_book_or_off_the_standard_board():
    assert opening.column_outcomes(Position.from_moves("1217562671323"), None) is None
    assert opening.column_outcomes(Position.start(width=6, height=5), None) is None
    assert not opening.in_reach(Position.from_moves("1217562671323"))


# A middle-game position where only column 6 wins (MCTS at 0.15 s played 3 here:
# benchmarks/mcts_strength.py --misses).
LONE_WIN = "352663712565555"


def test_past_the_book_a_search_on_a_clock_gets_the_verdict_too():
    position = Position.from_moves(LONE_WIN)
    expected = [sign(score) for score in analyze(position)]
    assert expected == [-1, -1, -1, -1, None, 1, 0]
    assert opening.in_reach(position, clock=True) and not opening.in_reach(position)
    assert opening.column_outcomes(position, deadline=time.perf_counter() + 600) == expected


def test_a_verdict_cut_short_gives_the_columns_proven_in_time():
    # Column 1 wins at once, and columns 3-7 let the opponent win at once in column 2:
    # known before any search, so a deadline already past still leaves them in the
    # verdict; column 2 would need a search and stays unknown.
    position = Position.from_moves("121212")
    opening._solver(position.geometry).reset()
    outcomes = opening.column_outcomes(position, deadline=time.perf_counter() - 1)
    assert outcomes == [1, None, -1, -1, -1, -1, -1]


def test_mcts_on_a_clock_rules_out_the_columns_the_solver_proves_worse_past_the_book(monkeypatch):
    # The verdict may take the whole (long) clock here, so that a loaded machine still
    # gives it: what is tested is that a timed move asks past the book.
    monkeypatch.setattr("c4tui.engine.players.mcts.BOOK_SHARE", 100.0)
    result = MctsEngine(seed=1, time=0.05).search(Position.from_moves(LONE_WIN))
    assert result.move == 5
    stats = result.info.columns
    assert all(stats[c].by_book and stats[c].visits is None for c in (0, 1, 2, 3, 6))


def test_a_deadline_passed_or_a_stop_gives_no_verdict():
    position = Position.from_moves("35")
    stop = threading.Event()
    stop.set()
    # A fresh position: the small table must not know it already.
    opening._solver(position.geometry).reset()
    assert opening.column_outcomes(position, deadline=None, stop=stop) is None
    assert opening.column_outcomes(position, deadline=time.perf_counter() - 1) is None


@contextmanager
def held_elsewhere(release_after: float | None = None) -> Iterator[None]:
    """Another thread holds the small book solver while the block runs (or only for its
    first `release_after` seconds)."""
    solver = opening._solver(Position.start().geometry)
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with solver.working():
            held.set()
            release.wait()

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait()
    if release_after is not None:
        threading.Timer(release_after, release.set).start()
    try:
        yield
    finally:
        release.set()
        holder.join()


def test_a_busy_solver_is_not_waited_for():
    with held_elsewhere():
        assert opening.column_outcomes(Position.from_moves("44"), None) is None


def test_an_iteration_budget_takes_the_book_verdict_whatever_the_clock_or_other_threads(
    monkeypatch,
):
    # A move counted in iterations has no clock anywhere: the book's verdict is waited
    # for (here behind another thread holding the small solver, then with a clock that
    # jumps a minute on every look), so the same seed gives the same tree on any machine.
    position = Position.from_moves("4455")
    expected = MctsEngine(seed=3, iterations=500).search(position).info
    assert any(stat is not None and stat.by_book for stat in expected.columns)
    with held_elsewhere(release_after=0.2):
        waited = MctsEngine(seed=3, iterations=500).search(position).info
    assert waited.columns == expected.columns

    clock = iter(range(0, 10**9, 60))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(clock)))
    late = MctsEngine(seed=3, iterations=500).search(position).info
    assert late.columns == expected.columns


def test_mcts_plays_the_only_winning_column_of_an_early_position():
    # After 2 only column 3 wins (4 draws): random games alone rarely find it.
    position = Position.from_moves("2")
    assert [sign(s) for s in analyze(position)] == [-1, 0, 1, 0, -1, -1, -1]
    result = MctsEngine(seed=1, iterations=300).search(position)
    assert result.move == 2
    stats = result.info.columns
    proven = [stat.proven for stat in stats]
    assert proven == ["loss", "draw", None, "draw", "loss", "loss", "loss"]
    # The ruled-out columns get no visits: the whole budget went to column 3.
    assert stats[2].visits == 300 and stats[2].proven is None
    assert all(stats[c].visits is None and stats[c].by_book for c in (0, 1, 3, 4, 5, 6))


def test_book_0_is_plain_mcts():
    position = Position.from_moves("2")
    result = make_engine("mcts:iterations=300,book=0", seed=1).search(position)
    assert all(stat.proven is None for stat in result.info.columns)
    assert sum(stat.visits for stat in result.info.columns) == 300


def test_the_kept_tree_follows_the_game_after_a_ruled_out_root():
    engine = MctsEngine(seed=1, iterations=500)
    position = Position.from_moves("2")
    first = engine.search(position)
    reply = position.play(first.move).play(3)
    second = engine.search(reply)
    assert reply.can_play(second.move)
    best = max(o for o in opening.column_outcomes(reply, None) if o is not None)
    assert opening.column_outcomes(reply, None)[second.move] == best


def test_ruled_out_columns_of_a_kept_tree_report_no_visits_from_before():
    # The first search (at "2") visited every reply; after the game moves on, the book
    # rules some of them out: those were never searched now, so they show no visits.
    engine = MctsEngine(seed=1, iterations=500)
    position = Position.from_moves("2")
    reply = position.play(engine.search(position).move).play(3)
    stats = [s for s in engine.search(reply).info.columns if s is not None]
    ruled_out = [s for s in stats if s.by_book]
    assert ruled_out
    assert all(s.visits is None and s.value is None and s.uct is None for s in ruled_out)
