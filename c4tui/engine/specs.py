"""Engine spec strings: `name[:key=value,...]`, e.g. `mcts:time=2,c=1.4` or `greedy`.

`parse_spec(text)` checks a spec string and gives an `EngineSpec` value (`str()` gives
the text back, `replace(time=2)` changes a setting); `make_engine(spec, seed=...)` is
the one way the CLI, the app and the arena build an opponent. Each engine class
declares the settings it takes in `OPTIONS`; every engine also takes `noise=P`, the
seed notebooks' handicap (a random legal move with probability P), applied by
`Handicapped` around the engine. A `SpecError` names the setting at fault in `.key`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from c4tui.engine.search import Engine, Reading

# name -> (module, class). Imported lazily so `c4tui move --engine greedy` never pays
# for loading the solver's opening book.
ENGINES: dict[str, tuple[str, str]] = {
    "random": ("c4tui.engine.random_player", "RandomEngine"),
    "greedy": ("c4tui.engine.greedy", "GreedyEngine"),
    "negamax": ("c4tui.engine.negamax", "NegamaxEngine"),
    "flat": ("c4tui.engine.flat", "FlatMonteCarloEngine"),
    "mcts": ("c4tui.engine.mcts", "MctsEngine"),
    "perfect": ("c4tui.engine.perfect", "PerfectEngine"),
    "human": ("c4tui.engine.human", "HumanEngine"),
}


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

    kind: type  # int or float
    minimum: float
    maximum: float | None = None
    exclusive_minimum: bool = False
    help: str = ""

    def parse(self, engine: str, key: str, text: str) -> int | float:
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
        return value

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


Value = int | float


@dataclass(frozen=True)
class EngineSpec:
    """A checked engine spec: the engine's name and its settings, in the order given.

    `str(spec)` is the spec string again (`parse_spec(str(spec)) == spec`), with the
    numbers written plainly ("time=1", not "time=1.0").
    """

    name: str
    settings: tuple[tuple[str, Value], ...] = ()

    @property
    def options(self) -> dict[str, Value]:
        return dict(self.settings)

    def __str__(self) -> str:
        if not self.settings:
            return self.name
        return f"{self.name}:" + ",".join(f"{key}={plain(v)}" for key, v in self.settings)

    def replace(self, **options: Value | str | None) -> EngineSpec:
        """This spec with settings changed, added, or (given None) removed; checked alike."""
        merged = {**self.options, **options}
        return parse_spec(
            str(EngineSpec(self.name, tuple((k, v) for k, v in merged.items() if v is not None)))
        )


def plain(value: Value | str) -> str:
    """A setting as a person writes it: 1.0 as "1", 0.25 as "0.25", 7 as "7"."""
    if isinstance(value, float):
        short = f"{value:g}"
        return short if float(short) == value else repr(value)
    return str(value)


def parse_spec(text: str) -> EngineSpec:
    """Split and check a spec string; raises SpecError with a precise message and key."""
    stripped = text.strip()
    name, _, rest = stripped.partition(":")
    name = name.strip().lower()
    if name == "level":  # level:N is the documented spec of that level (levels.py)
        from c4tui.engine.levels import LevelError, level_spec

        try:
            return parse_spec(level_spec(rest))
        except LevelError as error:
            raise SpecError(str(error), "level") from None
    if name not in ENGINES:
        from c4tui.engine.levels import LEVELS

        known = ", ".join([*ENGINES, f"level:{min(LEVELS)}-{max(LEVELS)}"])
        raise SpecError(f"unknown engine {name!r} in spec {text!r} (known: {known})")
    options_table = {**engine_class(name).OPTIONS, "noise": NOISE}
    options: dict[str, Any] = {}
    if rest.strip():
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            key, value = key.strip().lower(), value.strip()
            if not eq or not key or not value:
                raise SpecError(
                    f"{name}: setting {item.strip()!r} should look like key=value", key or None
                )
            if key not in options_table:
                allowed = ", ".join(options_table)
                raise SpecError(f"{name}: unknown setting {key!r} (allowed: {allowed})", key)
            if key in options:
                raise SpecError(f"{name}: setting {key!r} is given twice", key)
            options[key] = options_table[key].parse(name, key, value)
    return EngineSpec(name, tuple(options.items()))


def engine_class(name: str) -> Any:
    module_name, class_name = ENGINES[name]
    return getattr(importlib.import_module(module_name), class_name)


def reading_of(name: str) -> Reading | None:
    """How the named engine's SearchInfo reads; None for a name not in the registry."""
    if name not in ENGINES:
        return None
    return getattr(engine_class(name), "READING", Reading())


def make_engine(text: str | EngineSpec, seed: int | None = None) -> Engine:
    """Build the engine a spec (string or value) describes, seeded for reproducible play."""
    spec = text if isinstance(text, EngineSpec) else parse_spec(text)
    options = spec.options
    noise = options.pop("noise", 0.0)
    engine = engine_class(spec.name)(seed=seed, **options)
    # The spec as the caller wrote it: the arena's tables and files name engines so.
    engine.spec = text.strip() if isinstance(text, str) else str(spec)
    if noise > 0:
        from c4tui.engine.handicap import Handicapped

        return Handicapped(engine, noise, seed)
    return engine
