"""One codec for the room service's declared shapes: a frozen dataclass is the schema.

A shape's field types say what its values may be, and nothing else does:

    bool, int, float, str, None      exactly that JSON type (a bool is not an int here)
    Annotated[int, Between(0, 9)]    a bounded number
    Annotated[str, Text(200)]        a string of 1-200 characters (`Text(20, shortest=0)`)
    Annotated[str, Matches(r"...")]  a string the whole pattern matches
    Literal["draw", "take_back"]     one of these values
    X | None                         X or null; a field with a default may be left out
    tuple[X, ...]                    a list (Annotated with Items(2, 2) for its length)
    dict[K, V]                       an object (keys read as K, values as V)
    another shape                    an object read as that shape

`to_wire` turns a shape into JSON-ready values and `from_wire` checks values against a
shape and builds it, or raises `ShapeError` saying which field is wrong and what it
should be. `loads` reads JSON text with the nesting bounded, so a line of 60,000 `[` is
an error like any other, not a RecursionError. The room protocol (protocol.py) and the
room files of old state directories (old_state.py) are declared this way, so both ends
read one declaration.
"""

from __future__ import annotations

import json
import math
import re
import types
from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields, is_dataclass
from functools import cache
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

T = TypeVar("T")
MAX_DEPTH = 32  # JSON nesting a shape may come in (the deepest declared is far less)


class ShapeError(ValueError):
    """Values that are not the declared shape; the message says where and why (one line)."""


@dataclass(frozen=True)
class Between:
    """A number from `low` to `high`, both included."""

    low: float
    high: float

    def check(self, value: Any) -> str | None:
        return None if self.low <= value <= self.high else f"from {self.low:g} to {self.high:g}"


@dataclass(frozen=True)
class Text:
    """A string of `shortest` to `longest` characters."""

    longest: int
    shortest: int = 1

    def check(self, value: Any) -> str | None:
        if self.shortest <= len(value) <= self.longest:
            return None
        return f"text of {self.shortest}-{self.longest} characters"


@dataclass(frozen=True)
class Matches:
    """A string the whole of `pattern` matches (`what` says it in words)."""

    pattern: str
    what: str

    def check(self, value: Any) -> str | None:
        return None if re.fullmatch(self.pattern, value) else self.what


@dataclass(frozen=True)
class Items:
    """A list or object of `fewest` to `most` items."""

    most: int
    fewest: int = 0

    def check(self, value: Any) -> str | None:
        if self.fewest <= len(value) <= self.most:
            return None
        return (
            f"{self.fewest}-{self.most} items" if self.fewest != self.most else f"{self.most} items"
        )


# ---- reading ---------------------------------------------------------------------------


def loads(text: str | bytes) -> Any:
    """JSON text as values; ShapeError when it is not JSON or nests deeper than MAX_DEPTH."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ShapeError("not UTF-8") from None
    # Fewer brackets than the deepest nesting allowed cannot nest deeper (a room's view
    # has about ten): the scan of a line's every token is for the lines that might.
    if text.count("[") + text.count("{") > MAX_DEPTH and _nesting(text) > MAX_DEPTH:
        raise ShapeError(f"JSON nested deeper than {MAX_DEPTH}")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise ShapeError("not JSON") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _nesting(text: str) -> int:
    """How deep brackets nest in `text`, strings skipped (an upper bound is enough)."""
    deepest = depth = 0
    for match in re.finditer(r'"(?:[^"\\]|\\.)*"|[\[{]|[\]}]', text):
        token = match[0]
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "]}":
            depth -= 1
    return deepest


def from_wire(shape: type[T], data: Any, where: str = "") -> T:
    """`data` read as `shape`; ShapeError names the first field that is not as declared."""
    read: Reader = _reader(shape)  # type: ignore[arg-type]  # a class is hashable; mypy cannot tell of type[T]
    shown: T = read(data, where)
    return shown


@cache
def _fields(shape: type) -> dict[str, tuple[Any, bool]]:
    hints = get_type_hints(shape, include_extras=True)
    return {
        f.name: (hints[f.name], f.default is MISSING and f.default_factory is MISSING)
        for f in fields(shape)
        if f.init
    }


def _join(where: str, name: str) -> str:
    return f"{where}.{name}" if where else name


# A reader is made once for each declared type (`_reader`, cached), so reading a value
# does not take its type apart again: a client reads every room view it is sent.
Reader = Callable[[Any, str], Any]


@cache
def _reader(kind: Any) -> Reader:
    """The function that reads a value as `kind` (the value, and where it is for errors)."""
    origin = get_origin(kind)
    if origin is Annotated:
        return _annotated(*get_args(kind))
    if origin in (Union, types.UnionType):
        choices = get_args(kind)
        (inner,) = [choice for choice in choices if choice is not type(None)]
        return _optional(_reader(inner), type(None) in choices)
    if origin is Literal:
        return _literal(get_args(kind))
    if origin is tuple:
        items = get_args(kind)
        if len(items) == 2 and items[1] is Ellipsis:
            return _list(_reader(items[0]))
        return _fixed(tuple(_reader(item) for item in items))
    if origin is dict:
        key_kind, value_kind = get_args(kind)
        return _object(_reader(key_kind), _reader(value_kind))
    if isinstance(kind, type) and is_dataclass(kind):
        return _shape(kind)
    return lambda value, where: _plain(kind, value, where)


def _annotated(base: Any, *marks: Any) -> Reader:
    inner = _reader(base)

    def read(value: Any, where: str) -> Any:
        value = inner(value, where)
        for mark in marks:
            wrong = mark.check(value)
            if wrong is not None:
                raise ShapeError(f"{where} should be {wrong}")
        return value

    return read


def _optional(inner: Reader, nullable: bool) -> Reader:
    def read(value: Any, where: str) -> Any:
        if value is None and nullable:
            return None
        return inner(value, where)

    return read


def _literal(choices: tuple[Any, ...]) -> Reader:
    def read(value: Any, where: str) -> Any:
        if not any(type(value) is type(choice) and value == choice for choice in choices):
            raise ShapeError(f"{where} should be one of {', '.join(map(repr, choices))}")
        return value

    return read


def _list(item: Reader) -> Reader:
    def read(value: Any, where: str) -> Any:
        if not isinstance(value, list):
            raise ShapeError(f"{where} should be a list")
        return tuple(item(each, f"{where}[{n}]") for n, each in enumerate(value))

    return read


def _fixed(items: tuple[Reader, ...]) -> Reader:
    def read(value: Any, where: str) -> Any:
        if not isinstance(value, list):
            raise ShapeError(f"{where} should be a list")
        if len(value) != len(items):
            raise ShapeError(f"{where} should be {len(items)} items")
        return tuple(
            item(each, f"{where}[{n}]")
            for n, (item, each) in enumerate(zip(items, value, strict=True))
        )

    return read


def _object(key: Reader, item: Reader) -> Reader:
    def read(value: Any, where: str) -> Any:
        if not isinstance(value, dict):
            raise ShapeError(f"{where} should be an object")
        return {
            key(name, where): item(each, f"{where}.{str(name)[:30]}")
            for name, each in value.items()
        }

    return read


def _shape(shape: type) -> Reader:
    declared = {
        name: (_reader(kind), required) for name, (kind, required) in _fields(shape).items()
    }

    def read(value: Any, where: str) -> Any:
        if not isinstance(value, dict):
            raise ShapeError(f"{where or shape.__name__} should be an object")
        for name in value:
            if name not in declared:
                raise ShapeError(f"{where or shape.__name__}: unknown field {str(name)[:30]!r}")
        values = {}
        for name, (field_reader, required) in declared.items():
            if name in value:
                values[name] = field_reader(value[name], _join(where, name))
            elif required:
                raise ShapeError(f"{_join(where, name)} is missing")
        return shape(**values)

    return read


_PLAIN_WORDS = {bool: "true or false", int: "a whole number", float: "a number", str: "text"}


def _plain(kind: Any, value: Any, where: str) -> Any:
    if kind is Any:
        return value
    if kind is type(None):
        if value is None:
            return None
        raise ShapeError(f"{where} should be null")
    if kind is float and type(value) in (int, float) and math.isfinite(value):
        return float(value)
    if kind in (bool, int, str) and type(value) is kind:
        return value
    if kind in _PLAIN_WORDS:
        raise ShapeError(f"{where} should be {_PLAIN_WORDS[kind]}")
    raise TypeError(f"{where}: {kind!r} is not a type the codec knows")


# ---- writing ---------------------------------------------------------------------------


def to_wire(value: Any) -> Any:
    """A shape (or values holding shapes) as JSON-ready values (an infinite or NaN
    number, which JSON cannot say, as null)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_wire(getattr(value, f.name)) for f in fields(value) if f.init}
    if isinstance(value, (list, tuple)):
        return [to_wire(item) for item in value]
    if isinstance(value, dict):
        return {key: to_wire(item) for key, item in value.items()}
    return value


def dumps(value: Any) -> str:
    """A shape as one line of JSON. The json module's C encoder writes it, asking
    `fields_of` for each shape inside; a non-finite number, which JSON cannot say, makes
    it write `to_wire`'s values instead (such a number as null)."""
    try:
        return json.dumps(
            value, default=fields_of, separators=(",", ":"), ensure_ascii=False, allow_nan=False
        )
    except ValueError:
        return json.dumps(to_wire(value), separators=(",", ":"), ensure_ascii=False)


def fields_of(value: Any) -> dict[str, Any]:
    """A shape's fields by name (not their values' shapes: json asks for those in turn)."""
    if not is_dataclass(value) or isinstance(value, type):
        raise TypeError(f"{type(value).__name__} is not a shape")
    return {name: getattr(value, name) for name in _names(type(value))}


@cache
def _names(shape: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(shape) if f.init)
