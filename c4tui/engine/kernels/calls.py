"""The solver's C state as the Python solver uses it: its table, its books, its stops.

One `NativeSearch` per Solver. Its searches stop on their own flag (an int C reads
every POLL_EVERY nodes, `stop()` sets it from any thread), on a deadline C reads from
the monotonic clock, and on an optional Python callback C asks at most every
hundredth of a second (see stops.c). Called from Python's main thread, a search also
ends on Ctrl-C: C watches for SIGINT during the call, and the signal is raised again
here once the call has returned, for Python's own handler (KeyboardInterrupt).
"""

from __future__ import annotations

import ctypes
import math
import signal
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from c4tui.engine.board.geometry import Geometry

if TYPE_CHECKING:  # the book reader imports these bindings
    from c4tui.engine.solver.book import SortedRecords

# Entries of the table C owns when the Python one is not a packed array (two words
# each, 4 MB): a prime near 2**18. Small enough to stay in the processor's caches, as the
# packed table (NATIVE_TABLE_SIZE): on six 8x7 positions of 28-34 plies it took 0.39 s
# of CPU time where a 64 MB table took 0.57 s (9% more nodes).
OWN_TABLE_SIZE = 262_139

POLL = ctypes.CFUNCTYPE(ctypes.c_int)
NO_POLL = POLL()  # a null pointer: C then asks no callback
# Called by c4_analyze as each column's score becomes exact: (column, score).
COLUMN = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_int)
NO_COLUMN_CALLBACK = COLUMN()  # a null pointer: c4_analyze then calls nothing
NO_COLUMN = -1000  # c4_analyze's low and high of a full column (C4_NONE)

# How a C search ended (solver.h).
DONE, STOPPED, INTERRUPTED, NO_MEMORY = 0, 1, 2, 3
_WORDS = (1 << 64) - 1


class Stopped(Exception):
    """The C search stopped before its answer: flag, deadline, callback or Ctrl-C."""


def words(bitboard: int) -> tuple[int, int]:
    """A bitboard of up to 128 bits as the two 64-bit words the C functions take."""
    return bitboard & _WORDS, bitboard >> 64


def _watch_interrupt() -> bool:
    """Whether a call now should watch for SIGINT: from the main thread, while Ctrl-C
    means KeyboardInterrupt (Python's own handler). A program with a handler of its
    own (one that notes the signal and carries on) keeps its searches running."""
    return (
        threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    )


class ColumnArrays:
    """Each column's bounds (mover's view) as c4_analyze writes them while it works."""

    def __init__(self, width: int) -> None:
        self.low = (ctypes.c_int * width)()
        self.high = (ctypes.c_int * width)()

    def bounds(self, col: int) -> tuple[int, int] | None:
        """(low, high) of a column, None for a full one."""
        low = self.low[col]
        return None if low == NO_COLUMN else (low, self.high[col])


class NativeSearch:
    """One solver's C search state: its table (shared or owned), stop flag, node count."""

    def __init__(self, lib: ctypes.CDLL, g: Geometry, owns_table: bool) -> None:
        self._lib = lib
        self._handle = lib.c4_new(
            g.width, g.height, g.connect, g.max_score, OWN_TABLE_SIZE if owns_table else 0
        )
        if not self._handle:
            raise MemoryError("the native solver could not be made")
        self._stop = ctypes.c_int(0)
        lib.c4_set_stop(self._handle, ctypes.byref(self._stop))
        self._table: memoryview | None = None
        self._long_table: memoryview | None = None
        # One search at a time per table: the C code has no lock of its own.
        self.lock = threading.Lock()

    def __del__(self) -> None:
        handle, self._handle = getattr(self, "_handle", None), None
        if handle:
            self._lib.c4_free(handle)

    def share_table(self, table: memoryview | None) -> None:
        """Search with the Python solver's packed table (kept alive here); None: none."""
        self._table = table
        address, length = None, 0
        if table is not None:
            address, length = ctypes.addressof(ctypes.c_char.from_buffer(table)), len(table)
        self._lib.c4_set_table(self._handle, address, length)

    def offer_long_table(self, table: memoryview | None, after_nodes: int) -> None:
        """A bigger packed table (kept alive here; None: none) that a search moves to
        once one call has searched `after_nodes` nodes (table.c's c4_grow_table)."""
        self._long_table = table
        address, length = None, 0
        if table is not None:
            address, length = ctypes.addressof(ctypes.c_char.from_buffer(table)), len(table)
        self._lib.c4_set_long_table(self._handle, address, length, after_nodes)

    def on_long_table(self) -> bool:
        """Whether the searches use the long table now (they stay there once moved)."""
        return bool(self._lib.c4_on_long_table(self._handle))

    def set_book(
        self, exact_records: SortedRecords | None, outcome_records: SortedRecords | None
    ) -> None:
        """Search with the opening book's files (solver/book.py's SortedRecords or None),
        read in place: the book keeps them mapped, and this object keeps the book."""
        files = []
        for records in (exact_records, outcome_records):
            if records is None:
                files += [None, 0]
            else:
                # A private mapping is writable as far as ctypes can tell; C only reads it.
                start = ctypes.c_char.from_buffer(records.data)
                files += [ctypes.addressof(start), records.count]
        self._books = (exact_records, outcome_records)
        self._lib.c4_set_book(self._handle, *files)

    def clear(self) -> None:
        """Forget the bounds of the table C owns."""
        self._lib.c4_clear(self._handle)

    def stop(self) -> None:
        """Make the search under way stop at its next look (from any thread)."""
        self._stop.value = 1

    @property
    def nodes(self) -> int:
        nodes: int = self._lib.c4_nodes(self._handle)
        return nodes

    def negamax(
        self,
        current: int,
        mask: int,
        moves: int,
        alpha: int,
        beta: int,
        *,
        seconds: float | None,
        poll: ctypes._CFunctionType = NO_POLL,
    ) -> int:
        """The score in (alpha, beta) or a bound beyond it; Stopped when it stopped."""
        with self.lock:
            self._stop.value = 0
            watch = _watch_interrupt()
            score: int = self._lib.c4_negamax(
                self._handle,
                *words(current),
                *words(mask),
                moves,
                alpha,
                beta,
                math.inf if seconds is None else seconds,
                watch,
                poll,
            )
            self._check(self._lib.c4_status(self._handle))
        return score

    def analyze(
        self,
        current: int,
        mask: int,
        moves: int,
        *,
        weak: bool,
        threads: int,
        arrays: ColumnArrays,
        seconds: float | None,
        poll: ctypes._CFunctionType = NO_POLL,
        on_exact: Callable[[int, int], None] | None = None,
        known: tuple[int, int] | None = None,
    ) -> None:
        """Score every column into `arrays` in one call (columns.c), calling
        `on_exact(col, score)` as each is proven; Stopped when it stopped first.
        `known`: (column, score) of a column whose score is known beforehand."""
        # No callback when nobody listens: making one costs microseconds.
        callback = NO_COLUMN_CALLBACK if on_exact is None else COLUMN(on_exact)
        with self.lock:
            self._stop.value = 0
            status = self._lib.c4_analyze(
                self._handle,
                *words(current),
                *words(mask),
                moves,
                int(weak),
                threads,
                arrays.low,
                arrays.high,
                math.inf if seconds is None else seconds,
                _watch_interrupt(),
                poll,
                callback,
                *(known if known is not None else (-1, 0)),
            )
            self._check(status)

    @staticmethod
    def _check(status: int) -> None:
        if status == DONE:
            return
        if status == NO_MEMORY:
            raise MemoryError("the C search ran out of memory")
        if status == INTERRUPTED:
            # Ctrl-C arrived during the call: let Python's handler act on it now.
            signal.raise_signal(signal.SIGINT)
        raise Stopped
