"""The perfect player: keeps the best result, wins fast, reports exact columns."""

from __future__ import annotations

import itertools
import random
import threading
import time

import pytest

from c4tui.engine.board.position import Position
from c4tui.engine.players import perfect as perfect_module
from c4tui.engine.players.contract import Limits
from c4tui.engine.players.perfect import PerfectEngine, choose_column
from c4tui.engine.players.specs import SpecError, make_engine
from c4tui.engine.players.tactics import threatened_columns, winning_columns
from c4tui.engine.solver import ColumnBounds, analyze
from c4tui.engine.solver import limits as solver_module
from c4tui.engine.solver.line import LINE_PLIES
from tests.engine.brute_force import brute_force_columns

# Positions the book or a short search settles quickly.
POSITIONS = ["", "4", "44", "4453", "3344", "12345671", "4455", "2252576253462244111563365343"]


@pytest.fixture(scope="module")
def engine() -> PerfectEngine:
    return PerfectEngine()


@pytest.mark.parametrize("moves", POSITIONS)
def test_plays_a_column_with_the_best_exact_score(engine, moves):
    position = Position.from_moves(moves)
    result = engine.search(position)
    scores = [stat.score if stat else None for stat in result.info.columns]
    assert result.info.exact
    assert None not in (scores[c] for c in position.legal_moves())
    assert scores[result.move] == max(s for s in scores if s is not None)
    assert result.info.best == result.move


@pytest.mark.parametrize("moves", POSITIONS)
def test_the_principal_variation_is_perfect_play_to_the_end_or_twelve_moves(moves, monkeypatch):
    monkeypatch.setattr(perfect_module, "LINE_NODES", 10**12)  # no bound on the line
    position = Position.from_moves(moves)
    result = PerfectEngine().search(position)
    line = result.info.pv
    assert line[0] == result.move
    assert len(line) == LINE_PLIES or _ends(position, line)
    for col in line:  # each move keeps the exact score of the position it is played in
        scores = analyze(position)
        assert scores[col] == max(s for s in scores if s is not None), (moves, line)
        position = position.play(col)


def _ends(position: Position, line: tuple[int, ...]) -> bool:
    for col in line:
        position = position.play(col)
    return position.is_over()


def test_the_principal_variation_on_a_small_board_matches_brute_force(monkeypatch):
    monkeypatch.setattr(perfect_module, "LINE_NODES", 10**12)
    engine = make_engine("perfect")
    for moves in ("", "2", "23", "3322"):
        position = Position.from_moves(moves, 4, 4, 3)
        line = engine.search(position).info.pv
        assert len(line) > 1 or _ends(position, line)
        for col in line:
            scores = brute_force_columns(position)
            assert scores[col] == max(s for s in scores if s is not None), (moves, line)
            position = position.play(col)


def test_without_a_time_limit_no_clock_cuts_the_line(monkeypatch):
    # The app's snapshots and a seeded `c4tui move` must not depend on the machine's speed.
    position = Position.from_moves("4453")
    monkeypatch.setattr(perfect_module, "LINE_SECONDS", 0.0)
    ticks = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(ticks)))  # 1 s a look
    assert len(PerfectEngine().search(position).info.pv) == LINE_PLIES


def test_the_line_is_bounded_and_true_as_far_as_it_goes(engine, monkeypatch):
    monkeypatch.setattr(perfect_module, "LINE_NODES", 1)  # a quarter of the solve's nodes
    position = Position.from_moves("427712")
    result = engine.search(position)
    assert 1 <= len(result.info.pv) < LINE_PLIES
    for col in result.info.pv:
        scores = analyze(position)
        assert scores[col] == max(s for s in scores if s is not None)
        position = position.play(col)


def test_a_stopped_search_shows_only_the_move_it_plays():
    stop = threading.Event()
    stop.set()
    result = PerfectEngine().search(Position.from_moves("1217562671323"), stop=stop)
    assert result.info.pv == (result.move,)


def test_the_empty_board_opens_in_the_centre(engine):
    result = engine.search(Position.start())
    assert result.move == 3
    assert [stat.score for stat in result.info.columns] == [-2, -1, 0, 1, 0, -1, -2]
    assert [stat.proven for stat in result.info.columns][:4] == ["loss", "loss", "draw", "win"]


def test_wins_at_once_rather_than_later(engine):
    # First player: stones in columns 2, 3, 4 of the bottom row; 1 or 5 wins now, while
    # other columns still win, later.
    position = Position.from_moves("273747")
    result = engine.search(position)
    assert result.move in (0, 4)
    scores = [stat.score for stat in result.info.columns]
    assert scores[result.move] == (43 - 6) // 2
    assert any(0 < s < scores[result.move] for s in scores)


def test_blocks_the_only_threat(engine):
    # The first player threatens column 4 of the bottom row; every other column loses.
    position = Position.from_moves("17273")
    result = engine.search(position)
    assert result.move == 3
    assert all(s.proven == "loss" for c, s in enumerate(result.info.columns) if c != 3)


def test_sends_a_snapshot_as_each_column_is_solved(engine):
    snapshots = []
    result = engine.search(Position.from_moves("4453"), on_info=snapshots.append)
    solved = [sum(1 for s in info.columns if s and s.score is not None) for info in snapshots]
    assert solved[:-1] == sorted(solved[:-1])
    assert solved[-1] == 7
    assert not snapshots[0].exact or len(snapshots) == 1
    assert snapshots[-1].exact and snapshots[-1].best == result.move


def test_reports_progress_while_a_column_is_still_being_solved(monkeypatch):
    # Tick at every look at the clock, so the count does not depend on the machine.
    monkeypatch.setattr(solver_module, "TICK_SECONDS", 0.0)
    snapshots = []
    # Another hard position than the tests below use: the process-wide table keeps
    # what each search learnt, and enough of it would solve theirs outright.
    position = Position.from_moves("7633133147122")
    result = make_engine("perfect:time=0.3").search(position, on_info=snapshots.append)
    solved = sum(1 for s in result.info.columns if s and s.score is not None)
    # More reports than columns solved (plus the final one): the solver spoke mid-search.
    assert len(snapshots) > solved + 1
    nodes = [info.nodes for info in snapshots]
    assert nodes == sorted(nodes) and nodes[-1] > nodes[0]


def test_a_stopped_search_still_answers_and_says_it_is_not_proven():
    engine = PerfectEngine()
    stop = threading.Event()
    stop.set()
    position = Position.from_moves("1217562671323")
    result = engine.search(position, stop=stop)
    assert position.can_play(result.move)
    assert not result.info.exact


def test_a_time_limit_answers_with_a_move_not_proven_worse():
    # 1.3 M nodes: about 0.1 s of C search (2.7 M before the aftereven), so 0.02 s never
    # finishes it.
    engine = make_engine("perfect:time=0.02")
    position = Position.from_moves("1217562671323")
    result = engine.search(position)
    assert not result.info.exact
    rank = {"loss": 0, "draw": 1, "win": 2}
    proven = [rank[s.proven] for s in result.info.columns if s and s.proven]
    chosen = result.info.columns[result.move].proven
    assert chosen is None or not proven or rank[chosen] == max(proven)


def threatened_position(seed: int) -> Position:
    """A 14-ply position (too deep to solve in a blink) with one threat to block."""
    rng = random.Random(seed)
    while True:
        position = Position.start()
        for _ in range(14):
            position = position.play(rng.choice(position.legal_moves()))
            if position.is_over():
                break
        if position.is_over() or winning_columns(position):
            continue
        if len(threatened_columns(position)) == 1:
            return position


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_time_limit_still_blocks_a_threat(seed):
    position = threatened_position(seed)
    result = make_engine("perfect:time=0.02").search(position)
    assert result.move == threatened_columns(position)[0]


def test_choose_column_excludes_columns_proven_worse():
    columns = [
        ColumnBounds(-5, -5),  # proven loss
        ColumnBounds(-3, 10),  # unknown, may be best
        ColumnBounds(0, 0),  # proven draw
        None,
        ColumnBounds(-10, -1),  # proven worse than the draw
    ]
    move, tied = choose_column(columns, 5)
    assert move == 2 and tied == [2]
    columns[1] = ColumnBounds(0, 10)
    move, tied = choose_column(columns, 5)
    assert move == 1  # as safe as the draw and possibly better


def test_equal_columns_go_to_the_centre_or_to_a_seeded_choice():
    position = Position.from_moves("44444")  # every column scores the same
    assert PerfectEngine().search(position).move == 3
    picks = {PerfectEngine(seed=s, vary=1).search(position).move for s in range(12)}
    assert len(picks) > 1
    again = [PerfectEngine(seed=7, vary=1).search(position).move for _ in range(2)]
    assert again[0] == again[1]


def test_other_board_sizes_play_a_best_column():
    rng = random.Random(11)
    engine = PerfectEngine()
    for _ in range(5):
        position = Position.start(5, 4, 4)
        for _ in range(7 + rng.randrange(3)):
            position = position.play(rng.choice(position.legal_moves()))
            if position.is_over():
                break
        if position.is_over():
            continue
        expected = brute_force_columns(position)
        move = engine.search(position).move
        assert expected[move] == max(s for s in expected if s is not None)


def test_spec_options_are_checked():
    assert make_engine("perfect:vary=1", seed=3).vary
    with pytest.raises(SpecError):
        make_engine("perfect:vary=2")
    with pytest.raises(SpecError):
        make_engine("perfect:depth=3")


def test_a_finished_game_is_refused(engine):
    with pytest.raises(ValueError, match="over"):
        engine.search(Position.from_moves("1212121"))


def test_limits_from_the_caller_override_the_spec():
    engine = make_engine("perfect:time=100")
    # A position that takes over half a second (solver_outliers.txt): 1217562671323
    # takes under a tenth of one since the aftereven, too near the 0.05 s (it failed
    # once in a full run).
    result = engine.search(Position.from_moves("7771325756251"), Limits(time=0.05))
    assert not result.info.exact


def test_without_a_time_a_board_without_a_book_still_has_a_budget(monkeypatch):
    # An empty 10x10 board could take hours to solve: `perfect` alone must still answer.
    monkeypatch.setattr(perfect_module, "BOOKLESS_SECONDS", 0.05)
    engine = make_engine("perfect")
    position = Position.from_moves("", 10, 10, 4)
    assert engine.limits.time is None  # the spec names no time
    assert PerfectEngine().budget_on(position).time == 0.05
    result = engine.search(position)
    assert not result.info.exact and position.can_play(result.move)
    # With the opening book (7x6) no clock touches the move.
    assert PerfectEngine().budget_on(Position.start()).time is None
    assert make_engine("perfect:noise=0.1").search(position).info.exact is False
