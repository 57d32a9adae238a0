"""Optional C accelerators, built on first use: the solver's search (csolver.c) and
MCTS's random game (playout.c).

The C files are compiled with the system C compiler into one library in the user cache
directory (the file name carries a hash of the sources and the flags, and is written
atomically, so concurrent processes and upgrades are safe) and loaded with ctypes.
Anything that goes wrong — no compiler, a failed build, a library that does not load —
leaves `library()` returning None, and the engines keep their pure-Python code, which
gives the same answers. C4TUI_PURE_PYTHON=1 forces that fallback.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import threading
from array import array
from pathlib import Path

from c4tui.engine.book import OpeningBook
from c4tui.engine.geometry import Geometry

SOURCES = [Path(__file__).with_name(name) for name in ("csolver.c", "playout.c")]
FLAGS = ["-O2", "-shared", "-fPIC", "-std=gnu11"]
# Entries of the table C owns when the Python one is not a packed array (two words
# each, 64 MB): a prime near 2**22.
OWN_TABLE_SIZE = 4_194_301
COMPILE_SECONDS = 120

POLL = ctypes.CFUNCTYPE(ctypes.c_int)
_lock = threading.Lock()
_loaded: list = []  # [library or None] once tried


def disabled() -> bool:
    """True when C4TUI_PURE_PYTHON asks for the pure-Python search."""
    return os.environ.get("C4TUI_PURE_PYTHON", "") not in ("", "0")


def _compiler() -> str | None:
    name = os.environ.get("CC") or "cc"
    return shutil.which(name) or shutil.which("gcc") or shutil.which("clang")


def _cache_dir() -> Path:
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("c4tui"))


def _build(compiler: str) -> Path:
    """The compiled library's path, compiling it unless the cache already has it."""
    source = b"\0".join(path.read_bytes() for path in SOURCES)
    tag = "\0".join([compiler, *FLAGS, platform.machine(), sys.platform]).encode()
    digest = hashlib.sha256(source + b"\0" + tag).hexdigest()[:16]
    target = _cache_dir() / f"csolver-{digest}.so"
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(suffix=".so", dir=target.parent)
    os.close(fd)
    try:
        subprocess.run(
            [compiler, *FLAGS, "-o", temp, *map(str, SOURCES)],
            check=True,
            capture_output=True,
            timeout=COMPILE_SECONDS,
        )
        # Atomic: another process sees either no library or a whole one.
        os.replace(temp, target)
        # Libraries built from older sources are never used again.
        for old in target.parent.glob("csolver-*.so"):
            if old != target:
                old.unlink(missing_ok=True)
    finally:
        if os.path.exists(temp):
            os.unlink(temp)
    return target


def _load(path: Path) -> ctypes.CDLL:
    lib = ctypes.CDLL(str(path))
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
    lib.c4p_new.argtypes = [c_int, c_int, c_int, c_int]
    lib.c4p_new.restype = ptr
    lib.c4p_free.argtypes = [ptr]
    lib.c4p_free.restype = None
    # The random game takes a microsecond or two: called through PyDLL, it keeps the
    # GIL, as releasing and taking it back around so short a call costs more than the
    # call, and hands the GIL to the UI thread thousands of times a second, which
    # measured slower keys (benchmarks/app_latency.py: p95 about 90 ms, not 40).
    game = ctypes.PyDLL(str(path)).c4p_game
    game.argtypes = [ptr, u64, u64, ctypes.c_char_p]
    game.restype = c_int
    lib.c4p_game = game
    return lib


def library() -> ctypes.CDLL | None:
    """The loaded C library, or None when it is disabled or cannot be built."""
    if disabled():
        return None
    with _lock:
        if not _loaded:
            lib = None
            try:
                compiler = _compiler()
                if compiler is not None and all(path.is_file() for path in SOURCES):
                    lib = _load(_build(compiler))
            except Exception:
                lib = None  # the pure-Python search serves instead
            _loaded.append(lib)
        return _loaded[0]


def warm_up() -> None:
    """Build (or load) the library in a background thread, so that the first search
    that wants it does not wait for the compiler on its own clock."""
    threading.Thread(target=library, name="c4tui-native-build", daemon=True).start()


class NativeSearch:
    """One solver's C search state: its table (shared or owned) and node counter."""

    def __init__(self, lib: ctypes.CDLL, g: Geometry, owns_table: bool) -> None:
        self._lib = lib
        self._handle = lib.c4_new(
            g.width, g.height, g.connect, g.max_score, OWN_TABLE_SIZE if owns_table else 0
        )
        if not self._handle:
            raise MemoryError("the native solver could not be made")
        self._table: array | None = None
        # One search at a time per table: the C code has no lock of its own.
        self.lock = threading.Lock()

    def __del__(self) -> None:
        handle, self._handle = getattr(self, "_handle", None), None
        if handle:
            self._lib.c4_free(handle)

    def share_table(self, table: array | None) -> None:
        """Search with the Python solver's packed table (kept alive here); None: none."""
        self._table = table
        address, length = table.buffer_info() if table is not None else (None, 0)
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
        low = (1 << 64) - 1
        with self.lock:
            score = self._lib.c4_negamax(
                self._handle,
                current & low,
                current >> 64,
                mask & low,
                mask >> 64,
                moves,
                alpha,
                beta,
                poll,
            )
            if self._lib.c4_stopped(self._handle):
                return None
        return score
