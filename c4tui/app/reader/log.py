"""The spoken lines and the widget that shows them: appended at the bottom, never redrawn.

`Spoken` keeps every line said in this session (an app has one: the lobby, a room and a
game all add to it); `ReaderLog` shows the newest that fit, as a terminal scrolls, and
puts the terminal cursor on the line in focus (the newest, or one read back with [ and
]), so a braille display follows it.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.geometry import Offset
from textual.widgets import Static

from c4tui.app.reader.mode import reading

KEEP = 2000  # lines kept to read back: a long session, not a growing memory


class Spoken:
    """The lines said, oldest first, and who shows them."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._shows: list[Callable[[], None]] = []

    def say(self, line: str) -> None:
        for part in line.splitlines() or [""]:
            self.lines.append(part)
        del self.lines[:-KEEP]
        for show in self._shows:
            show()

    def shown_by(self, show: Callable[[], None]) -> None:
        self._shows.append(show)


class ReaderLog(Static, can_focus=True):
    """The newest lines, one under the other; the cursor on the one in focus."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # [ and ]: ↑ and ↓ are the game's, a move back and on, as in the normal mode.
        Binding("left_square_bracket", "read(-1)", "Line before", show=False),
        Binding("right_square_bracket", "read(1)", "Line after", show=False),
    ]

    def __init__(self, spoken: Spoken, **options: object) -> None:
        super().__init__("", markup=False, **options)  # type: ignore[arg-type]  # Static's own options
        self.spoken = spoken
        self.reading: int | None = None  # a line read back, by index; None: the newest
        spoken.shown_by(self.show)

    def on_mount(self) -> None:
        self.show()

    def on_resize(self) -> None:
        self.show()

    def show(self) -> None:
        # Out of the mode the lines are hidden: laying them out at every line said cost
        # a layout pass of the whole screen each time. Shown, they are laid out on the
        # resize that showing them brings (on_resize).
        if not self.is_mounted or not reading(self.app):
            return
        lines = self.spoken.lines
        focus = len(lines) - 1 if self.reading is None else self.reading
        # The newest lines as a terminal shows them; a line read back above them brings
        # the window up to it.
        rows, focus_row = self._window(len(lines), focus)
        if focus_row is None:
            rows, focus_row = self._window(focus + 1, focus)
        self.update(Text("\n".join(rows)))
        self.focus_row = focus_row or 0
        self.place_cursor()

    def _window(self, end: int, focus: int) -> tuple[list[str], int | None]:
        """The rows that fit, of the lines before `end` (each long line wrapped at word
        breaks), and the row where line `focus` starts among them (None: not there)."""
        width = max(10, self.content_size.width or self.app.size.width)
        height = max(1, self.content_size.height or 1)
        blocks: list[tuple[int, list[str]]] = []
        total = 0
        for index in range(end - 1, -1, -1):
            wrapped = textwrap.wrap(self.spoken.lines[index], width) or [""]
            if total + len(wrapped) > height and blocks:
                break
            blocks.append((index, wrapped))
            total += len(wrapped)
        rows: list[str] = []
        focus_row = None
        for index, wrapped in reversed(blocks):
            if index == focus:
                focus_row = len(rows)
            rows += wrapped
        return rows[:height], focus_row

    def place_cursor(self) -> None:
        """The terminal cursor at the start of the line in focus (when this log has it)."""
        if self.has_focus:
            region = self.content_region
            self.app.cursor_position = Offset(region.x, region.y + self.focus_row)

    def on_focus(self) -> None:
        self.place_cursor()

    def action_read(self, step: int) -> None:
        """Read back a line before or after (the newest again past the end)."""
        lines = self.spoken.lines
        if not lines:
            return
        at = (len(lines) - 1 if self.reading is None else self.reading) + step
        self.reading = None if at >= len(lines) - 1 else max(0, at)
        self.show()
