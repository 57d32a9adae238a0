"""MCTS's tree in C (kernels/mcts_tree.c) is a twin of the Python tree (mcts_tree.py).

The same position, the same seed: the same visits, results and proofs in every node,
the same random numbers used, the same move; also through the engine, with tree reuse.
"""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from c4tui.engine.board.position import Position
from c4tui.engine.kernels import library
from c4tui.engine.players import mcts, mcts_tree
from c4tui.engine.players.mcts import MctsEngine
from c4tui.engine.players.mcts_native import NativeTree, new_tree
from c4tui.engine.players.mcts_tree import Tree

pytestmark = pytest.mark.skipif(library.library() is None, reason="C kernels not built")

# Boards whose bitboards fit the C tree's 64 bits.
SIZES = [(7, 6, 4), (4, 4, 3), (5, 7, 5), (9, 4, 3), (6, 5, 4)]


@st.composite
def positions(draw) -> Position:
    """A position of a random game on a random board, not over."""
    size = draw(st.sampled_from(SIZES))
    pos = Position.start(*size)
    for choice in draw(st.lists(st.integers(0, 15), max_size=size[0] * size[1])):
        moves = pos.legal_moves()
        if pos.is_over() or not moves:
            break
        after = pos.play(moves[choice % len(moves)])
        if after.is_over():
            break
        pos = after
    return pos


def _nodes(tree: Tree) -> list[tuple]:
    n = tree.size()
    return list(zip(tree.visits[:n], tree.mean[:n], tree.proof[:n], tree.stone[:n], strict=True))


def _same_trees(python: Tree, native: Tree) -> None:
    c = math.sqrt(2)
    assert _nodes(python) == _nodes(native)
    assert python.column_stats(c) == native.column_stats(c)
    assert python.best_column() == native.best_column()
    assert python.max_depth == native.max_depth


@settings(max_examples=40, deadline=None)
@given(positions(), st.integers(0, 2**32), st.lists(st.integers(1, 60), min_size=1, max_size=4))
def test_the_c_tree_grows_the_python_tree(pos, seed, slices):
    python, native = Tree(pos), new_tree(pos)
    assert isinstance(native, NativeTree)
    python.expand_root()
    native.expand_root()
    python_rng, native_rng = random.Random(seed), random.Random(seed)
    for count in slices:
        done = python.grow(count, math.sqrt(2), python_rng)
        assert native.grow(count, math.sqrt(2), native_rng) == done
        _same_trees(python, native)
        # The same random numbers were drawn: the engine's generator goes on alike.
        assert python_rng.getstate() == native_rng.getstate()


def _play_on(engine: MctsEngine, moves: str) -> list[tuple]:
    """Three searches of one game (each our move and its expected reply apart), reusing
    the tree: each search's move, per-column figures and line."""
    pos = Position.from_moves(moves)
    seen = []
    for _ in range(3):
        result = engine.search(pos)
        seen.append((result.move, result.info.columns, result.info.pv))
        if len(result.info.pv) < 2:
            break
        pos = pos.play(result.move)
        pos = pos if pos.is_over() else pos.play(result.info.pv[1])
        if pos.is_over():
            break
    return seen


@pytest.mark.parametrize("moves", ["", "4453", "44444433"])
def test_the_engine_plays_the_same_in_c_and_python_with_tree_reuse(monkeypatch, moves):
    native_engine = MctsEngine(seed=7, iterations=300)
    in_c = _play_on(native_engine, moves)
    assert isinstance(native_engine.tree, NativeTree)
    monkeypatch.setattr(mcts, "new_tree", Tree)
    python_engine = MctsEngine(seed=7, iterations=300)
    assert _play_on(python_engine, moves) == in_c
    assert not isinstance(python_engine.tree, NativeTree)


def test_the_c_tree_stops_growing_at_the_node_cap(monkeypatch):
    monkeypatch.setattr(mcts_tree, "MAX_NODES", 50)
    engine = MctsEngine(seed=1, iterations=2000)
    info = engine.search(Position.start()).info
    assert isinstance(engine.tree, NativeTree)
    assert info.iterations == 2000
    assert info.nodes < 50 + 7  # the last expansion may add one node's children


def test_no_memory_for_the_node_arrays_is_an_error():
    with pytest.raises(MemoryError):
        NativeTree(Position.start(), library.library(), 2**50)


def test_a_board_past_64_bits_gets_the_python_tree():
    assert type(new_tree(Position.start(10, 10, 6))) is Tree
