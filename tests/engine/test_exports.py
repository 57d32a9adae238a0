"""The C kernels' one header (kernels/exports.h) against the ctypes bindings and the build.

The header is read with cffi's C parser: every function it declares must have the same
arguments and result in library.PROTOTYPES (and nothing more there), the compiled
library must export each under that type, and the constants Python mirrors must have
the header's values. A prototype or constant changed on one side only fails here.
"""

from __future__ import annotations

import ctypes
import re
from pathlib import Path

import pytest

from c4tui.engine.kernels import calls, library
from c4tui.engine.players import mcts_native

cffi = pytest.importorskip("cffi")

HEADER = Path(library.__file__).with_name("exports.h")

# The C types of the header as ctypes spells them. Pointers to data all go as c_void_p
# (the bindings pass addresses); bytes may go as c_char_p.
SCALARS = {
    "int": ctypes.c_int,
    "uint64_t": ctypes.c_uint64,
    "int64_t": ctypes.c_int64,
    "double": ctypes.c_double,
    "void": None,
}


def parsed() -> cffi.FFI:
    """The header as cffi reads it: its preprocessor lines but integer #defines dropped."""
    lines = []
    for line in HEADER.read_text().splitlines():
        if line.startswith("#") and not re.match(r"#define \w+ -?\d+\b", line):
            continue
        lines.append(line)
    ffi = cffi.FFI()
    ffi.cdef("\n".join(lines))
    return ffi


def declared_functions() -> list[str]:
    text = re.sub(r"/\*.*?\*/", "", HEADER.read_text(), flags=re.S)
    return re.findall(r"\b(c4[a-z]?_\w+)\s*\(", text)


def same_type(ffi: cffi.FFI, ctype, binding) -> bool:
    """Whether a ctypes argument or result type passes what the C type `ctype` takes."""
    if ctype.kind == "function":  # a pointer to a function arrives as its type
        return callback_matches(ffi, ctype, binding)
    if ctype.kind == "pointer":
        if ctype.item.kind == "function":
            return callback_matches(ffi, ctype.item, binding)
        return binding in (ctypes.c_void_p, ctypes.c_char_p)
    if ctype.kind == "void":
        return binding is None
    return SCALARS.get(ctype.cname, object()) is binding


def callback_matches(ffi: cffi.FFI, function, binding) -> bool:
    if not (isinstance(binding, type) and issubclass(binding, ctypes._CFuncPtr)):
        return False
    arguments = list(binding._argtypes_)
    return (
        len(arguments) == len(function.args)
        and all(same_type(ffi, a, b) for a, b in zip(function.args, arguments, strict=True))
        and same_type(ffi, function.result, binding._restype_)
    )


def test_every_prototype_is_the_headers():
    ffi = parsed()
    names = declared_functions()
    assert sorted(names) == sorted(library.PROTOTYPES), "header and bindings list other calls"
    for name in names:
        ctype = header_type(ffi, name)
        arguments, result = library.PROTOTYPES[name]
        assert len(ctype.args) == len(arguments), name
        for i, (c_arg, binding) in enumerate(zip(ctype.args, arguments, strict=True)):
            assert same_type(ffi, c_arg, binding), f"{name} argument {i}: {c_arg.cname}"
        assert same_type(ffi, ctype.result, result), f"{name} result: {ctype.result.cname}"


def header_type(ffi: cffi.FFI, name: str):
    """The function type the header declares for `name` (the declaration rewritten as a
    function pointer type, which cffi's public typeof parses into a function type)."""
    text = re.sub(r"/\*.*?\*/", "", HEADER.read_text(), flags=re.S)
    match = re.search(r"([\w\s\*]*?)\b" + name + r"\s*\(([^)]*)\)\s*;", text)
    assert match, name
    result = match.group(1).strip().splitlines()[-1]  # the result's type: the name's line
    arguments = " ".join(match.group(2).split())
    return ffi.typeof(f"{result} (*)({arguments})")


def test_the_constants_python_mirrors_are_the_headers():
    constants = parsed().dlopen(None)  # enums and #defines only: no symbol is looked up
    mirrored = {
        "C4_DONE": calls.DONE,
        "C4_STOPPED": calls.STOPPED,
        "C4_INTERRUPTED": calls.INTERRUPTED,
        "C4_NO_MEMORY": calls.NO_MEMORY,
        "C4_NONE": calls.NO_COLUMN,
        "C4_MCTS_NO_MEMORY": mcts_native.NO_MEMORY,
        "C4M_MT_WORDS": mcts_native.MT_WORDS,
        "C4M_VISITS": mcts_native.VISITS,
        "C4M_MEAN": mcts_native.MEAN,
        "C4M_STONE": mcts_native.STONE,
        "C4M_PROOF": mcts_native.PROOF,
        "C4M_FIRST": mcts_native.FIRST,
        "C4M_COUNT": mcts_native.COUNT,
    }
    for name, value in mirrored.items():
        assert getattr(constants, name) == value, name


def test_the_tree_arrays_element_types_are_the_headers():
    """c4m_array's arrays are read through ctypes views of the element type the header
    names beside each (enum c4_tree_array's comments)."""
    text = HEADER.read_text()
    kinds = {"int64_t": ctypes.c_int64, "double": ctypes.c_double, "uint64_t": ctypes.c_uint64}
    kinds |= {"int8_t": ctypes.c_int8, "int32_t": ctypes.c_int32}
    for name, c_type in re.findall(r"(C4M_[A-Z]+) = \d+, +/\* (\w+)", text):
        assert mcts_native._ELEMENT[getattr(mcts_native, name[4:])] is kinds[c_type], name


@pytest.mark.skipif(library.library() is None, reason="the C kernels are not built")
def test_the_compiled_library_exports_every_call_of_the_header():
    compiled = parsed().dlopen(library.module_path())
    for name in declared_functions():
        getattr(compiled, name)  # AttributeError when the build has no such symbol
