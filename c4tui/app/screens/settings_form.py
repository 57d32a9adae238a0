"""SettingsScreen: a form over Settings that shows errors in place and never accepts them.

Each AI side is edited as its parts (algorithm, budget, exploration constant, handicap);
the form builds the engine spec string from them and checks it with `specs.parse_spec`,
so the form accepts exactly what `c4tui move --engine` accepts, and shows that string.
A spec may say more than the form has fields for (`negamax:depth=8,time=1` has two
budgets): the rest is kept as it was until the algorithm or that budget changes. An
outside engine is typed: "Outside program…" among the algorithms opens a Program field
for `cmd:COMMAND LINE`, `fourinarow:COMMAND LINE` or `connectx:FILE.py`, checked as
`c4tui move --engine` checks it (the program must be found, the file must exist). The
screen returns the new Settings, or None when cancelled.
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Footer, Input, Label, Select, Static

from c4tui.app.screens.built_ahead import BuiltAheadScreen
from c4tui.app.screens.spec_fields import (
    BUDGET_LABELS,
    BUDGET_STARTS,
    LEVEL_CHOICES,
    NO_BUDGET,
    budget_keys,
    default_budget,
    describe_default,
    engine_options,
    is_level,
    join_spec,
    normal_spec,
    spec_line,
    split_spec,
    without,
)
from c4tui.app.settings import BOARD_STYLES, FIRST, MODES, Settings, SettingsError
from c4tui.engine.board.geometry import SIZE_LIMITS
from c4tui.engine.players.outside_specs import is_outside
from c4tui.engine.players.specs import ENGINES, SpecError, parse_spec, split_name
from c4tui.match.sides import engine_title

SIDES = ("opponent", "second_opponent")
# Each AI side's title in each mode, and the sides a mode plays with: the others are
# shown, greyed, for a later change of mode.
SIDE_TITLES = {
    "human-ai": {
        "opponent": "Opponent — plays against you",
        "second_opponent": "Second AI — only when AI plays AI",
    },
    "ai-ai": {
        "opponent": "First AI — plays ●, moves first",
        "second_opponent": "Second AI — plays ○",
    },
    "humans": {
        "opponent": "Opponent — not playing: two people play",
        "second_opponent": "Second AI — not playing: two people play",
    },
}
# Who moves first where the mode decides it, not the player.
FIXED_FIRST = {"ai-ai": "First AI (●)", "humans": "● (either of you)"}
PLAYING = {"human-ai": ("opponent",), "ai-ai": SIDES, "humans": ()}
# The algorithm that opens the Program field: an outside engine, typed.
OUTSIDE = "outside"
OUTSIDE_EXAMPLE = "cmd:python3 my_bot.py"
NOT_OUTSIDE = "Program: cmd:COMMAND LINE, fourinarow:COMMAND LINE or connectx:FILE.py"
# The form's words for the board's fields, in its error messages too.
FIELD_LABELS = {"width": "Columns", "height": "Rows", "connect": "Connect"}


class SettingsScreen(BuiltAheadScreen[Settings | None]):
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
                yield self._field(
                    "Mode", self._select(list(MODES.items()), s.mode, "mode"), None, "wide"
                )
                first = self._field(
                    "Who moves first",
                    self._select(list(FIRST.items()), s.first, "first"),
                    Static(id="first-fixed", classes="fixed-value"),
                )
                first.id = "first-field"
                yield first
                themes = [(name, name) for name in self.themes]
                yield self._field("Theme", self._select(themes, s.theme, "theme"))
            with Horizontal(classes="row"):
                for name, (low, high) in SIZE_LIMITS.items():
                    label = f"{FIELD_LABELS[name]} {low}-{high}"
                    yield self._field(label, self._input(str(getattr(s, name)), name))
                on_off = [("on", "On"), ("off", "Off")]
                falling = "on" if s.animation else "off"
                yield self._field("Falling discs", self._select(on_off, falling, "animation"))
                styles = list(BOARD_STYLES.items())
                yield self._field("Board style", self._select(styles, s.board_style, "board_style"))
            yield Static(id="game-errors", classes="errors")
            for side in SIDES:
                yield from self._side(side, getattr(s, side))
            with Horizontal(id="settings-buttons"):
                # Says its own name (no label line: the form fits 80x24 as it is).
                reader = [("off", "Screen reader: off"), ("on", "Screen reader: on")]
                value = "on" if s.screen_reader else "off"
                yield self._select(reader, value, "screen_reader")
                yield Button("Cancel", id="cancel", compact=True)
                yield Button("Save", id="save", variant="primary", compact=True)
        yield Footer()

    def _side(self, side: str, spec: str) -> ComposeResult:
        name, kind, value, c, noise, _extras = split_spec(spec)
        yield Label(SIDE_TITLES[self.settings.mode][side], id=f"{side}-title", classes="section")
        with Horizontal(id=f"{side}-row", classes="row"):
            engines = [*LEVEL_CHOICES, *((engine, engine) for engine in ENGINES)]
            typed = ""
            if name not in dict(engines):  # an outside engine (cmd:..., connectx:...)
                engines.append((name, engine_title(spec)))
                typed = name  # to edit its command line from
            engines.append((OUTSIDE, "Outside program…"))
            yield self._field("Algorithm", self._select(engines, name, f"{side}-engine"))
            program = self._field(
                "Program", self._input(typed, f"{side}-program", OUTSIDE_EXAMPLE), None, "wide"
            )
            program.id = f"{side}-program-field"
            yield program
            budgets = self._budget_choices(name)
            yield self._field("Budget", self._select(budgets, kind, f"{side}-budget"))
            yield self._field("Amount", self._input(value, f"{side}-amount"))
            c_field = self._field("Exploration c", self._input(c, f"{side}-c", "default"))
            c_field.id = f"{side}-c-field"
            yield c_field
            yield self._field("Random 0-1", self._input(noise, f"{side}-noise", "0"))
        yield Static(id=f"{side}-spec", classes="spec-line")
        yield Static(id=f"{side}-errors", classes="errors")

    def _field(
        self, label: str, widget: Select[str] | Input, fixed: Static | None = None, *classes: str
    ) -> Vertical:
        """A labelled field; `fixed` says its value where the mode fixes it."""
        widgets = (Label(label, classes="field-label"), widget, *((fixed,) if fixed else ()))
        return Vertical(*widgets, classes=" ".join(("field", *classes)))

    def _select(self, choices: list[tuple[str, str]], value: str, id: str) -> Select[str]:
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
        self._sync_mode()
        self.validate()

    def _sync_mode(self) -> None:
        """Who moves first only against the AI; each AI side titled for what it does in
        this mode, and greyed when it does not play."""
        mode = self._value("mode")
        chosen = mode == "human-ai"
        first = self.query_one("#first", Select)
        first.disabled = not chosen
        # Where the mode decides who starts, the field says so (not the kept "You").
        first.display = chosen
        fixed = self.query_one("#first-fixed", Static)
        fixed.display = not chosen
        fixed.update(FIXED_FIRST.get(mode, ""))
        for side in SIDES:
            self.query_one(f"#{side}-title", Label).update(SIDE_TITLES[mode][side])
            self.query_one(f"#{side}-row").disabled = side not in PLAYING[mode]

    # ---- reading the form ---------------------------------------------------------

    def _value(self, id: str) -> str:
        widget = self.query_one(f"#{id}")
        value = widget.value  # type: ignore[attr-defined]  # every field is an Input or a Select: both have a value
        return "" if value is Select.BLANK else str(value)

    def spec_of(self, side: str) -> str:
        return normal_spec(self._form_spec(side))

    def _engine(self, side: str) -> str:
        """The side's engine: the algorithm picked, or the outside program typed."""
        name = self._value(f"{side}-engine")
        return self._value(f"{side}-program").strip() if name == OUTSIDE else name

    def _options_name(self, side: str) -> str:
        """An engine whose settings the fields offer: a typed program of an unknown
        kind offers what every outside engine takes (as cmd: does)."""
        name = self._engine(side)
        if self._value(f"{side}-engine") == OUTSIDE and not is_outside(split_name(name)[0]):
            return "cmd:"
        return name

    def _form_spec(self, side: str) -> str:
        return join_spec(
            self._engine(side),
            self._value(f"{side}-budget"),
            self._value(f"{side}-amount"),
            self._value(f"{side}-c"),
            self._value(f"{side}-noise"),
            self._extras[side],
        )

    def _spec_errors(self, side: str) -> dict[str, str]:
        """An error per field of one side: each field is checked in a spec of its own,
        so a bad budget does not hide a bad c or noise. A typed program is checked
        first: while it is wrong, its error is the side's only one."""
        name = self._engine(side)
        if self._value(f"{side}-engine") == OUTSIDE:
            if not is_outside(split_name(name)[0]):
                return {f"{side}-program": NOT_OUTSIDE}
            try:
                parse_spec(join_spec(name, NO_BUDGET, "", "", "", ()))
            except SpecError as error:
                return {f"{side}-program": f"Program: {error}"}
        kind, amount = self._value(f"{side}-budget"), self._value(f"{side}-amount")
        c, noise = self._value(f"{side}-c"), self._value(f"{side}-noise")
        parts = {
            "amount": (kind, amount, "", "", self._extras[side]),
            "c": (NO_BUDGET, "", c, "", ()),
            "noise": (NO_BUDGET, "", "", noise, ()),
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
        playing = PLAYING.get(self._value("mode"), SIDES)
        specs: dict[str, str] = {}
        for side in SIDES:
            side_errors = self._spec_errors(side)
            if side in playing:
                errors |= side_errors
            # A side that does not play is not checked: greyed, it could not be mended.
            # Its last good spec is kept for a later change of mode.
            good = side in playing or not side_errors
            specs[side] = self.spec_of(side) if good else getattr(self.settings, side)
        numbers: dict[str, int] = {}
        for name in ("width", "height", "connect"):
            text = self._value(name).strip()
            if not text.lstrip("-").isdigit():
                errors[name] = f"{FIELD_LABELS[name]}: {text!r} is not a whole number"
                continue
            numbers[name] = int(text)
            # Each number against its own range now, so every bad field shows at once;
            # whether connect fits the board is checked below, once all three are good.
            try:
                Settings(**{name: numbers[name]}).validate()  # type: ignore[arg-type]  # one board field by name: validate() checks it
            except SettingsError as error:
                errors[name] = f"{FIELD_LABELS[name]}: {error.problem}"
        if errors:
            return None, errors
        try:
            # replace(): what the form does not show (the scores overlay, the speed of
            # two engines playing) stays as it was.
            settings = replace(
                self.settings,
                mode=self._value("mode"),  # type: ignore[arg-type]  # the select offers only the modes
                first=self._value("first"),  # type: ignore[arg-type]  # the select offers only you or ai
                opponent=specs["opponent"],
                second_opponent=specs["second_opponent"],
                theme=self._value("theme"),
                animation=self._value("animation") == "on",
                screen_reader=self._value("screen_reader") == "on",
                board_style=self._value("board_style"),  # type: ignore[arg-type]  # the select offers only the styles
                width=numbers["width"],
                height=numbers["height"],
                connect=numbers["connect"],
            ).validate()
        except SettingsError as error:
            if error.field in FIELD_LABELS:
                return None, {error.field: f"{FIELD_LABELS[error.field]}: {error.problem}"}
            return None, {"mode": str(error)}
        return settings, {}

    def validate(self) -> Settings | None:
        """Outline every bad field and list its message in its own section, all at once."""
        settings, errors = self.read()
        w, h, c = (self._value(name).strip() for name in ("width", "height", "connect"))
        board = (int(w), int(h), int(c)) if all(map(str.isdigit, (w, h, c))) else None
        for side in SIDES:
            spec = spec_line(self.spec_of(side), board)
            if not self._engine(side):  # the Program field is empty
                spec = f"spec: what the program runs, e.g. {OUTSIDE_EXAMPLE},time=1"
            self.query_one(f"#{side}-spec", Static).update(spec)
        for widget in self.query(".field > Input, .field > Select"):
            widget.set_class(widget.id in errors, "-invalid")
            widget.parent.set_class(widget.id in errors, "-invalid")  # type: ignore[union-attr]  # a field widget always sits in its field
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
        takes none of the custom fields; the Program field only for an outside program
        (in the place of c, which no outside engine takes)."""
        outside = self._value(f"{side}-engine") == OUTSIDE
        self.query_one(f"#{side}-program-field").display = outside
        self.query_one(f"#{side}-c-field").display = not outside
        name = self._options_name(side)
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
        if widget_id == "mode":
            self._sync_mode()
        for side in SIDES:
            if widget_id == f"{side}-engine" and event.value != self._engines[side]:
                # Another engine: its own default budget, spelled out, and none of the
                # old engine's settings (they mean nothing here).
                self._engines[side] = str(event.value)
                name = self._options_name(side)
                self._extras[side] = ()
                kind, amount = default_budget(name)
                self._kinds[side] = kind
                budget = self.query_one(f"#{side}-budget", Select)
                budget.set_options([(label, key) for key, label in self._budget_choices(name)])
                budget.value = kind
                self.query_one(f"#{side}-amount", Input).value = amount
                if event.value == OUTSIDE:  # next is typing what it runs
                    self.call_after_refresh(self.query_one(f"#{side}-program", Input).focus)
            elif widget_id == f"{side}-budget" and event.value != self._kinds[side]:
                # A new kind of budget: the old amount means nothing for it.
                self._kinds[side] = str(event.value)
                self._extras[side] = without(self._extras[side], str(event.value))
                start = BUDGET_STARTS.get(str(event.value), "")
                self.query_one(f"#{side}-amount", Input).value = start
            self._sync_side(side)
        self.validate()

    @on(Input.Changed)
    def input_changed(self, event: Input.Changed) -> None:
        for side in SIDES:
            if event.input.id == f"{side}-program":
                self._sync_side(side)  # another kind of program may take other settings
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
            # Ctrl+S works from any field: say why nothing was saved, and go to the
            # first field at fault.
            _settings, errors = self.read()
            self.app.bell()
            self.notify(f"Not saved: {next(iter(errors.values()))}", severity="warning", timeout=4)
            bad = next(
                (w for w in self.query(".field > Input, .field > Select") if w.id in errors), None
            )
            if bad is not None:
                bad.focus()
            return
        self.dismiss(settings)

    def action_cancel(self) -> None:
        self.dismiss(None)
