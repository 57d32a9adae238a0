"""SettingsScreen: a form over Settings that shows errors in place and never accepts them.

Each AI side is edited as its parts (algorithm, budget, exploration constant, handicap);
the form builds the engine spec string from them and checks it with `specs.parse_spec`,
so the form accepts exactly what `c4tui move --engine` accepts, and shows that string.
A spec may say more than the form has fields for (`negamax:depth=8,time=1` has two
budgets): the rest is kept as it was until the algorithm or that budget changes. The
screen returns the new Settings, or None when cancelled.
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Label, Select, Static

from c4tui.app.settings import BOARD_STYLES, FIRST, MODES, Settings, SettingsError
from c4tui.engine.levels import LEVELS, RATINGS
from c4tui.engine.specs import ENGINES, SpecError, engine_class, parse_spec

BUDGET_KEYS = ("time", "iterations", "depth", "playouts")
BUDGET_LABELS = {
    "time": "seconds",
    "iterations": "iterations",
    "depth": "depth",
    "playouts": "playouts",
}
BUDGET_DEFAULTS = {"time": "1", "iterations": "10000", "depth": "6", "playouts": "5000"}
BUDGET_UNITS = {"time": "s", "iterations": "iterations", "depth": "plies", "playouts": "playouts"}
NO_BUDGET = "none"
SIDES = ("opponent", "second_opponent")
SIDE_TITLES = {
    "opponent": "Opponent — plays against you; ● in AI vs AI",
    "second_opponent": "Second AI — ○ in AI vs AI",
}


# The levels come first in the algorithm list; the engines after them are "custom": the
# budget, c and handicap fields apply to them only (a level is a whole spec).
LEVEL_CHOICES = [(f"level:{n}", f"Level {n}") for n in LEVELS]


def is_level(name: str) -> bool:
    return name.startswith("level:")


def spec_line(spec: str) -> str:
    """The spec under a side's fields; for a level, what it stands for and its rating."""
    if not is_level(spec):
        return f"spec: {spec}"
    n = int(spec.partition(":")[2])
    return f"spec: {spec} = {LEVELS[n]} · rated {RATINGS[n]} Elo"


def engine_options(name: str) -> dict:
    """The settings the form may give this choice: none for a level."""
    return {} if is_level(name) else engine_class(name).OPTIONS


def budget_keys(name: str) -> list[str]:
    return [key for key in engine_options(name) if key in BUDGET_KEYS]


def default_budget(name: str) -> tuple[str, str]:
    """(budget kind, amount) the engine uses when its spec names no budget: the first
    of its budgets its own default limits set, or (NO_BUDGET, "") when it needs none."""
    if not budget_keys(name):
        return NO_BUDGET, ""
    limits = engine_class(name)().limits
    # Limits counts MCTS iterations and flat playouts in one field.
    amounts = {"time": limits.time, "depth": limits.depth}
    amounts["iterations"] = amounts["playouts"] = limits.iterations
    # Time first: where an engine has several defaults (NegaMax: 1 s, depth 20), the
    # clock is the one a player notices.
    for key in (k for k in BUDGET_KEYS if k in budget_keys(name)):
        if amounts[key] is not None:
            return key, _plain(amounts[key])
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


def split_spec(text: str) -> tuple[str, str, str, str, str, str]:
    """(engine, budget kind, budget value, exploration c, noise, the other settings as
    "key=value,...") of a spec string."""
    if text.strip().lower() in (key for key, _label in LEVEL_CHOICES):
        return text.strip().lower(), NO_BUDGET, "", "", "", ""
    try:
        spec = parse_spec(text)
    except SpecError:
        return "random", NO_BUDGET, "", "", "", ""
    options = spec.options
    keys = budget_keys(spec.name)
    # No budget in the spec means the engine's own default, which the form keeps.
    kind = next((k for k in keys if k in options), NO_BUDGET)
    value = options.get(kind, "")
    c = options.get("c", "")
    noise = options.get("noise", "")
    extras = ",".join(
        f"{key}={_plain(v)}" for key, v in options.items() if key not in (kind, "c", "noise")
    )
    return spec.name, kind, _plain(value), _plain(c), _plain(noise), extras


def _plain(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def join_spec(name: str, kind: str, value: str, c: str, noise: str, extras: str = "") -> str:
    """The spec string for the form's parts; empty parts are left out."""
    parts = []
    if kind != NO_BUDGET and value.strip():
        parts.append(f"{kind}={value.strip()}")
    parts.extend(item for item in extras.split(",") if item)
    if c.strip():
        parts.append(f"c={c.strip()}")
    if noise.strip() and noise.strip() not in ("0", "0.0"):
        parts.append(f"noise={noise.strip()}")
    return f"{name}:{','.join(parts)}" if parts else name


def _without(extras: str, key: str) -> str:
    """`extras` ("key=value,...") without `key`: the form's field now holds that one."""
    return ",".join(item for item in extras.split(",") if item and item.partition("=")[0] != key)


class SettingsScreen(ModalScreen[Settings | None]):
    """Edit the settings; Save is refused while any field is invalid."""

    AUTO_FOCUS = "#mode"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "save", "Save"),
    ]

    def __init__(self, settings: Settings, themes: list[str], *, steady: bool = False) -> None:
        super().__init__()
        self.settings = settings
        self.themes = themes if settings.theme in themes else [settings.theme, *themes]
        self.steady = steady
        parts = {side: split_spec(getattr(settings, side)) for side in SIDES}
        # What each side's selects hold now, to tell a real change from a mount-time echo.
        self._engines = {side: parts[side][0] for side in SIDES}
        self._kinds = {side: parts[side][1] for side in SIDES}
        self._extras = {side: parts[side][5] for side in SIDES}

    # ---- layout -------------------------------------------------------------------
    # Every field is one line (compact widgets, label above) so the whole form, buttons
    # included, fits an 80x24 terminal without scrolling.

    def compose(self) -> ComposeResult:
        s = self.settings
        with VerticalScroll(id="settings-form") as form:
            form.border_title = "Settings"
            yield Label("Game", classes="section first")
            with Horizontal(classes="row"):
                yield self._field("Mode", self._select(list(MODES.items()), s.mode, "mode"), "wide")
                yield self._field(
                    "Who moves first", self._select(list(FIRST.items()), s.first, "first")
                )
                themes = [(name, name) for name in self.themes]
                yield self._field("Theme", self._select(themes, s.theme, "theme"))
            with Horizontal(classes="row"):
                yield self._field("Columns 4-10", self._input(str(s.width), "width"))
                yield self._field("Rows 4-10", self._input(str(s.height), "height"))
                yield self._field("Connect 3-6", self._input(str(s.connect), "connect"))
                on_off = [("on", "On"), ("off", "Off")]
                falling = "on" if s.animation else "off"
                yield self._field("Falling discs", self._select(on_off, falling, "animation"))
                styles = list(BOARD_STYLES.items())
                yield self._field("Board style", self._select(styles, s.board_style, "board_style"))
            yield Static(id="game-errors", classes="errors")
            for side in SIDES:
                yield from self._side(side, getattr(s, side))
            with Horizontal(id="settings-buttons"):
                yield Button("Cancel", id="cancel", compact=True)
                yield Button("Save", id="save", variant="primary", compact=True)
        yield Footer()

    def _side(self, side: str, spec: str) -> ComposeResult:
        name, kind, value, c, noise, _extras = split_spec(spec)
        yield Label(SIDE_TITLES[side], classes="section")
        with Horizontal(classes="row"):
            engines = [*LEVEL_CHOICES, *((engine, engine) for engine in ENGINES)]
            yield self._field("Algorithm", self._select(engines, name, f"{side}-engine"))
            budgets = self._budget_choices(name)
            yield self._field("Budget", self._select(budgets, kind, f"{side}-budget"))
            yield self._field("Amount", self._input(value, f"{side}-amount"))
            yield self._field("Exploration c", self._input(c, f"{side}-c", "default"))
            yield self._field("Random 0-1", self._input(noise, f"{side}-noise", "0"))
        yield Static(id=f"{side}-spec", classes="spec-line")
        yield Static(id=f"{side}-errors", classes="errors")

    def _field(self, label: str, widget: Select | Input, *classes: str) -> Vertical:
        return Vertical(
            Label(label, classes="field-label"), widget, classes=" ".join(("field", *classes))
        )

    def _select(self, choices: list[tuple[str, str]], value: str, id: str) -> Select:
        options = [(label, key) for key, label in choices]
        return Select(options, value=value, allow_blank=False, id=id, compact=True)

    def _input(self, value: str, id: str, placeholder: str = "") -> Input:
        field = Input(value=value, id=id, placeholder=placeholder, compact=True)
        if self.steady:
            field.cursor_blink = False
        return field

    def _budget_choices(self, name: str) -> list[tuple[str, str]]:
        """(value, label) pairs; "no budget" says what the engine then uses."""
        return [
            (NO_BUDGET, describe_default(name)),
            *((k, BUDGET_LABELS[k]) for k in budget_keys(name)),
        ]

    def on_mount(self) -> None:
        for side in SIDES:
            self._sync_side(side)
        self.validate()

    # ---- showing a screen built ahead ---------------------------------------------

    _styled_for: object = None  # what its styles were computed under (see mark_styled)

    def _style_context(self) -> object:
        # Textual counts every change of the app's CSS (a theme, a variable); focus of
        # the terminal window is the one app-wide pseudo-class a form reads.
        return (self.app._css_update_count, self.app.app_focus)

    def mark_styled(self) -> None:
        """Called once the screen has been mounted ahead (prewarm.py): its styles are
        fresh for the app's CSS as it is now."""
        self._styled_for = self._style_context()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # Textual restyles a screen's every node when it is shown: for this form (about
        # 300 nodes with the selects' overlays) that was a third of its first paint.
        # Styles computed when it was built ahead still hold while the app's CSS is the
        # same; a class or focus change restyles its own node as usual.
        if self._styled_for is not None and self._styled_for == self._style_context():
            event.refresh_styles = False
        self._styled_for = None

    # ---- reading the form ---------------------------------------------------------

    def _value(self, id: str) -> str:
        widget = self.query_one(f"#{id}")
        value = widget.value  # type: ignore[attr-defined]
        return "" if value is Select.BLANK else str(value)

    def spec_of(self, side: str) -> str:
        return join_spec(
            self._value(f"{side}-engine"),
            self._value(f"{side}-budget"),
            self._value(f"{side}-amount"),
            self._value(f"{side}-c"),
            self._value(f"{side}-noise"),
            self._extras[side],
        )

    def _spec_errors(self, side: str) -> dict[str, str]:
        """An error per field of one side: each field is checked in a spec of its own,
        so a bad budget does not hide a bad c or noise."""
        name = self._value(f"{side}-engine")
        kind, amount = self._value(f"{side}-budget"), self._value(f"{side}-amount")
        c, noise = self._value(f"{side}-c"), self._value(f"{side}-noise")
        parts = {
            "amount": (kind, amount, "", "", self._extras[side]),
            "c": (NO_BUDGET, "", c, "", ""),
            "noise": (NO_BUDGET, "", "", noise, ""),
        }
        errors: dict[str, str] = {}
        for field, (k, value, c_text, noise_text, extras) in parts.items():
            try:
                parse_spec(join_spec(name, k, value, c_text, noise_text, extras))
            except SpecError as error:
                errors[f"{side}-{field}"] = str(error)
        if kind != NO_BUDGET and not amount.strip():
            errors[f"{side}-amount"] = f"{name}: {BUDGET_LABELS[kind]} needs an amount"
        return errors

    def read(self) -> tuple[Settings | None, dict[str, str]]:
        """The settings in the form, or None and an error message per field id."""
        errors: dict[str, str] = {}
        for side in SIDES:
            errors |= self._spec_errors(side)
        numbers: dict[str, int] = {}
        for name in ("width", "height", "connect"):
            text = self._value(name).strip()
            if not text.lstrip("-").isdigit():
                errors[name] = f"{name}: {text!r} is not a whole number"
                continue
            numbers[name] = int(text)
            # Each number against its own range now, so every bad field shows at once;
            # whether connect fits the board is checked below, once all three are good.
            try:
                Settings(**{name: numbers[name]}).validate()  # type: ignore[arg-type]
            except SettingsError as error:
                errors[name] = str(error)
        if errors:
            return None, errors
        try:
            # replace(): what the form does not show (the scores overlay, the speed of
            # two engines playing) stays as it was.
            settings = replace(
                self.settings,
                mode=self._value("mode"),  # type: ignore[arg-type]
                first=self._value("first"),  # type: ignore[arg-type]
                opponent=self.spec_of("opponent"),
                second_opponent=self.spec_of("second_opponent"),
                theme=self._value("theme"),
                animation=self._value("animation") == "on",
                board_style=self._value("board_style"),  # type: ignore[arg-type]
                **numbers,
            ).validate()
        except SettingsError as error:
            field = error.field if error.field in ("width", "height", "connect") else "mode"
            return None, {field: str(error)}
        return settings, {}

    def validate(self) -> Settings | None:
        """Outline every bad field and list its message in its own section, all at once."""
        settings, errors = self.read()
        for side in SIDES:
            self.query_one(f"#{side}-spec", Static).update(spec_line(self.spec_of(side)))
        for widget in self.query(".field > Input, .field > Select"):
            widget.set_class(widget.id in errors, "-invalid")
            widget.parent.set_class(widget.id in errors, "-invalid")  # type: ignore[union-attr]
        for section in ("game", *SIDES):
            messages = [
                text
                for field, text in errors.items()
                if (field.startswith(f"{section}-") if section in SIDES else "-" not in field)
            ]
            box = self.query_one(f"#{section}-errors", Static)
            box.update("\n".join(messages))
            box.display = bool(messages)
        self.query_one("#save", Button).disabled = bool(errors)
        return settings

    # ---- events -------------------------------------------------------------------

    def _sync_side(self, side: str) -> None:
        """An amount only with a budget kind; c only for engines that have it; a level
        takes none of the custom fields."""
        name = self._value(f"{side}-engine")
        self.query_one(f"#{side}-budget", Select).disabled = is_level(name)
        noise = self.query_one(f"#{side}-noise", Input)
        noise.disabled = is_level(name)
        noise.placeholder = "n/a" if noise.disabled else "0"
        if noise.disabled:
            noise.value = ""
        c_input = self.query_one(f"#{side}-c", Input)
        has_c = "c" in engine_options(name)
        c_input.disabled = not has_c
        c_input.placeholder = "default" if has_c else "n/a"
        if not has_c:
            c_input.value = ""
        amount = self.query_one(f"#{side}-amount", Input)
        amount.disabled = self._value(f"{side}-budget") == NO_BUDGET
        amount.placeholder = "n/a" if amount.disabled else ""
        if amount.disabled:
            amount.value = ""

    @on(Select.Changed)
    def select_changed(self, event: Select.Changed) -> None:
        widget_id = event.select.id or ""
        for side in SIDES:
            if widget_id == f"{side}-engine" and event.value != self._engines[side]:
                # Another engine: its own default budget, spelled out, and none of the
                # old engine's settings (they mean nothing here).
                name = str(event.value)
                self._engines[side] = name
                self._extras[side] = ""
                kind, amount = default_budget(name)
                self._kinds[side] = kind
                budget = self.query_one(f"#{side}-budget", Select)
                budget.set_options([(label, key) for key, label in self._budget_choices(name)])
                budget.value = kind
                self.query_one(f"#{side}-amount", Input).value = amount
            elif widget_id == f"{side}-budget" and event.value != self._kinds[side]:
                # A new kind of budget: the old amount means nothing for it.
                self._kinds[side] = str(event.value)
                self._extras[side] = _without(self._extras[side], str(event.value))
                default = BUDGET_DEFAULTS.get(str(event.value), "")
                self.query_one(f"#{side}-amount", Input).value = default
            self._sync_side(side)
        self.validate()

    @on(Input.Changed)
    def input_changed(self) -> None:
        self.validate()

    @on(Input.Submitted)
    def input_submitted(self) -> None:
        self.action_save()

    @on(Button.Pressed, "#save")
    def save_pressed(self) -> None:
        self.action_save()

    @on(Button.Pressed, "#cancel")
    def cancel_pressed(self) -> None:
        self.action_cancel()

    def action_save(self) -> None:
        settings = self.validate()
        if settings is None:
            self.app.bell()
            return
        self.dismiss(settings)

    def action_cancel(self) -> None:
        self.dismiss(None)
