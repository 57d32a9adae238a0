"""Flat Monte Carlo: round-robin random playouts per column, under a time or playout budget."""

from __future__ import annotations

import pytest

from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import Limits, SearchInfo
from c4tui.engine.players.flat import FlatMonteCarloEngine, Playout
from c4tui.engine.players.specs import make_engine
from tests.engine.engine_contract import (
    SIZES,
    check_deterministic,
    check_legal_moves_and_infos,
    check_stops_when_asked,
    check_wins_and_blocks,
    play_a_game,
)


@pytest.mark.parametrize("spec", ["flat:playouts=1", "flat:time=0.001"])
@pytest.mark.parametrize("size", SIZES)
def test_never_misses_a_win_or_a_block_at_tiny_budgets(spec, size):
    check_wins_and_blocks(spec, size)


@pytest.mark.parametrize("size", SIZES)
def test_legal_moves_and_infos(size):
    check_legal_moves_and_infos("flat:playouts=30", size)


def test_deterministic_for_a_seed():
    check_deterministic("flat:playouts=200")


def test_visits_are_round_robin_and_count_as_iterations():
    pos = Position.from_moves("4453")
    info = make_engine("flat:playouts=703", seed=1).search(pos).info
    visits = [stat.visits for stat in info.columns]
    assert sum(visits) == info.iterations == 703
    assert max(visits) - min(visits) <= 1
    assert all(-1 <= stat.value <= 1 for stat in info.columns)
    assert info.rate > 0 and info.nodes is None
    assert info.best == max(range(7), key=lambda c: (info.columns[c].value, visits[c]))


def test_every_column_gets_a_playout_even_on_a_tiny_budget():
    info = make_engine("flat:playouts=2", seed=1).search(Position.start()).info
    assert [stat.visits for stat in info.columns] == [1] * 7


def test_full_columns_get_no_playouts():
    pos = Position.from_moves("444444")
    info = make_engine("flat:playouts=60", seed=1).search(pos).info
    assert info.columns[3] is None
    assert sum(stat.visits for stat in info.columns if stat) == 60


def test_forced_moves_skip_the_playouts():
    info = make_engine("flat:playouts=500").search(Position.from_moves("47516")).info
    assert info.best == 2 and info.iterations == 0
    assert info.columns[0].proven == "loss"


def random_playout_value(pos: Position) -> float:
    """The exact mean result, for the side to move, of uniformly random play from `pos`."""
    if pos.winner() is not None:
        return -1.0  # the previous mover has just won
    if pos.is_draw():
        return 0.0
    moves = pos.legal_moves()
    return sum(-random_playout_value(pos.play(c)) for c in moves) / len(moves)


def test_values_are_the_mean_playout_results():
    # Late in a 4x4 game, where the exact mean of random play can be enumerated.
    pos = Position.from_moves("2234114", 4, 4, 4)
    legal = pos.legal_moves()
    info = make_engine("flat:playouts=4000", seed=2).search(pos).info
    for col in legal:
        expected = -random_playout_value(pos.play(col))
        assert info.columns[col].value == pytest.approx(expected, abs=0.06), col
    assert len({round(-random_playout_value(pos.play(c)), 2) for c in legal}) > 1


def test_playouts_score_wins_losses_and_draws():
    # X wins at once in column 1; a playout after column 1 is always a win.
    pos = Position.from_moves("121212")
    assert all(Playout(pos, lambda bits: 0).result_after(0) == 1 for _ in range(3))
    # Only column 4 is left; whatever falls there, the 4x4 game below ends in a draw.
    draw = Position.from_moves("223411432243431", 4, 4, 4)
    assert draw.legal_moves() == (0,)
    assert Playout(draw, lambda bits: 0).result_after(0) == 0


def test_enough_playouts_find_the_centre():
    info = make_engine("flat:playouts=7000", seed=4).search(Position.start()).info
    assert info.best == 3


def test_stops_when_asked():
    # The playout cap only bounds the damage if the stop were ignored: the test then fails.
    info = check_stops_when_asked("flat", Limits(time=3600, iterations=50_000))
    # The first report comes after 256 playouts; the stop is seen before the next one.
    assert info.iterations == 256


def test_the_time_budget_ends_the_search():
    result = make_engine("flat:time=0.05", seed=1).search(Position.start())
    assert result.info.iterations >= 7


def test_on_info_reports_growing_counts():
    infos: list[SearchInfo] = []
    make_engine("flat:playouts=1000", seed=1).search(Position.start(), on_info=infos.append)
    assert [info.iterations for info in infos] == [256, 512, 768, 1000]


def test_engine_takes_limits_from_the_caller():
    engine = FlatMonteCarloEngine(seed=1, playouts=50)
    assert engine.search(Position.start(), Limits(iterations=70)).info.iterations == 70
    assert engine.search(Position.start()).info.iterations == 50


@pytest.mark.parametrize("size", [(4, 4, 3), (10, 10, 6)])
def test_plays_whole_games(size):
    play_a_game("flat:playouts=40", size)


def test_beats_the_random_player():
    assert play_a_game("flat:playouts=300", (7, 6, 4)).winner() == 0
