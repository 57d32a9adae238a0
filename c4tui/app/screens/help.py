"""HelpScreen: the keys and what the thinking panel shows, from help.md."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Markdown

HELP_FILE = Path(__file__).resolve().parent.parent / "help.md"


def kernels_line() -> str:
    """Which search kernels this install runs, for the foot of the help page."""
    from c4tui.engine import native

    if native.library() is not None:
        return "\n\nSearch kernels: compiled C."
    return "\n\nSearch kernels: pure Python (no C kernels in this install; slower, same moves)."


class HelpScreen(ModalScreen[None]):
    """A scrollable page of help over the game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "dismiss", "Close"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Markdown(HELP_FILE.read_text(encoding="utf-8") + kernels_line(), id="help-text")
        yield Footer()
