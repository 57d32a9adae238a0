"""NegaMax: tactics at any budget, exact scores when it sees to the end, limits, reports."""

from __future__ import annotations

from pathlib import Path

import pytest

from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import describe_score, proven_of
from c4tui.engine.players.contract import Limits, SearchInfo
from c4tui.engine.players.negamax import NegamaxEngine
from c4tui.engine.players.specs import make_engine
from tests.engine.brute_force import brute_force_columns
from tests.engine.engine_contract import (
    SIZES,
    check_deterministic,
    check_legal_moves_and_infos,
    check_stops_when_asked,
    check_wins_and_blocks,
    play_a_game,
    random_positions,
)

TINY = ["negamax:depth=1", "negamax:time=0.001"]


@pytest.mark.parametrize("spec", TINY)
@pytest.mark.parametrize("size", SIZES)
def test_never_misses_a_win_or_a_block_at_tiny_budgets(spec, size):
    check_wins_and_blocks(spec, size)


@pytest.mark.parametrize("size", SIZES)
def test_never_misses_a_win_or_a_block_with_a_one_node_budget(size):
    check_wins_and_blocks(NegamaxEngine(limits=Limits(iterations=1)), size)


@pytest.mark.parametrize("size", SIZES)
def test_legal_moves_and_infos(size):
    check_legal_moves_and_infos("negamax:depth=3", size)


def test_deterministic_for_a_seed():
    check_deterministic("negamax:depth=4")
    engine = NegamaxEngine(seed=1, limits=Limits(iterations=3000))
    again = NegamaxEngine(seed=1, limits=Limits(iterations=3000))
    for pos in random_positions((7, 6, 4), 6):
        first, second = engine.search(pos), again.search(pos)
        assert first.move == second.move and first.info.columns == second.info.columns


@pytest.mark.parametrize(("size", "played"), [((4, 4, 3), 3), ((4, 4, 4), 3), ((5, 4, 4), 8)])
def test_full_depth_scores_are_the_exact_solver_scores(size, played):
    # Brute force stays quick on 4x4 boards, and on 5x4 once 8 stones are down.
    memo: dict = {}
    positions = [p for p in random_positions(size, 40, seed=9) if p.moves >= played]
    assert len(positions) >= 10
    for pos in positions:
        result = NegamaxEngine(limits=Limits(depth=pos.geometry.cells)).search(pos)
        exact = {c: s for c, s in enumerate(brute_force_columns(pos, memo)) if s is not None}
        # The search may stop at a proven win before proving the other columns; every
        # column it calls proven carries the exact score, and so does the one it plays.
        for col, stat in enumerate(result.info.columns):
            if stat is not None and stat.proven is not None:
                assert stat.score == exact[col], (pos, col, stat)
        chosen = result.info.columns[result.move]
        assert chosen.proven is not None
        assert chosen.score == max(exact.values()), pos


def test_proven_results_read_as_win_in_n():
    # X has 4 and 5 on the bottom row with both ends open: 3 or 6 wins in 2.
    pos = Position.from_moves("4455")
    info = make_engine("negamax:depth=4").search(pos).info
    assert info.columns[2].proven == "win"
    assert describe_score(pos, info.columns[2].score) == "win in 2"
    assert info.best in (2, 5)
    # The other side, facing the same threat after the move, reads it as a loss.
    after = pos.play(2)
    info = make_engine("negamax:depth=4").search(after).info
    assert all(stat.proven == "loss" for stat in info.columns)
    assert {describe_score(after, stat.score) for stat in info.columns} == {"loss in 1"}


def test_reports_each_root_move_and_each_depth():
    infos: list[SearchInfo] = []
    pos = Position.from_moves("4453")
    result = make_engine("negamax:depth=4").search(pos, on_info=infos.append)
    assert result.info.depth == 4
    # One report per root move per depth, plus one per finished depth, plus the search
    # frame's final info; reports during depth d carry the last finished depth, d - 1
    # (None before the first).
    per_depth = len(pos.legal_moves()) + 1
    assert len(infos) == 4 * per_depth + 1
    depths = [info.depth for info in infos]
    assert depths == [None] * (per_depth - 1) + [1] * per_depth + [2] * per_depth + [
        3
    ] * per_depth + [4, 4]
    assert [info.nodes for info in infos] == sorted(info.nodes for info in infos)
    assert infos[-1] == result.info


def test_each_column_says_the_depth_of_its_own_score():
    infos: list[SearchInfo] = []
    pos = Position.from_moves("4453")
    make_engine("negamax:depth=3").search(pos, on_info=infos.append)
    per_depth = len(pos.legal_moves()) + 1
    # Third report of depth 2: the first three columns searched (best-first order) are
    # at depth 2, the others still show their depth-1 score.
    info = infos[per_depth + 2]
    depths = sorted(stat.depth for stat in info.columns if stat is not None)
    assert depths == [1] * (len(pos.legal_moves()) - 3) + [2] * 3
    assert info.depth == 1
    # A finished depth: every column at that depth.
    done = infos[2 * per_depth - 1]
    assert done.depth == 2
    assert all(stat.depth == 2 for stat in done.columns if stat is not None)


def test_a_stopped_search_labels_columns_with_the_finished_depth():
    result = make_engine("negamax:time=0.05,depth=40").search(Position.from_moves("4453"))
    depths = {stat.depth for stat in result.info.columns if stat is not None}
    assert depths == {result.info.depth}


def test_pv_is_a_legal_line_from_the_move():
    pos = Position.from_moves("4453")
    result = make_engine("negamax:depth=6").search(pos)
    assert result.info.pv[0] == result.move
    assert 1 <= len(result.info.pv) <= 6
    line = pos
    for col in result.info.pv:
        line = line.play(col)


def test_figures_of_a_finished_search():
    info = make_engine("negamax:depth=6", seed=1).search(Position.start()).info
    assert info.depth == 6
    assert info.nodes > 0 and info.rate > 0 and info.elapsed > 0
    assert not info.exact
    assert all(stat.score is not None and stat.proven is None for stat in info.columns)
    # The centre is the best opening column and the position is symmetric.
    assert info.best == 3
    assert info.columns[0].score == info.columns[6].score


def test_stops_when_asked():
    # The node cap only bounds the damage if the stop were ignored: the test then fails.
    info = check_stops_when_asked("negamax", Limits(time=3600, depth=40, iterations=300_000))
    # Depth 1 always finishes; after the stop, at most one clock check period more.
    assert info.depth is not None and info.depth <= 2
    assert info.nodes < 2000


def test_a_time_limit_returns_a_finished_depth():
    result = make_engine("negamax:time=0.05").search(Position.from_moves("4453"))
    assert result.info.depth >= 1
    assert result.move in Position.from_moves("4453").legal_moves()


def test_a_node_limit_is_respected():
    engine = NegamaxEngine(limits=Limits(iterations=500, depth=30))
    info = engine.search(Position.from_moves("4453")).info
    assert info.nodes <= 500 + 1


def test_the_table_is_reset_by_a_new_game():
    engine = make_engine("negamax:depth=3")
    engine.search(Position.start())
    assert engine.table
    engine.new_game()
    assert not engine.table


@pytest.mark.parametrize("size", [(4, 4, 3), (10, 10, 6)])
def test_plays_whole_games(size):
    play_a_game("negamax:depth=2", size)


def test_beats_the_random_player():
    assert play_a_game("negamax:depth=3", (7, 6, 4)).winner() == 0


TESTSETS = Path(__file__).resolve().parents[3] / "shared" / "testsets" / "pons"


def read_testset(name: str, count: int | None) -> list[tuple[str, int]]:
    path = TESTSETS / name
    if not path.exists():
        pytest.skip(f"{path} is absent")
    pairs = [line.split() for line in path.read_text().splitlines() if line.strip()]
    return [(moves, int(score)) for moves, score in pairs[:count]]


def check_testset(name: str, count: int | None) -> None:
    """Searched to the end, the column played carries the test set's exact score."""
    for moves, score in read_testset(name, count):
        pos = Position.from_moves(moves)
        result = NegamaxEngine(seed=1, limits=Limits(depth=pos.geometry.cells)).search(pos)
        stat = result.info.columns[result.move]
        assert (stat.score, stat.proven) == (score, proven_of(score)), moves


@pytest.mark.parametrize(("name", "count"), [("Test_L3_R1", 200), ("Test_L2_R1", 40)])
def test_endgames_of_the_solver_test_sets(name, count):
    check_testset(name, count)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["Test_L3_R1", "Test_L2_R1"])
def test_whole_endgame_test_sets(name):
    check_testset(name, None)
