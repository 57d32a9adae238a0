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
_loaded: list[tuple[ctypes.CDLL | None, str]] = []  # [(library or None, why)] once tried


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


# The C functions Python calls, as ctypes declares them: name -> (arguments, result).
# kernels/exports.h is the contract; tests/engine/test_exports.py checks these against it.
_U64, _I64, _INT, _PTR, _DBL = (
    ctypes.c_uint64,
    ctypes.c_int64,
    ctypes.c_int,
    ctypes.c_void_p,
    ctypes.c_double,
)
PROTOTYPES: dict[str, tuple[list[type], type | None]] = {
    "c4_new": ([_INT, _INT, _INT, _INT, _U64], _PTR),
    "c4_set_table": ([_PTR, _PTR, _U64], None),
    "c4_set_long_table": ([_PTR, _PTR, _U64, _U64], None),
    "c4_on_long_table": ([_PTR], _INT),
    "c4_set_book": ([_PTR, _PTR, _U64, _PTR, _U64], None),
    "c4_set_stop": ([_PTR, _PTR], None),
    "c4_clear": ([_PTR], None),
    "c4_free": ([_PTR], None),
    "c4_nodes": ([_PTR], _U64),
    "c4_status": ([_PTR], _INT),
    "c4_search_build": ([], _INT),
    "c4_negamax": (
        [_PTR, _U64, _U64, _U64, _U64, _INT, _INT, _INT, _DBL, _INT, POLL],
        _INT,
    ),
    "c4_analyze": (
        [
            _PTR,
            _U64,
            _U64,
            _U64,
            _U64,
            _INT,
            _INT,
            _INT,
            _PTR,
            _PTR,
            _DBL,
            _INT,
            POLL,
            COLUMN,
            _INT,
            _INT,
        ],
        _INT,
    ),
    "c4p_new": ([_INT, _INT, _INT, _INT], _PTR),
    "c4p_free": ([_PTR], None),
    # The random game's limbs go in as bytes; called with the GIL held (SHORT_CALLS).
    "c4p_game": ([_PTR, _U64, _U64, ctypes.c_char_p], _INT),
    # MCTS's tree (mcts_tree.c); c4m_grow runs a slice of iterations off the GIL.
    "c4m_new": ([_INT, _INT, _INT, _PTR, _INT, _INT, _I64], _PTR),
    "c4m_free": ([_PTR], None),
    "c4m_expand_root": ([_PTR, _U64, _U64], None),
    "c4m_grow": ([_PTR, _U64, _U64, _I64, _DBL, _PTR, _PTR], None),
    "c4m_close": ([_PTR, _I64], None),
    "c4m_copy_below": ([_PTR, _I64, _PTR], _INT),
    "c4m_size": ([_PTR], _I64),
    "c4m_max_depth": ([_PTR], _INT),
    "c4m_array": ([_PTR, _INT], _PTR),
}
# Calls too short to be worth letting go of the GIL (gil.py says why).
SHORT_CALLS = frozenset({"c4p_game"})


def _declare(path: str) -> ctypes.CDLL:
    """Load the library and declare its functions' types."""
    # Which calls keep the GIL and why: the policy in gil.py.
    lib = gil.long_calls(path)
    short = gil.short_calls(path)
    for name, (arguments, result) in PROTOTYPES.items():
        function = getattr(short if name in SHORT_CALLS else lib, name)
        function.argtypes = arguments
        function.restype = result
        if name in SHORT_CALLS:
            setattr(lib, name, function)
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


# c4_search_build()'s answer (exports.h's C4_BUILD_*), in words.
SEARCH_BUILDS = ("plain", "popcnt", "AVX2")


def kernels() -> str:
    """Which kernels run, in words: "compiled (path; 7x6 search: build)" or "pure
    Python (why)"."""
    library()
    lib, why = _loaded[0]
    if lib is None:
        return f"pure Python ({why})"
    return f"compiled ({why}; 7x6 search: {SEARCH_BUILDS[lib.c4_search_build()]})"
