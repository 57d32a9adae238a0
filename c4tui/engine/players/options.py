"""The settings an engine takes: `Option` (a type and a range) and the shared kinds.

Each engine class declares its settings as `OPTIONS = {"time": TIME, ...}`; `specs.py`
checks a spec string against them. A bad value is a `SpecError` naming the setting.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast


class SpecError(ValueError):
    """An engine spec that names no engine or a bad setting; the message says which.

    `key` is the setting at fault ("time", "noise", ...), or None when the engine name is.
    """

    def __init__(self, message: str, key: str | None = None) -> None:
        super().__init__(message)
        self.key = key


@dataclass(frozen=True)
class Option:
    """One setting an engine accepts: its type and the range of allowed values."""

    kind: type  # int, float, or str (a name: `minimum` and `maximum` bound its length)
    minimum: float
    maximum: float | None = None
    exclusive_minimum: bool = False
    help: str = ""
    # A path on this machine (a network file): taken only from this machine's user, as
    # outside engines are, never from a spec someone else sent (specs.py's `outside`).
    names_file: bool = False

    def parse(self, engine: str, key: str, text: str) -> int | float | str:
        if self.kind is str:
            return self._parse_text(engine, key, text)
        try:
            value = self.kind(text)
        except ValueError:
            noun = "a whole number" if self.kind is int else "a number"
            raise SpecError(f"{engine}: {key}={text!r} is not {noun}", key) from None
        if value != value or value in (float("inf"), float("-inf")):
            raise SpecError(f"{engine}: {key}={text!r} is not a finite number", key)
        low_ok = value > self.minimum if self.exclusive_minimum else value >= self.minimum
        if not low_ok or (self.maximum is not None and value > self.maximum):
            raise SpecError(f"{engine}: {key}={text} {self.describe_range()}", key)
        return cast(int | float, value)

    def _parse_text(self, engine: str, key: str, text: str) -> str:
        if not text.isprintable() or not self.minimum <= len(text) <= (self.maximum or len(text)):
            raise SpecError(
                f"{engine}: {key}={text!r} must be {_number(self.minimum)} to "
                f"{_number(self.maximum or 0)} printable characters",
                key,
            )
        return text

    def describe_range(self) -> str:
        """What a value must be, in words: "must be from 1 to 100", "must be more than 0"."""
        low = _number(self.minimum)
        high = None if self.maximum is None else _number(self.maximum)
        if self.exclusive_minimum:
            return f"must be more than {low}" + ("" if high is None else f" and at most {high}")
        return f"must be at least {low}" if high is None else f"must be from {low} to {high}"


def _number(value: float) -> str:
    """1000000000 as "1,000,000,000", 0.5 as "0.5"."""
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"


# Shared option kinds, so every engine states its budgets the same way.
TIME = Option(float, 0, 3600, exclusive_minimum=True, help="seconds per move")
COUNT = Option(int, 1, 10**9, help="a positive budget")
DEPTH = Option(int, 1, 100, help="plies to search")
NOISE = Option(float, 0, 1, help="probability of a random move")
TITLE = Option(str, 1, 40, help="the name to show")
