"""The optional C kernels: the solver's search (csolver.c) and MCTS's random game (playout.c).

They are compiled when c4tui is installed, by the build backend, into the extension
module `c4tui.engine._kernels` (setup.py). Here that module's file is found through the
import system and its C functions are loaded with ctypes; nothing is compiled, cached or
written at run time. Where the install had no working compiler the module is absent,
`library()` returns None and the engines run their pure-Python code, which gives the
same answers. C4TUI_PURE_PYTHON=1 forces that fallback.
"""

from __future__ import annotations

import ctypes
import functools
import importlib.util
import os
import threading

from c4tui.engine import gil
from c4tui.engine.board.geometry import Geometry
from c4tui.engine.book import OpeningBook

MODULE = "c4tui.engine._kernels"
# Entries of the table C owns when the Python one is not a packed array (two words
# each, 4 MB): a prime near 2**18. Small enough to stay in the processor's caches, as the
# packed table (NATIVE_TABLE_SIZE): on six 8x7 positions of 28-34 plies it took 0.39 s
# of CPU time where a 64 MB table took 0.57 s (9% more nodes).
OWN_TABLE_SIZE = 262_139

POLL = ctypes.CFUNCTYPE(ctypes.c_int)
# Called by c4_analyze as each column's score becomes exact: (column, score).
COLUMN = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_int)
NO_COLUMN_CALLBACK = COLUMN()  # a null pointer: c4_analyze then calls nothing
NO_COLUMN = -1000  # c4_analyze's low and high of a full column (C4_NONE)
_lock = threading.Lock()
_loaded: list = []  # [(library or None, why)] once tried


def disabled() -> bool:
    """True when C4TUI_PURE_PYTHON asks for the pure-Python search."""
    return os.environ.get("C4TUI_PURE_PYTHON", "") not in ("", "0")


def _module_path() -> str | None:
    """The installed kernels' file, or None when the install built none."""
    spec = importlib.util.find_spec(MODULE)
    return spec.origin if spec is not None else None


def _load(path: str) -> ctypes.CDLL:
    # Which calls keep the GIL and why: the policy in gil.py.
    lib = gil.long_calls(path)
    u64, c_int, ptr = ctypes.c_uint64, ctypes.c_int, ctypes.c_void_p
    lib.c4_new.argtypes = [c_int, c_int, c_int, c_int, u64]
    lib.c4_new.restype = ptr
    lib.c4_set_table.argtypes = [ptr, ptr, u64]
    lib.c4_set_table.restype = None
    lib.c4_set_book.argtypes = [ptr, ptr, u64, ptr, u64]
    lib.c4_set_book.restype = None
    lib.c4_clear.argtypes = [ptr]
    lib.c4_clear.restype = None
    lib.c4_free.argtypes = [ptr]
    lib.c4_free.restype = None
    lib.c4_nodes.argtypes = [ptr]
    lib.c4_nodes.restype = u64
    lib.c4_stopped.argtypes = [ptr]
    lib.c4_stopped.restype = c_int
    lib.c4_negamax.argtypes = [ptr, u64, u64, u64, u64, c_int, c_int, c_int, POLL]
    lib.c4_negamax.restype = c_int
    lib.c4_analyze.argtypes = [ptr, u64, u64, u64, u64, c_int, c_int, c_int, ptr, ptr, POLL, COLUMN]
    lib.c4_analyze.restype = c_int
    lib.c4p_new.argtypes = [c_int, c_int, c_int, c_int]
    lib.c4p_new.restype = ptr
    lib.c4p_free.argtypes = [ptr]
    lib.c4p_free.restype = None
    game = gil.short_calls(path).c4p_game
    game.argtypes = [ptr, u64, u64, ctypes.c_char_p]
    game.restype = c_int
    lib.c4p_game = game
    return lib


def _try_load() -> tuple[ctypes.CDLL | None, str]:
    if disabled():
        return None, "C4TUI_PURE_PYTHON is set"
    path = _module_path()
    if path is None:
        return None, "the C kernels were not built when c4tui was installed"
    try:
        return _load(path), path
    except (OSError, AttributeError) as error:  # a damaged or foreign file
        return None, f"the C kernels did not load: {error}"


def library() -> ctypes.CDLL | None:
    """The C kernels, or None when they are disabled, absent or do not load."""
    with _lock:
        if not _loaded:
            _loaded.append(_try_load())
        return _loaded[0][0]


def kernels() -> str:
    """Which kernels run, in words: "compiled (path)" or "pure Python (why)"."""
    library()
    lib, why = _loaded[0]
    return f"compiled ({why})" if lib is not None else f"pure Python ({why})"


@functools.cache
def words(bitboard: int) -> tuple[int, int]:
    """A bitboard of up to 128 bits as the two 64-bit words the C functions take."""
    return bitboard & ((1 << 64) - 1), bitboard >> 64


def _int_array(width: int) -> type:
    return ctypes.c_int * width


class ColumnArrays:
    """Each column's bounds (mover's view) as c4_analyze writes them while it works."""

    def __init__(self, width: int) -> None:
        self.low = _int_array(width)()
        self.high = _int_array(width)()

    def bounds(self, col: int) -> tuple[int, int] | None:
        """(low, high) of a column, None for a full one."""
        low = self.low[col]
        return None if low == NO_COLUMN else (low, self.high[col])


class NativeSearch:
    """One solver's C search state: its table (shared or owned) and node counter."""

    def __init__(self, lib: ctypes.CDLL, g: Geometry, owns_table: bool) -> None:
        self._lib = lib
        self._handle = lib.c4_new(
            g.width, g.height, g.connect, g.max_score, OWN_TABLE_SIZE if owns_table else 0
        )
        if not self._handle:
            raise MemoryError("the native solver could not be made")
        self._table: memoryview | None = None
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

    def set_book(self, book: OpeningBook) -> None:
        """Search with the opening book's files, read in place (the book keeps them mapped)."""
        files = []
        for records in (book.exact_records, book.outcome_records):
            if records is None:
                files += [None, 0]
            else:
                # A private mapping is writable as far as ctypes can tell; C only reads it.
                start = ctypes.c_char.from_buffer(records.data)
                files += [ctypes.addressof(start), records.count]
        self._book = book
        self._lib.c4_set_book(self._handle, *files)

    def clear(self) -> None:
        """Forget the bounds of the table C owns."""
        self._lib.c4_clear(self._handle)

    @property
    def nodes(self) -> int:
        return self._lib.c4_nodes(self._handle)

    def negamax(
        self, current: int, mask: int, moves: int, alpha: int, beta: int, poll
    ) -> int | None:
        """The score in (alpha, beta) or a bound beyond it; None when `poll` stopped it."""
        with self.lock:
            score = self._lib.c4_negamax(
                self._handle,
                *words(current),
                *words(mask),
                moves,
                alpha,
                beta,
                poll,
            )
            if self._lib.c4_stopped(self._handle):
                return None
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
        poll,
        on_exact,
    ) -> bool:
        """Score every column into `arrays` in one call (csolver_columns.c), calling
        `on_exact(col, score)` as each is proven; True when `poll` stopped it."""
        with self.lock:
            stopped = self._lib.c4_analyze(
                self._handle,
                *words(current),
                *words(mask),
                moves,
                int(weak),
                threads,
                arrays.low,
                arrays.high,
                poll,
                on_exact,
            )
        return bool(stopped)
