"""The solver's transposition table: its size, its memory, how a bound is packed in it.

An entry is `key << 8 | value`, with the key the smaller of the position's key
(`current + mask`) and its mirror image's, so a position and its mirror share a slot.
The value byte holds 0 for an empty slot, 1..(max - min + 1) for an upper bound and
above that a lower bound. Where the key leaves room in a packed entry (7x6: 49 bits of
64) the entry holds both bounds instead, `key << 2b | floor field << b | ceiling field`
(Coding's bound_bits b). The C search (kernels/table.h) reads and writes the same layout,
so on 7x6 both searches can share one table. Only nodes with 6 or more empty cells
have entries (search.py's KEEP_MIN_EMPTY says why). A big table's last slots are a
region of their own for the nodes near the end of the game (`deep_region`).
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
# near 2**23 entries, 64 MB, mapped on the first such search and kept with the solver.
# Measured against the 2 MB table (CPU time, no book, one thread): half the nodes and
# 1.1-1.4x faster on '444444' and '4444455' (2-5 s searches), and more the longer the
# search, as the small table fills.
LONG_TABLE_SIZE = TABLE_SIZE
LONG_SEARCH_EMPTY = 30
# With the book, the roots past it (12 stones and more on 7x6) and up to this many empty
# cells may search long too: no book below them, and nearly all the slow positions of
# 8-20 plies are of 12-16 (benchmarks/solver_tail.py). Measured on the 12 slowest of
# 7,000 sampled (one thread, CPU time): 32% fewer nodes and 21% less time with a 64 MB
# table than with the 2 MB one (58.5 M nodes, 5.9 s, against 39.6 M, 4.7 s).
PAST_BOOK_EMPTY = 26
# But most of those positions take a few milliseconds, and a new process pays for every
# page of a big table its search writes (on the shared development machine 0.02-0.2 s of
# CPU time for 64 MB, and as much memory in every served client). So a search that may be
# long starts with the small table and moves to the big one after LONG_AFTER_NODES nodes
# of one call (kernels/table.c's c4_grow_table), and past the book the big one is 16 MB.
# Measured in new processes, one thread, 2026-11-26 at a load of 6-8: on 60 random
# positions of 12-16 plies the median went from 29.3 ms (64 MB from the start) to 12.3
# ms and the total from 3.22 to 1.92 s; on the 12 slowest tail positions the time stayed
# within the run-to-run spread (10.1-11.0 s in all) with 118 M nodes against 101 M.
# Since every node of 6 or more empty cells has an entry (kernels/table.h's tt_keeps), the
# small table fills twice as fast, and the move comes sooner: after 2**18 nodes rather than
# 2**20: on the 12 slowest of the kept tail set 7% fewer nodes (92.6 M -> 86.5 M) and
# 6-7% less CPU time (docs/results-solver.md); searches of 2**18-2**20 nodes leave the
# small table, which stays in the cache, sooner (80 random 12-16-ply positions, a new
# solver each: p90 103-107 ms -> 123-124 ms, the median and the total as before).
PAST_BOOK_TABLE_SIZE = 2_097_143  # a prime near 2**21 entries: 16 MB
LONG_AFTER_NODES = 1 << 18
# The deep region (kernels/table.h says why, with the figures): a table of at least
# DEEP_MIN_TABLE entries keeps its last DEEP_ENTRIES for the nodes of at most
# DEEP_MAX_EMPTY empty cells, a part that stays in the processor's cache. The C search
# has the same rule and figures; the two searches must agree node for node.
DEEP_MIN_TABLE = 1 << 20
DEEP_ENTRIES = 98_297  # a prime: 768 KB of a packed table
DEEP_MAX_EMPTY = 15


def deep_region(size: int, cells: int) -> tuple[int, int]:
    """Where a table of `size` entries splits, for a board of `cells` cells: the main
    part's size (the deep region's first slot) and the fewest stones of a node whose
    entry is in the deep region (more than any node's when the table does not split)."""
    if size < DEEP_MIN_TABLE:
        return size, cells + 1
    return size - DEEP_ENTRIES, cells - DEEP_MAX_EMPTY


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


def new_table(size: int, packed: bool, *, populate: bool = True) -> memoryview | list[int]:
    """An empty table of `size` entries.

    A packed table is anonymous memory, handed out zeroed by the system page by page
    as it is first touched: making it costs nothing (a filled 64 MB array took 0.1 s
    before the first answer). Its pages are faulted in ahead of the search, without
    writing them: at once for a small table (the C search's 2 MB), by a thread on the
    other core for the big one, so the search rarely waits for one. It is private
    memory in 2 MB pages where the system offers them: 32 faults instead of 16,384 for
    a 64 MB table, and fewer address-translation misses in a search that reads it at
    random (shared anonymous memory would not get them). `populate=False` leaves every
    page to be faulted in when a search first writes it: the long tables, which most
    searches never reach (LONG_AFTER_NODES).
    """
    if not packed:
        return [0] * size
    memory = mmap.mmap(-1, 8 * size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    if _libc is not None:
        _advise(memory, MADV_HUGEPAGE)
        if populate and len(memory) <= POPULATE_AT_ONCE:
            _populate(memory)
        elif populate:
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
    """How an entry's bounds are stored, for one board size's score range.

    One bound: in the value byte. Two bounds (where bound_bits is not 0): a floor field
    of bound + bound_offset above a ceiling field of bound_offset - bound, each of
    bound_bits bits; a field of 0 is no bound, read as a floor or ceiling beyond every
    score (-bound_offset, bound_offset), so an empty slot has none.
    """

    upper_shift: int  # stored upper bound = bound - upper_shift (1 and up)
    lower_base: int  # stored values above this are lower bounds
    lower_shift: int  # stored lower bound = bound + lower_shift
    bound_bits: int  # each bound's field in a two-bound entry; 0: one bound, a byte
    bound_offset: int

    @classmethod
    def of(cls, g: Geometry) -> Coding:
        low, high = -g.max_score, g.max_score
        bits = (2 * high + 1).bit_length()
        two = packed_fits(g) and g.width * (g.height + 1) + 2 * bits <= 64
        return cls(
            upper_shift=low - 1,
            lower_base=high - low + 1,
            lower_shift=high - 2 * low + 2,
            bound_bits=bits if two else 0,
            bound_offset=high + 1,
        )

    @property
    def key_shift(self) -> int:
        """Where an entry's key starts: above its bounds."""
        return 2 * self.bound_bits if self.bound_bits else 8

    def bounds(self, value: int) -> tuple[int, int]:
        """The floor and the ceiling of a score that an entry's bits below its key
        hold (value = entry & ((1 << key_shift) - 1)); beyond every score: none."""
        b, offset = self.bound_bits, self.bound_offset
        if b:
            return (value >> b) - offset, offset - (value & ((1 << b) - 1))
        if value > self.lower_base:
            return value - self.lower_shift, offset
        if value:
            return -offset, value + self.upper_shift
        return -offset, offset

    def with_floor(self, value: int, floor: int) -> int:
        """The bits that store a floor, with `value`'s ceiling (two bounds)."""
        b = self.bound_bits
        if b:
            return (floor + self.bound_offset) << b | value & ((1 << b) - 1)
        return floor + self.lower_shift

    def with_ceiling(self, value: int, ceiling: int) -> int:
        """The bits that store a ceiling, with `value`'s floor (two bounds)."""
        b = self.bound_bits
        if b:
            return value >> b << b | (self.bound_offset - ceiling)
        return ceiling - self.upper_shift

    def exact(self, score: int) -> int:
        """The bits that store an exact score (one bound: as a ceiling)."""
        b = self.bound_bits
        if b:
            return (score + self.bound_offset) << b | (self.bound_offset - score)
        return score - self.upper_shift


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
