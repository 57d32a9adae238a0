"""SaveAsScreen: the file to write the game to."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Static


class SaveAsScreen(ModalScreen[Path | None]):
    """Returns the path the person chose, or None when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss_none", "Cancel")]

    def __init__(self, suggested: Path) -> None:
        super().__init__()
        self.suggested = suggested

    def compose(self) -> ComposeResult:
        with Vertical(id="save-body"):
            yield Static("Save the game as (a c4tui game file; Enter saves):")
            yield Input(str(self.suggested), id="save-input")
            yield Static("", id="save-error")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#save-body").border_title = "Save game as"
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def submit(self, event: Input.Submitted) -> None:
        path = Path(event.value.strip()).expanduser()
        if not event.value.strip() or path.is_dir():
            self.query_one("#save-error", Static).update("Name a file, not a folder.")
            return
        self.dismiss(path)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
