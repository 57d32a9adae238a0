"""Finding, checking and loading the compiled C kernels, or saying why they are not used.

The module's file is found through the import system and its C functions are loaded
with ctypes; nothing is compiled, cached or written at run time. Before loading, the
file is checked against the size and SHA-256 the build recorded next to it (setup.py):
loading a file cut short maps pages past its end, and the first call into them kills
the process with SIGBUS, with no message. A damaged or missing file leaves
`library()` None and the engines run their pure-Python code, which gives the same
answers; `kernels()` says why, and a damaged file gets one warning line on stderr.
C4TUI_PURE_PYTHON=1 forces the fallback.
"""

from __future__ import annotations

import ctypes
import hashlib
import importlib.util
import os
import sys
import threading
from pathlib import Path

from c4tui.engine import gil
from c4tui.engine.kernels.calls import COLUMN, POLL

MODULE = "c4tui.engine.kernels._kernels"
BUILD_RECORD = "_kernels.build"  # written by setup.py: "name size sha256"
RECORD_LIMIT = 1024  # bytes: a record is one short line

_lock = threading.Lock()
_loaded: list = []  # [(library or None, why)] once tried


def disabled() -> bool:
    """True when C4TUI_PURE_PYTHON asks for the pure-Python search."""
    return os.environ.get("C4TUI_PURE_PYTHON", "") not in ("", "0")


def module_path() -> str | None:
    """The installed kernels' file, or None when the install built none."""
    spec = importlib.util.find_spec(MODULE)
    return spec.origin if spec is not None else None


def damage(path: str) -> str | None:
    """Why the file at `path` is not the one the build made, or None when it is."""
    built = Path(path)
    record_path = built.with_name(BUILD_RECORD)
    try:
        with record_path.open("rb") as handle:
            fields = handle.read(RECORD_LIMIT).decode("ascii").split()
        name, size, digest = fields[0], int(fields[1]), fields[2]
    except (OSError, UnicodeDecodeError, IndexError, ValueError):
        return f"no readable build record ({record_path.name}) to check {built.name} against"
    if name != built.name:
        return f"the build record is for {name}, not {built.name}"
    try:
        data = built.read_bytes()
    except OSError as error:
        return f"{built.name} cannot be read ({error.strerror})"
    if len(data) != size:
        return f"{built.name} is {len(data)} bytes, the build made {size}"
    if hashlib.sha256(data).hexdigest() != digest:
        return f"{built.name} differs from the file the build made (SHA-256)"
    return None


def _declare(path: str) -> ctypes.CDLL:
    """Load the library and declare its functions' types."""
    # Which calls keep the GIL and why: the policy in gil.py.
    lib = gil.long_calls(path)
    u64, c_int, ptr, dbl = ctypes.c_uint64, ctypes.c_int, ctypes.c_void_p, ctypes.c_double
    i64 = ctypes.c_int64
    declarations = {
        "c4_new": ([c_int, c_int, c_int, c_int, u64], ptr),
        "c4_set_table": ([ptr, ptr, u64], None),
        "c4_set_book": ([ptr, ptr, u64, ptr, u64], None),
        "c4_set_stop": ([ptr, ptr], None),
        "c4_clear": ([ptr], None),
        "c4_free": ([ptr], None),
        "c4_nodes": ([ptr], u64),
        "c4_status": ([ptr], c_int),
        "c4_negamax": ([ptr, u64, u64, u64, u64, c_int, c_int, c_int, dbl, c_int, POLL], c_int),
        "c4_analyze": (
            [ptr, u64, u64, u64, u64, c_int, c_int, c_int, ptr, ptr, dbl, c_int, POLL, COLUMN],
            c_int,
        ),
        "c4p_new": ([c_int, c_int, c_int, c_int], ptr),
        "c4p_free": ([ptr], None),
        # MCTS's tree (mcts_tree.c); c4m_grow runs a slice of iterations off the GIL.
        "c4m_new": ([c_int, c_int, c_int, ptr, c_int, c_int, i64], ptr),
        "c4m_free": ([ptr], None),
        "c4m_expand_root": ([ptr, u64, u64], None),
        "c4m_grow": ([ptr, u64, u64, i64, dbl, ptr, ptr], None),
        "c4m_close": ([ptr, i64], None),
        "c4m_copy_below": ([ptr, i64, ptr], c_int),
        "c4m_size": ([ptr], i64),
        "c4m_max_depth": ([ptr], c_int),
        "c4m_array": ([ptr, c_int], ptr),
    }
    for name, (arguments, result) in declarations.items():
        function = getattr(lib, name)
        function.argtypes = arguments
        function.restype = result
    game = gil.short_calls(path).c4p_game
    game.argtypes = [ptr, u64, u64, ctypes.c_char_p]
    game.restype = c_int
    lib.c4p_game = game
    return lib


def _try_load() -> tuple[ctypes.CDLL | None, str]:
    if disabled():
        return None, "C4TUI_PURE_PYTHON is set"
    path = module_path()
    if path is None:
        return None, "the C kernels were not built when c4tui was installed"
    why = damage(path)
    if why is not None:
        why = f"the C kernels were not loaded: {why}; reinstall c4tui"
        print(f"c4tui: warning: {why} (running the pure-Python search)", file=sys.stderr)
        return None, why
    try:
        return _declare(path), path
    except (OSError, AttributeError) as error:  # a foreign file under our name
        return None, f"the C kernels did not load: {error}"


def library() -> ctypes.CDLL | None:
    """The C kernels, or None when they are disabled, absent, damaged or do not load."""
    with _lock:
        if not _loaded:
            _loaded.append(_try_load())
        return _loaded[0][0]


def kernels() -> str:
    """Which kernels run, in words: "compiled (path)" or "pure Python (why)"."""
    library()
    lib, why = _loaded[0]
    return f"compiled ({why})" if lib is not None else f"pure Python ({why})"
