"""Turning the screen-reader mode on and off: the app's class, the terminal cursor, and
the focus on the screen's lines (mode.py says whether it is on; kept apart so the lines'
widgets, which ask that, are not imported by what they import)."""

from __future__ import annotations

from typing import Any

from textual.app import App, SystemCommand
from textual.geometry import Offset
from textual.message import Message
from textual.widget import Widget
from textual.widgets import DataTable, Input, OptionList

from c4tui.app.reader.log import ReaderLog
from c4tui.app.reader.mode import READER_CLASS, reading
from c4tui.app.reader.pane import ReaderPane
from c4tui.app.screens.answer import AnswerScreen
from c4tui.app.textual_internals import option_line, show_terminal_cursor


class ReadingSwitched(Message):
    """The mode was turned on or off (by a key, a typed command, the palette or a
    setting): sent to every screen, so a screen's own switch shows the mode it is in."""

    def __init__(self, on: bool) -> None:
        super().__init__()
        self.on = on


def set_reading(app: App[Any], on: bool) -> None:
    """Turn the mode on or off: the looks, the cursor, and the focus on the lines."""
    if on == reading(app):
        return
    app.set_class(on, READER_CLASS)
    for screen in app.screen_stack:
        screen.post_message(ReadingSwitched(on))
    show_terminal_cursor(app, on)
    for pane in app.screen.query(ReaderPane):  # a screen not shown: as it comes back
        pane.mode_changed()
    if on:
        app.clear_notifications()  # what they said is in the lines; nothing floats over them
    else:
        # The hidden command line would keep the focus, and with it every key typed (the
        # lobby's letters went into it): the screen's keys are its own again.
        focused = app.focused
        if focused is not None and any(isinstance(n, ReaderPane) for n in focused.ancestors):
            app.set_focus(None)
    focus_lines(app)


def cursor_on(app: App[Any], widget: Widget) -> None:
    """In the mode, the terminal cursor at the start of the widget given the focus (an
    input places it at its own caret; the lines, on the line in focus; a list, on its
    highlighted item, the one Enter picks)."""
    if reading(app) and isinstance(widget, Input):
        # An input puts the cursor at its caret as it takes the focus: in a dialog just
        # opened, before the dialog is laid out (at the screen's top left).
        app.call_after_refresh(_at_caret, app, widget)
    elif reading(app) and not isinstance(widget, ReaderLog):
        if isinstance(widget.screen, AnswerScreen):
            # A question's answer buttons: the line to read is the question.
            widget = widget.screen.query_one("#answer-question")
        region = widget.content_region
        app.cursor_position = Offset(region.x, region.y + _highlighted_row(widget))


def _at_caret(app: App[Any], field: Input) -> None:
    if field.has_focus:
        app.cursor_position = field.cursor_screen_offset


def cursor_follows(app: App[Any], options: OptionList | DataTable[Any]) -> None:
    """In the mode, the cursor moves with a focused list's highlight or table's cursor
    (the arrows)."""
    if options.has_focus:
        cursor_on(app, options)


def _highlighted_row(widget: Widget) -> int:
    """The row within `widget` of the item its cursor keys move: a list's highlight, a
    table's row under its cursor (below its header)."""
    if isinstance(widget, OptionList) and widget.highlighted is not None:
        line = option_line(widget, widget.highlighted)
    elif isinstance(widget, DataTable) and widget.row_count:
        line = widget.header_height * widget.show_header + widget.cursor_row
    else:
        return 0
    return max(0, min(line - widget.scroll_offset.y, widget.content_region.height - 1))


def focus_lines(app: App[Any]) -> None:
    """In the mode, the screen's command line takes the focus (where the screen has one)."""
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
