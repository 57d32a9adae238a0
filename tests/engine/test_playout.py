"""playout.c plays the random game (MCTS's and flat's) exactly as the Python game does.

Same position, same random number: same result. So a seeded search plays the same
moves on a machine without a C compiler, and the app's snapshots stay the same.
"""

from __future__ import annotations

import random

import pytest

from c4tui.engine.board.geometry import geometry
from c4tui.engine.board.position import Position
from c4tui.engine.kernels import library
from c4tui.engine.players.mcts import MctsEngine
from c4tui.engine.players.playout import _native_random_game, python_random_game_for
from tests.engine.engine_contract import random_positions

pytestmark = pytest.mark.skipif(library.library() is None, reason="installed without C kernels")

# Every connect-N, and the largest boards that fit 64 bits (8x7 fills them exactly).
SIZES = [(7, 6, 4), (4, 4, 3), (5, 4, 4), (6, 7, 5), (8, 7, 4), (9, 6, 6), (10, 5, 4)]


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_c_and_python_play_the_same_random_games(size):
    g = geometry(*size)
    in_c, in_python = _native_random_game(g), python_random_game_for(g)
    assert in_c is not None
    rng = random.Random(repr(size))
    results = []
    for position in random_positions(size, 60, seed=5):
        for _ in range(20):
            seed = rng.getrandbits(32)
            c_result = in_c(position.current, position.mask, random.Random(seed).getrandbits)
            python_result = in_python(
                position.current, position.mask, random.Random(seed).getrandbits
            )
            assert c_result == python_result, (position.to_moves(), seed)
            results.append(c_result)
    assert set(results) >= {1, -1}


def test_boards_beyond_64_bits_keep_the_python_game():
    assert _native_random_game(geometry(10, 10, 4)) is None
    assert _native_random_game(geometry(9, 7, 4)) is None  # 9 x 8 = 72 bits


def test_a_seeded_search_is_the_same_with_either_game(monkeypatch):
    position = Position.from_moves("4453")
    with_c = MctsEngine(seed=3, iterations=2000, book=0).search(position).info
    monkeypatch.setattr("c4tui.engine.players.mcts_tree.random_game_for", python_random_game_for)
    in_python = MctsEngine(seed=3, iterations=2000, book=0).search(position).info
    assert with_c.columns == in_python.columns
    assert with_c.best == in_python.best
