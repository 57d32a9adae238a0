"""MCTS's tree grown in C (kernels/mcts_tree.c), read from Python like the Python tree.

`new_tree(position)` gives a `NativeTree` where the C kernels are built and the board
fits in 64 bits, else the pure-Python `Tree` (mcts_tree.py), the readable reference.
Both make the same tree from the same random numbers: C draws Python's own (the
Mersenne Twister state of the engine's `random.Random`, handed to C for a slice and
taken back after it), so a seeded search plays the same with and without a compiler.

C owns the node arrays; the reading methods (best move, principal variation, the
thinking panel's per-column figures, reuse of a subtree) are the Python tree's, over
ctypes views of those arrays, read between slices. A slice (`SLICE` iterations, some
milliseconds) runs without the GIL, so the app's UI thread runs meanwhile.
"""

from __future__ import annotations

import ctypes
import random
from typing import Any

from c4tui.engine.board.geometry import centre_first
from c4tui.engine.board.position import Position
from c4tui.engine.kernels import library
from c4tui.engine.players import mcts_tree
from c4tui.engine.players.mcts_tree import EXPAND_AT, Tree
from c4tui.engine.players.playout import random_bits_per_game

# Iterations per call into C: about 2.5 ms on 7x6 (some 800,000 iterations a second),
# short enough for the clock, the stop and the progress reports between slices, long
# enough that handing the random state over (tens of microseconds) costs about 1%.
SLICE = 2048

NO_MEMORY = 3  # c4m_copy_below's answer when malloc failed (as solver.h's)
MT_WORDS = 625  # Python's Mersenne Twister state: 624 words and the index (getstate)

# c4m_array's arrays, and the ctypes type of one element of each.
VISITS, MEAN, STONE, PROOF, FIRST, COUNT = range(6)
_ELEMENT: dict[int, Any] = {  # ctypes element types (`kind * n` is an array type)
    VISITS: ctypes.c_int64,
    MEAN: ctypes.c_double,
    STONE: ctypes.c_uint64,
    PROOF: ctypes.c_int8,
    FIRST: ctypes.c_int32,
    COUNT: ctypes.c_int8,
}


def new_tree(position: Position) -> Tree:
    """A tree for `position`: grown in C when the kernels serve this board, else Python."""
    lib = library.library()
    g = position.geometry
    if lib is None or g.width * (g.height + 1) > 64:
        return Tree(position)
    return NativeTree(position, lib, mcts_tree.MAX_NODES)


class Children:
    """The children of expanded nodes as `Tree.children` gives them: a range of ids."""

    def __init__(
        self, first: ctypes.Array[ctypes.c_int32], count: ctypes.Array[ctypes.c_int8]
    ) -> None:  # indexed, they give Python ints
        self._first = first
        self._count = count

    def get(self, node: int, default: range | None = None) -> range | None:
        first: int = self._first[node]
        return default if first < 0 else range(first, first + self._count[node])

    def __getitem__(self, node: int) -> range:
        kids = self.get(node)
        if kids is None:
            raise KeyError(node)
        return kids


class NativeTree(Tree):
    """The Python tree's interface over a tree that C grows (kernels/mcts_tree.c).

    Memory: C allocates the arrays for `max_nodes` nodes (plus one expansion) when the
    tree is made, about 40 bytes a node; a failed allocation is a MemoryError. Like the
    Python tree, past `max_nodes` the tree stops growing and leaves only play games.
    """

    SLICE = SLICE

    def __init__(self, position: Position, lib: ctypes.CDLL, max_nodes: int) -> None:
        g = position.geometry
        self.position = position
        self.geometry = g
        self.max_depth = 0
        self.ruled_out: dict[int, int] = {}
        self.verdict: dict[int, tuple[int, int]] = {}
        self.book_checked = False
        self._lib = lib
        self._max_nodes = max_nodes
        order = (ctypes.c_int * g.width)(*centre_first(g.width))
        self._handle = lib.c4m_new(
            g.width, g.height, g.connect, order, random_bits_per_game(g), EXPAND_AT, max_nodes
        )
        if not self._handle:
            raise MemoryError(f"no memory for an MCTS tree of {max_nodes} nodes")
        cap = max_nodes + g.width
        # C's arrays, indexed as the Python tree's lists are.
        arrays: dict[int, Any] = {
            which: (kind * cap).from_address(lib.c4m_array(self._handle, which))
            for which, kind in _ELEMENT.items()
        }
        self.visits = arrays[VISITS]
        self.mean = arrays[MEAN]
        self.stone = arrays[STONE]
        self.proof = arrays[PROOF]
        self.children = Children(arrays[FIRST], arrays[COUNT])  # type: ignore[assignment]  # read only: C expands
        self._state = (ctypes.c_uint32 * MT_WORDS)()
        self._done = ctypes.c_int64()

    def __del__(self) -> None:
        handle, self._handle = getattr(self, "_handle", None), None
        if handle:
            self._lib.c4m_free(handle)

    def expand_root(self) -> None:
        if self.children.get(0) is None:
            root = self.position
            self._lib.c4m_expand_root(self._handle, root.current, root.mask)

    def size(self) -> int:
        size: int = self._lib.c4m_size(self._handle)
        return size

    def _close(self, kid: int) -> None:
        self._lib.c4m_close(self._handle, kid)

    def grow(self, count: int, c: float, rng: random.Random) -> int:
        """Run up to `count` iterations in C, drawing from `rng` as the Python tree does."""
        version, words, gauss = rng.getstate()
        self._state[:] = words
        root = self.position
        self._lib.c4m_grow(
            self._handle, root.current, root.mask, count, c, self._state, ctypes.byref(self._done)
        )
        rng.setstate((version, tuple(self._state), gauss))
        self.max_depth = self._lib.c4m_max_depth(self._handle)
        return self._done.value

    def _copy_below(self, top: int, position: Position) -> Tree:
        tree = NativeTree(position, self._lib, self._max_nodes)
        if self._lib.c4m_copy_below(self._handle, top, tree._handle) == NO_MEMORY:
            raise MemoryError("no memory to copy the MCTS tree's subtree")
        return tree
