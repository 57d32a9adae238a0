"""ReaderPane: what a screen shows in the screen-reader mode, its lines and a command line.

Typing is the default: the command line has the focus and the terminal cursor. Escape
gives the keys instead (the screen's own, and the pane's), with the cursor on the newest
line; a colon (or i) goes back to typing. The game screen's pane (view.py) and the
lobby's (lobby.py) differ in what they answer, not in this.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input

from c4tui.app.reader.log import ReaderLog, Spoken

PROMPT = "type a command, ? for the list"


class PaneCommandLine(Input):
    """The typed commands' line; Escape gives the keys instead."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "keys", "Keys", show=False)]

    def action_keys(self) -> None:
        pane = self.parent
        if isinstance(pane, ReaderPane):
            pane.lines.focus()
            pane.spoken.say(pane.KEYS_SAID)


class PaneLines(ReaderLog):
    """The lines, with the key back to typing."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *ReaderLog.BINDINGS,
        Binding("colon,i", "type", "Type", show=False),
    ]

    def action_type(self) -> None:
        pane = self.parent
        if isinstance(pane, ReaderPane):
            pane.take_focus()
            pane.spoken.say("typing: a command, then Enter")


class ReaderPane(Vertical):
    """The lines and the command line of one screen (module docstring)."""

    DEFAULT_CSS = """
    ReaderPane { height: 1fr; }
    ReaderPane PaneLines { height: 1fr; }
    ReaderPane PaneCommandLine { height: 1; border: none; padding: 0; }
    """
    KEYS_SAID = "keys: each key acts at once; colon to type again"

    def __init__(self, spoken: Spoken, **options: Any) -> None:
        super().__init__(**options)
        self.spoken = spoken
        self.lines = self.make_lines()
        self.command_line = self.make_command_line()

    def make_lines(self) -> PaneLines:
        return PaneLines(self.spoken)

    def make_command_line(self) -> PaneCommandLine:
        return PaneCommandLine(placeholder=PROMPT, compact=True)

    def compose(self) -> ComposeResult:
        yield self.lines
        yield self.command_line

    def on_mount(self) -> None:
        # Steady (snapshots): nothing on screen changes with time.
        self.command_line.cursor_blink = not getattr(self.app, "steady", False)

    def take_focus(self) -> None:
        self.command_line.focus()

    def mode_changed(self) -> None:
        """The mode was turned on or off (switch.py): what runs only in it starts or stops."""

    def typed(self, event: Input.Submitted) -> str:
        """The line typed, its spaces tidied, and the command line cleared for the next."""
        event.stop()
        text = " ".join(event.value.split())
        event.input.clear()
        return text
