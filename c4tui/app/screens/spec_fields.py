"""The settings form's engine fields: a spec string split into the form's parts
(algorithm, budget, exploration c, handicap) and joined back into one.

The form accepts exactly what `c4tui move --engine` accepts: every joined spec is
checked by `specs.parse_spec`, and saved as it writes it.
"""

from __future__ import annotations

from c4tui.engine.players.levels import LEVELS, RATED_BOARD, RATINGS, level_name, level_title
from c4tui.engine.players.options import Option
from c4tui.engine.players.specs import (
    SpecError,
    engine_class,
    level_of,
    parse_spec,
    plain,
    spec_text,
    split_name,
)

BUDGET_KEYS = ("time", "iterations", "depth", "playouts")
BUDGET_LABELS = {
    "time": "seconds",
    "iterations": "iterations",
    "depth": "depth",
    "playouts": "playouts",
}
# What the Amount field starts from when a budget kind is picked: an amount to edit,
# not an engine's default (that one the engine says: `default_budget`).
BUDGET_STARTS = {"time": "1", "iterations": "10000", "depth": "6", "playouts": "5000"}
BUDGET_UNITS = {"time": "s", "iterations": "iterations", "depth": "plies", "playouts": "playouts"}
NO_BUDGET = "none"


# The levels come first in the algorithm list; the engines after them are "custom": the
# budget, c and handicap fields apply to them only (a level is a whole spec).
LEVEL_CHOICES = [(level_name(n), level_title(n)) for n in LEVELS]

# The settings of a spec the form has no field for, as (key, value as written) pairs.
Extras = tuple[tuple[str, str], ...]


def is_level(name: str) -> bool:
    return level_of(name) is not None


def spec_line(spec: str, board: tuple[int, int, int] | None = RATED_BOARD) -> str:
    """The spec under a side's fields; for a level, what it stands for and its rating
    on the board it was measured on (on another `board`, that it is not rated there)."""
    n = level_of(spec)
    if n is None:
        return f"spec: {spec}"
    if board == RATED_BOARD:
        return f"spec: {spec} = {LEVELS[n]} · rated {RATINGS[n]} Elo"
    where = "this board" if board is None else "{}x{} connect {}".format(*board)
    return f"spec: {spec} = {LEVELS[n]} · not rated on {where}"


def engine_options(name: str) -> dict[str, Option]:
    """The settings the form may give this choice: none for a level. An outside engine's
    choice is its kind and what it runs ("cmd:python3 bot.py")."""
    return {} if is_level(name) else engine_class(split_name(name)[0]).OPTIONS


def budget_keys(name: str) -> list[str]:
    return [key for key in engine_options(name) if key in BUDGET_KEYS]


def default_budget(name: str) -> tuple[str, str]:
    """(budget kind, amount) the engine uses when its spec names no budget: the first
    of its budgets its own default limits set, or (NO_BUDGET, "") when it needs none."""
    if not budget_keys(name):
        return NO_BUDGET, ""
    limits = engine_class(split_name(name)[0])().limits
    # Limits counts MCTS iterations and flat playouts in one field.
    amounts = {"time": limits.time, "depth": limits.depth}
    amounts["iterations"] = amounts["playouts"] = limits.iterations
    # Time first: where an engine has several defaults (NegaMax: 1 s, depth 20), the
    # clock is the one a player notices.
    for key in (k for k in BUDGET_KEYS if k in budget_keys(name)):
        if amounts[key] is not None:
            return key, plain(amounts[key])
    return NO_BUDGET, ""


def describe_default(name: str) -> str:
    """What "no budget" means for this engine, in words: "1 s", "no limit"."""
    if is_level(name):
        return "its own"
    if not budget_keys(name):
        return "none needed"
    kind, amount = default_budget(name)
    if kind == NO_BUDGET:
        return "no limit"
    return f"default ({amount} {BUDGET_UNITS[kind]})"


def split_spec(text: str) -> tuple[str, str, str, str, str, Extras]:
    """(engine, budget kind, budget value, exploration c, noise, the other settings) of
    a spec string."""
    level = level_of(text)
    if level is not None:
        return level_name(level), NO_BUDGET, "", "", "", ()
    try:
        spec = parse_spec(text)
    except SpecError:
        return "random", NO_BUDGET, "", "", "", ()
    options = spec.options
    keys = budget_keys(spec.name)
    # No budget in the spec means the engine's own default, which the form keeps.
    kind = next((k for k in keys if k in options), NO_BUDGET)
    value = options.get(kind, "")
    c = options.get("c", "")
    noise = options.get("noise", "")
    extras = tuple((key, plain(v)) for key, v in options.items() if key not in (kind, "c", "noise"))
    name = f"{spec.name}:{spec.target}" if spec.outside else spec.name
    return name, kind, plain(value), plain(c), plain(noise), extras


def join_spec(name: str, kind: str, value: str, c: str, noise: str, extras: Extras = ()) -> str:
    """The spec string for the form's parts, as typed (`parse_spec` checks it); empty
    parts are left out."""
    settings = []
    if kind != NO_BUDGET and value.strip():
        settings.append((kind, value.strip()))
    settings.extend(extras)
    if c.strip():
        settings.append(("c", c.strip()))
    if noise.strip() and noise.strip() not in ("0", "0.0"):
        settings.append(("noise", noise.strip()))
    kind, _, target = name.partition(":")  # an outside engine's: what it runs
    return spec_text(kind, settings, target)


def normal_spec(text: str) -> str:
    """A spec as `parse_spec` writes it ("time=00.5" becomes "time=0.5"), so the form
    saves what the thinking panel's title will show; a level, or a bad spec, as it is."""
    if is_level(text):
        return text
    try:
        return str(parse_spec(text))
    except SpecError:
        return text


def without(extras: Extras, key: str) -> Extras:
    """`extras` without `key`: the form's field now holds that one."""
    return tuple((k, value) for k, value in extras if k != key)
