"""Engine spec strings: `name[:key=value,...]`, e.g. `mcts:time=2,c=1.4` or `greedy`;
outside engines name what they run first: `cmd:./my_engine --fast,time=1` (outside_specs.py).

`parse_spec(text)` checks a spec string and gives an `EngineSpec` value (`str()` gives
the text back, `replace(time=2)` changes a setting); `make_engine(spec, seed=...)` is
the one way the CLI, the app and the arena build an opponent. Each engine class
declares the settings it takes in `OPTIONS` (options.py); every engine also takes
`noise=P`, the seed notebooks' handicap (a random legal move with probability P),
applied by `Handicapped` around the engine. A `SpecError` names the setting at fault in `.key`.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from c4tui.engine.players.contract import Engine, Limits, Reading
from c4tui.engine.players.levels import LEVELS, LevelError, level_spec
from c4tui.engine.players.options import NOISE
from c4tui.engine.players.options import SpecError as SpecError  # callers take it from here
from c4tui.engine.players.outside_specs import (
    default_title,
    engine_option,
    is_engine_option,
    is_outside,
    split_outside,
)

# name -> (module, class). Imported lazily so `c4tui move --engine greedy` never pays
# for loading the solver's opening book.
ENGINES: dict[str, tuple[str, str]] = {
    "random": ("c4tui.engine.players.random_player", "RandomEngine"),
    "greedy": ("c4tui.engine.players.greedy", "GreedyEngine"),
    "negamax": ("c4tui.engine.players.negamax", "NegamaxEngine"),
    "flat": ("c4tui.engine.players.flat", "FlatMonteCarloEngine"),
    "mcts": ("c4tui.engine.players.mcts", "MctsEngine"),
    "perfect": ("c4tui.engine.players.perfect", "PerfectEngine"),
    "alphazero": ("c4tui.engine.players.alphazero", "AlphaZeroEngine"),
    "human": ("c4tui.engine.players.human", "HumanEngine"),
}
# Outside engines: other people's programs and files, run in child processes; each
# spec names what it runs first (outside_specs.py).
OUTSIDE_ENGINES: dict[str, tuple[str, str]] = {
    "cmd": ("c4tui.engine.external.protocol_engine", "ProtocolEngine"),
    "fourinarow": ("c4tui.engine.external.fourinarow", "FourInARowEngine"),
    "connectx": ("c4tui.engine.external.connectx", "ConnectXEngine"),
}


Value = int | float | str


@dataclass(frozen=True)
class EngineSpec:
    """A checked engine spec: the engine's name and its settings, in the order given.

    `str(spec)` is the spec string again (`parse_spec(str(spec)) == spec`), with the
    numbers written plainly ("time=1", not "time=1.0").
    """

    name: str
    settings: tuple[tuple[str, Value], ...] = ()
    # What an outside engine runs: its command line, or its agent file; "" for ours.
    target: str = ""

    @property
    def options(self) -> dict[str, Value]:
        return dict(self.settings)

    @property
    def outside(self) -> bool:
        """Whether it runs another program (cmd:, fourinarow:, connectx:)."""
        return is_outside(self.name)

    def __str__(self) -> str:
        return spec_text(self.name, self.settings, self.target)

    def replace(self, **options: Value | str | None) -> EngineSpec:
        """This spec with settings changed, added, or (given None) removed; checked alike."""
        merged = {**self.options, **options}
        kept = ((key, value) for key, value in merged.items() if value is not None)
        return parse_spec(spec_text(self.name, kept, self.target))


def spec_text(name: str, settings: Iterable[tuple[str, Value | str]], target: str = "") -> str:
    """The spec string `name:key=value,...` (the bare name without settings), each value
    written plainly; settings given as text are written as they are, unchecked. An
    outside engine's `target` comes first: `cmd:./bot,time=1`."""
    written = ",".join(f"{key}={plain(value)}" for key, value in settings)
    if target:
        return f"{name}:{target},{written}" if written else f"{name}:{target}"
    return f"{name}:{written}" if written else name


def split_name(text: str) -> tuple[str, str]:
    """(the engine's name in lower case, the settings as written) of a spec string."""
    name, _, rest = text.strip().partition(":")
    return name.strip().lower(), rest


def level_of(text: str) -> int | None:
    """N when `text` names a level as `parse_spec` reads it ("level:4", " Level: 4");
    None for another spec, or for a level there is not."""
    name, rest = split_name(text)
    if name != "level":
        return None
    try:
        level_spec(rest)
    except LevelError:
        return None
    return int(rest)


def plain(value: Value | str) -> str:
    """A setting as a person writes it: 1.0 as "1", 0.25 as "0.25", 7 as "7"."""
    if isinstance(value, float):
        short = f"{value:g}"
        return short if float(short) == value else repr(value)
    return str(value)


def parse_spec(
    text: str, *, outside: bool = True, board: tuple[int, int, int] | None = None
) -> EngineSpec:
    """Split and check a spec string; raises SpecError with a precise message and key.

    `outside=False` refuses the specs that run other programs (cmd:, fourinarow:,
    connectx:) and the settings that name a file here (alphazero's net=), for specs that
    come from someone other than this machine's user.
    `board` (width, height, connect): also refuse an engine that cannot play on that
    board (an engine class's `board_refusal` says why), before any game starts.
    """
    spec = _parse_spec(text, outside)
    refusal = getattr(engine_class(spec.name), "board_refusal", None)
    if board is not None and refusal is not None:
        reason = refusal(dict(spec.options), board)
        if reason:
            raise SpecError(f"{spec.name}: {reason}")
    return spec


def _parse_spec(text: str, outside: bool) -> EngineSpec:
    name, rest = split_name(text)
    if name == "level":  # level:N is the documented spec of that level (levels.py)
        try:
            return _parse_spec(level_spec(rest), True)
        except LevelError as error:
            raise SpecError(str(error), "level") from None
    if name not in ENGINES and name not in OUTSIDE_ENGINES:
        levels = f"level:{min(LEVELS)}-{max(LEVELS)}"
        known = ", ".join([*ENGINES, *(f"{kind}:..." for kind in OUTSIDE_ENGINES), levels])
        raise SpecError(f"unknown engine {name!r} in spec {text!r} (known: {known})")
    if is_outside(name) and not outside:
        raise SpecError(f"{name}: outside engines run programs, and are not taken here")
    options_table = {**engine_class(name).OPTIONS, "noise": NOISE}
    options: dict[str, Any] = {}
    target, items = "", rest.split(",") if rest.strip() else []
    if is_outside(name):
        target, items = split_outside(name, rest, options_table)
    if items:
        for item in items:
            if name == "cmd" and is_engine_option(item):
                option_name, text = engine_option(name, item)
                if option_name in options:
                    raise SpecError(f"{name}: setting {option_name!r} is given twice", option_name)
                options[option_name] = text
                continue
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
            if options_table[key].names_file and not outside:
                raise SpecError(f"{name}: {key}= names a file on this machine, not taken here", key)
            options[key] = options_table[key].parse(name, key, value)
    return EngineSpec(name, tuple(options.items()), target)


def engine_class(name: str) -> Any:
    module_name, class_name = ENGINES[name] if name in ENGINES else OUTSIDE_ENGINES[name]
    return getattr(importlib.import_module(module_name), class_name)


def reading_of(name: str) -> Reading | None:
    """How the named engine's SearchInfo reads; None for a name not in the registry."""
    if name not in ENGINES and name not in OUTSIDE_ENGINES:
        return None
    return getattr(engine_class(name), "READING", Reading())


def title_of(name: str) -> str | None:
    """What the named engine is called on screen ("MCTS"); None for a name not in the
    registry."""
    if name not in ENGINES and name not in OUTSIDE_ENGINES:
        return None
    return getattr(engine_class(name), "TITLE", "") or name


def outside_title(text: str) -> str | None:
    """What to call the outside engine a spec names: its `name=`, else its program or
    file ("bot.py"); None for a spec of another engine, or one that does not parse."""
    name, _ = split_name(text)
    if not is_outside(name):
        return None
    try:
        spec = parse_spec(text)
    except SpecError:
        return None
    return str(spec.options.get("name") or default_title(name, spec.target))


def make_engine(text: str | EngineSpec, seed: int | None = None) -> Engine:
    """Build the engine a spec (string or value) describes, seeded for reproducible play."""
    spec = text if isinstance(text, EngineSpec) else parse_spec(text)
    options = spec.options
    noise = float(options.pop("noise", 0.0))
    if spec.target:
        options["target"] = spec.target
    engine: Engine = engine_class(spec.name)(seed=seed, **options)
    # The spec as the caller wrote it: the arena's tables and files name engines so.
    engine.spec = text.strip() if isinstance(text, str) else str(spec)
    if noise > 0:
        from c4tui.engine.players.handicap import Handicapped

        return Handicapped(engine, noise, seed)
    return engine


@lru_cache(maxsize=64)
def spec_limits(spec: str) -> Limits | None:
    """An engine spec's own budget, None for a spec that cannot be read. Kept per spec:
    a served client's thinking panel asks at every search's start, and making an engine
    only to read its limits cost that client more than drawing the move."""
    try:
        return make_engine(spec).limits
    except SpecError:
        return None
