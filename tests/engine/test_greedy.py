"""The greedy engine: win, else block, else avoid handing a win, else random."""

from __future__ import annotations

from collections import Counter

import pytest

from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import ColumnStat
from c4tui.engine.players.specs import make_engine
from c4tui.engine.players.tactics import forced_move, safe_columns
from tests.engine.engine_contract import (
    SIZES,
    check_deterministic,
    check_legal_moves_and_infos,
    check_wins_and_blocks,
    play_a_game,
    random_positions,
)


@pytest.mark.parametrize("size", SIZES)
def test_never_misses_a_win_or_a_block(size):
    check_wins_and_blocks("greedy", size)


@pytest.mark.parametrize("size", SIZES)
def test_legal_moves_and_infos(size):
    check_legal_moves_and_infos("greedy", size)


def test_deterministic_for_a_seed():
    check_deterministic("greedy")


def test_prefers_its_own_win_to_a_block():
    # Both sides have three on a row; only the mover's spots are playable.
    assert make_engine("greedy", seed=0).search(Position.from_moves("445566")).move in (2, 6)


def test_never_plays_under_an_opponent_spot_when_it_can_avoid_it():
    pos = Position.from_moves("5256233")  # column 4 (index 3) is under X's spot
    moves = {make_engine("greedy", seed=seed).search(pos).move for seed in range(40)}
    assert 3 not in moves
    assert len(moves) > 1  # and picks at random among the rest


def test_forced_or_safe_moves_on_random_positions():
    engine = make_engine("greedy", seed=2)
    for pos in random_positions((7, 6, 4), 60):
        safe = safe_columns(pos)
        move = engine.search(pos).move
        if forced_move(pos) is not None:
            assert move == forced_move(pos)
        elif safe and move not in safe:
            pytest.fail(f"{pos!r}: played {move + 1}, safe were {[c + 1 for c in safe]}")


def test_random_among_equals():
    counts = Counter(
        make_engine("greedy", seed=seed).search(Position.start()).move for seed in range(200)
    )
    assert set(counts) == set(range(7))


def test_the_info_shows_proven_columns():
    info = make_engine("greedy").search(Position.from_moves("47516")).info
    assert info.columns[2] == ColumnStat()
    assert info.columns[0].proven == "loss"


@pytest.mark.parametrize("size", [(4, 4, 3), (10, 10, 6)])
def test_plays_whole_games(size):
    play_a_game("greedy", size)
