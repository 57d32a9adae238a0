"""The solver's transposition table: its size, its memory, how a bound is packed in it.

An entry is `key << 8 | value`, with the key the smaller of the position's key
(`current + mask`) and its mirror image's, so a position and its mirror share a slot.
The value byte holds 0 for an empty slot, 1..(max - min + 1) for an upper bound and
above that a lower bound. The C search (kernels/table.h) reads and writes the same layout,
so on 7x6 both searches can share one table. Only nodes with an even number of empty
cells, 6 or more, have entries (search.py's KEEP_MIN_EMPTY says why).
"""

from __future__ import annotations

import _thread
import ctypes
import mmap
import sys
from dataclasses import dataclass

from c4tui.engine.board.geometry import Geometry

# A prime near 2**23 entries of 8 bytes (64 MB) when a packed entry fits in 64 bits,
# else a smaller Python list for the big boards.
TABLE_SIZE = 8_388_593
LIST_TABLE_SIZE = 1_048_573
# The packed table when the C search uses it: a prime near 2**18 entries (2 MB, the
# size of the processor's second-level caches). Measured in CPU time against the 64 MB
# table: on the 8 slowest of 400 random positions it searched about 20% more nodes in
# half the time (0.18 s against 0.38 s for the slowest), and on 50 positions of each
# Pons set 2.0-2.3x faster: in C a probe that misses the cache costs more than a node.
# (Python's own search is slow enough per node that the bigger table pays there.)
NATIVE_TABLE_SIZE = 262_139
# The C search's table for a long search (no book to cut it short, and at least
# LONG_SEARCH_EMPTY empty cells: 7x6 from 12 stones down to the empty board): a prime
# near 2**23 entries, 64 MB, made on the first such search and kept with the solver.
# Measured against the 2 MB table (CPU time, no book, one thread): half the nodes and
# 1.1-1.4x faster on '444444' and '4444455' (2-5 s searches), and more the longer the
# search, as the small table fills.
LONG_TABLE_SIZE = TABLE_SIZE
LONG_SEARCH_EMPTY = 30
# With the book, the roots past it (12 stones and more on 7x6) and up to this many empty
# cells search with the big table too: no book below them, and nearly all the slow
# positions of 8-20 plies are of 12-16 (benchmarks/solver_tail.py). Measured on the 12
# slowest of 7,000 sampled (one thread, CPU time): 32% fewer nodes and 21% less time
# than with the 2 MB table (58.5 M nodes, 5.9 s, against 39.6 M, 4.7 s), and on 233
# random positions of 12-20 plies the median went from 2.4 to 3.0 ms, the slowest from
# 0.86 to 0.70 s.
PAST_BOOK_EMPTY = 26


def packed_fits(g: Geometry) -> bool:
    """True when a key (width * (height + 1) bits) and its value byte fit in 64 bits."""
    return g.width * (g.height + 1) + 8 <= 64


# Linux 5.14+: fault every page of a range in, writable, leaving its contents alone.
MADV_POPULATE_WRITE = 23
# Linux: back a range with 2 MB pages where the system allows it (transparent huge pages).
MADV_HUGEPAGE = 14
_libc = ctypes.CDLL(None, use_errno=True) if sys.platform == "linux" else None


# Tables up to this many bytes are faulted in at once (2 MB: a fraction of a
# millisecond); bigger ones by a thread while the search starts.
POPULATE_AT_ONCE = 4 << 20


def new_table(size: int, packed: bool) -> memoryview | list[int]:
    """An empty table of `size` entries.

    A packed table is anonymous memory, handed out zeroed by the system page by page
    as it is first touched: making it costs nothing (a filled 64 MB array took 0.1 s
    before the first answer). Its pages are faulted in ahead of the search, without
    writing them: at once for a small table (the C search's 2 MB), by a thread on the
    other core for the big one, so the search rarely waits for one. It is private
    memory in 2 MB pages where the system offers them: 32 faults instead of 16,384 for
    a 64 MB table, and fewer address-translation misses in a search that reads it at
    random (shared anonymous memory would not get them).
    """
    if not packed:
        return [0] * size
    memory = mmap.mmap(-1, 8 * size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    if _libc is not None:
        _advise(memory, MADV_HUGEPAGE)
        if len(memory) <= POPULATE_AT_ONCE:
            _populate(memory)
        else:
            # A bare thread: threading.Thread.start() waits until the new thread runs,
            # several milliseconds of the first answer on a busy machine.
            _thread.start_new_thread(_populate, (memory,))
    return memoryview(memory).cast("Q")


def _advise(memory: mmap.mmap, advice: int) -> None:
    assert _libc is not None  # called only where the C library is there (Linux)
    address = ctypes.addressof(ctypes.c_char.from_buffer(memory))
    _libc.madvise(ctypes.c_void_p(address), ctypes.c_size_t(len(memory)), advice)


def _populate(memory: mmap.mmap) -> None:
    """Fault every page of `memory` in (in a thread: ctypes lets go of the GIL in the call)."""
    _advise(memory, MADV_POPULATE_WRITE)


def clear_table(table: memoryview | list[int]) -> None:
    """Empty every slot in place (the pages stay in memory, as after a C memset)."""
    if isinstance(table, list):
        table[:] = [0] * len(table)
    else:
        ctypes.memset(ctypes.addressof(ctypes.c_char.from_buffer(table)), 0, table.nbytes)


@dataclass(frozen=True)
class Coding:
    """How a bound is stored in the value byte, for one board size's score range."""

    upper_shift: int  # stored upper bound = bound - upper_shift (1 and up)
    lower_base: int  # stored values above this are lower bounds
    lower_shift: int  # stored lower bound = bound + lower_shift

    @classmethod
    def of(cls, g: Geometry) -> Coding:
        low, high = -g.max_score, g.max_score
        return cls(upper_shift=low - 1, lower_base=high - low + 1, lower_shift=high - 2 * low + 2)


def mirror_bits(g: Geometry) -> dict[int, int]:
    """Each cell's bit -> the bit of the cell mirrored left to right."""
    return {
        g.bit(col, row): g.bit(g.width - 1 - col, row)
        for col in range(g.width)
        for row in range(g.height)
    }


def mirror_stones(g: Geometry, stones: int) -> int:
    """The stones of a bitboard mirrored left to right (Geometry.mirror)."""
    return g.mirror(stones)
