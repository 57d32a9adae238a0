"""SaveAsScreen: the file to write the game to, checked before anything is written.

Only a regular file is ever written (a FIFO or a device is refused, not replaced), only
into a folder that exists (a typo must not make folders), and a file that exists is
replaced only when the person confirms it (Enter again on the same name). A link to a
file writes the file it points to, and the link stays.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Static

from c4tui.files import kind_of


def target_problem(path: Path) -> str | None:
    """Why the game may not be written to `path`, or None when it may (a new file, or a
    regular file to replace)."""
    folder = path.parent
    if not folder.is_dir():
        return f"There is no folder {folder}: c4tui makes no folders; name one that exists."
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if os.path.lexists(path):
            return f"{path} is a link to nothing: name another file."
        return None
    except OSError as error:
        return f"{path}: {error.strerror}."
    if stat.S_ISDIR(mode):
        return f"{path} is a folder: name a file in it."
    if not stat.S_ISREG(mode):
        return f"{path} is {kind_of(mode)}, not a file: name another."
    return None


class SaveAsScreen(ModalScreen[Path | None]):
    """Returns the file to write (links followed), or None when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss_none", "Cancel")]

    def __init__(self, suggested: Path) -> None:
        super().__init__()
        self.suggested = suggested
        self.confirming: Path | None = None  # an existing file the next Enter replaces

    def compose(self) -> ComposeResult:
        with Vertical(id="save-body"):
            yield Static("Save the game as (a c4tui game file; Enter saves):")
            yield Input(str(self.suggested), id="save-input")
            yield Static("", id="save-error")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#save-body").border_title = "Save game as"
        self.query_one(Input).focus()

    def say(self, text: str) -> None:
        self.query_one("#save-error", Static).update(text)

    @on(Input.Changed)
    def edited(self) -> None:
        self.confirming = None
        self.say("")

    @on(Input.Submitted)
    def submit(self, event: Input.Submitted) -> None:
        if not event.value.strip():
            self.say("Name a file to save the game in.")
            return
        path = Path(event.value.strip()).expanduser().absolute()
        problem = target_problem(path)
        if problem is not None:
            self.say(problem)
            return
        target = Path(os.path.realpath(path))
        if target.exists() and self.confirming != target:
            self.confirming = target
            self.say(f"{path} exists. Enter again replaces it; or change the name.")
            return
        self.dismiss(target)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
