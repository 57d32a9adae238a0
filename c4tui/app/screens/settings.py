"""SettingsScreen: a form over Settings that shows errors in place and never accepts them.

Each AI side is edited as its parts (algorithm, budget, exploration constant, handicap);
the form builds the engine spec string from them and checks it with `specs.parse_spec`,
so the form accepts exactly what `c4tui move --engine` accepts, and shows that string.
A spec may say more than the form has fields for (`negamax:depth=8,time=1` has two
budgets): the rest is kept as it was until the algorithm or that budget changes. The
screen returns the new Settings, or None when cancelled.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Label, Select, Static

from c4tui.app.settings import FIRST, MODES, Settings, SettingsError
from c4tui.engine.specs import ENGINES, SpecError, engine_class, parse_spec

BUDGET_KEYS = ("time", "iterations", "depth", "playouts")
BUDGET_LABELS = {
    "time": "seconds",
    "iterations": "iterations",
    "depth": "depth",
    "playouts": "playouts",
}
BUDGET_DEFAULTS = {"time": "1", "iterations": "10000", "depth": "6", "playouts": "5000"}
NO_BUDGET = "none"
SIDES = ("opponent", "second_opponent")
# The form's input for the spec setting a SpecError names (its `.key`); None is the
# engine itself, and any other setting is the budget amount or the extras it rides with.
SPEC_FIELDS = {None: "engine", "noise": "noise", "c": "c"}
SIDE_TITLES = {
    "opponent": "Opponent — plays against you; ● in AI vs AI",
    "second_opponent": "Second AI — ○ in AI vs AI",
}


def budget_keys(name: str) -> list[str]:
    return [key for key in engine_class(name).OPTIONS if key in BUDGET_KEYS]


def split_spec(text: str) -> tuple[str, str, str, str, str, str]:
    """(engine, budget kind, budget value, exploration c, noise, the other settings as
    "key=value,...") of a spec string."""
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

    def compose(self) -> ComposeResult:
        s = self.settings
        with VerticalScroll(id="settings-form") as form:
            form.border_title = "Settings"
            yield Label("Game", classes="section")
            with Horizontal(classes="row"):
                yield self._field(
                    "Mode",
                    Select(
                        [(label, key) for key, label in MODES.items()],
                        value=s.mode,
                        allow_blank=False,
                        id="mode",
                    ),
                )
                yield self._field(
                    "Who moves first (against the AI)",
                    Select(
                        [(label, key) for key, label in FIRST.items()],
                        value=s.first,
                        allow_blank=False,
                        id="first",
                    ),
                )
            with Horizontal(classes="row"):
                yield self._field("Columns (4-10)", self._input(str(s.width), "width"))
                yield self._field("Rows (4-10)", self._input(str(s.height), "height"))
                yield self._field("Connect (3-6)", self._input(str(s.connect), "connect"))
                yield self._field(
                    "Theme",
                    Select(
                        [(name, name) for name in self.themes],
                        value=s.theme,
                        allow_blank=False,
                        id="theme",
                    ),
                )
            for side in SIDES:
                yield from self._side(side, getattr(s, side))
            yield Static(id="settings-errors")
            with Horizontal(id="settings-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Save", id="save", variant="primary")
        yield Footer()

    def _side(self, side: str, spec: str) -> ComposeResult:
        name, kind, value, c, noise, _extras = split_spec(spec)
        yield Label(SIDE_TITLES[side], classes="section")
        with Horizontal(classes="row"):
            yield self._field(
                "Algorithm",
                Select(
                    [(engine, engine) for engine in ENGINES],
                    value=name,
                    allow_blank=False,
                    id=f"{side}-engine",
                ),
            )
            yield self._field(
                "Budget",
                Select(
                    self._budget_choices(name),
                    value=kind,
                    allow_blank=False,
                    id=f"{side}-budget",
                ),
            )
            yield self._field("Amount", self._input(value, f"{side}-amount"))
            yield self._field("Exploration c", self._input(c, f"{side}-c", "default"))
            yield self._field("Random moves 0-1", self._input(noise, f"{side}-noise", "0"))
        yield Static(id=f"{side}-spec", classes="spec-line")

    def _field(self, label: str, widget: Select | Input) -> Vertical:
        return Vertical(Label(label, classes="field-label"), widget, classes="field")

    def _input(self, value: str, id: str, placeholder: str = "") -> Input:
        field = Input(value=value, id=id, placeholder=placeholder)
        if self.steady:
            field.cursor_blink = False
        return field

    def _budget_choices(self, name: str) -> list[tuple[str, str]]:
        keys = budget_keys(name)
        default = ("default", NO_BUDGET) if keys else ("none needed", NO_BUDGET)
        return [default, *((BUDGET_LABELS[k], k) for k in keys)]

    def on_mount(self) -> None:
        for side in SIDES:
            self._sync_side(side)
        self.validate()

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

    def read(self) -> tuple[Settings | None, dict[str, str]]:
        """The settings in the form, or None and an error message per field id."""
        errors: dict[str, str] = {}
        specs: dict[str, str] = {}
        for side in SIDES:
            spec = self.spec_of(side)
            try:
                parse_spec(spec)
            except SpecError as error:
                errors[f"{side}-{SPEC_FIELDS.get(error.key, 'amount')}"] = str(error)
            specs[side] = spec
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
            settings = Settings(
                mode=self._value("mode"),  # type: ignore[arg-type]
                first=self._value("first"),  # type: ignore[arg-type]
                opponent=specs["opponent"],
                second_opponent=specs["second_opponent"],
                theme=self._value("theme"),
                **numbers,
            ).validate()
        except SettingsError as error:
            field = error.field if error.field in ("width", "height", "connect") else "mode"
            return None, {field: str(error)}
        return settings, {}

    def validate(self) -> Settings | None:
        settings, errors = self.read()
        for side in SIDES:
            self.query_one(f"#{side}-spec", Static).update(f"spec: {self.spec_of(side)}")
        for widget in self.query(Input):
            widget.set_class(widget.id in errors, "-invalid")
        self.query_one("#settings-errors", Static).update("\n".join(errors.values()))
        self.query_one("#save", Button).disabled = bool(errors)
        return settings

    # ---- events -------------------------------------------------------------------

    def _sync_side(self, side: str) -> None:
        """An amount only with a budget kind; c only for engines that have it."""
        name = self._value(f"{side}-engine")
        c_input = self.query_one(f"#{side}-c", Input)
        has_c = "c" in engine_class(name).OPTIONS
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
                name = str(event.value)
                self._engines[side] = name
                self._extras[side] = ""  # another engine's settings mean nothing here
                budget = self.query_one(f"#{side}-budget", Select)
                choices = self._budget_choices(name)
                budget.set_options(choices)
                budget.value = choices[0][1]
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
