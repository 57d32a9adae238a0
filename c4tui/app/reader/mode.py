"""Turning the screen-reader mode on and off, and where it is asked for.

The mode is asked for by `c4tui --screen-reader`, by `C4TUI_SCREEN_READER=1`, by the
setting of that name, or (a served player) by the lobby's toggle. On, the app carries the
class `-reader`: reader.tcss then hides every panel and decoration and shows each
screen's lines instead, and the terminal cursor, which Textual hides, is shown where
the focus is (on the command line, or on the line in focus).
"""

from __future__ import annotations

import os
from typing import Any

from textual.app import App, SystemCommand
from textual.geometry import Offset
from textual.widget import Widget
from textual.widgets import Input

from c4tui.app.textual_internals import show_terminal_cursor

ENV = "C4TUI_SCREEN_READER"
READER_CLASS = "-reader"


def asked_by_environment() -> bool:
    """`C4TUI_SCREEN_READER` set to anything but empty or 0."""
    return os.environ.get(ENV, "").strip() not in ("", "0")


def reading(app: App[Any]) -> bool:
    """Whether the app is in the screen-reader mode now."""
    return app.has_class(READER_CLASS)


def set_reading(app: App[Any], on: bool) -> None:
    """Turn the mode on or off: the looks, the cursor, and the focus on the lines."""
    if on == reading(app):
        return
    app.set_class(on, READER_CLASS)
    show_terminal_cursor(app, on)
    if on:
        app.clear_notifications()  # what they said is in the lines; nothing floats over them
    focus_lines(app)


def cursor_on(app: App[Any], widget: Widget) -> None:
    """In the mode, the terminal cursor at the start of the widget given the focus (an
    input places it at its own caret; the lines, on the line in focus)."""
    from c4tui.app.reader.log import ReaderLog
    from c4tui.app.screens.answer import AnswerScreen

    if reading(app) and not isinstance(widget, (Input, ReaderLog)):
        if isinstance(widget.screen, AnswerScreen):
            # A question's answer buttons: the line to read is the question.
            widget = widget.screen.query_one("#answer-question")
        region = widget.content_region
        app.cursor_position = Offset(region.x, region.y)


def focus_lines(app: App[Any]) -> None:
    """In the mode, the screen's command line takes the focus (where the screen has one)."""
    from c4tui.app.reader.pane import ReaderPane

    if not reading(app):
        return
    found = app.screen.query(ReaderPane)
    if found:
        found.first().take_focus()


def reader_command(app: App[Any]) -> SystemCommand:
    """The palette's switch of the mode, for this session (the setting keeps it)."""
    return SystemCommand(
        "Screen reader",
        "Plain lines for a screen reader or braille display, on or off",
        lambda: set_reading(app, not reading(app)),
    )
