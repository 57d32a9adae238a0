"""HelpScreen: the keys and what the thinking panel shows, from help.md.

One Static drawing the page with Rich's Markdown, parsed once per run: Textual's
Markdown widget built a widget per paragraph and list item, and took 0.2-0.4 s to
open (benchmarks/app_latency.py).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import ClassVar

from rich.markdown import Markdown as RichMarkdown
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

HELP_FILE = Path(__file__).resolve().parent.parent / "help.md"


def kernels_line() -> str:
    """Which search kernels this install runs, for the foot of the help page."""
    from c4tui.engine.kernels import library

    lib = library.library()
    if lib is not None:
        build = library.SEARCH_BUILDS[lib.c4_search_build()]
        return f"\n\nSearch kernels: compiled C (7x6 search: {build})."
    # Why not, in words: not built, disabled, or damaged (whose warning on stderr
    # the app's screen hides).
    return f"\n\nSearch kernels: {library.kernels()}; slower, same moves."


@cache
def help_page() -> RichMarkdown:
    """The help page, parsed (the prewarm thread does this before the first `?`)."""
    return RichMarkdown(HELP_FILE.read_text(encoding="utf-8") + kernels_line())


class HelpScreen(ModalScreen[None]):
    """A scrollable page of help over the game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "dismiss", "Close"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Static(help_page(), id="help-text")
        yield Footer()
