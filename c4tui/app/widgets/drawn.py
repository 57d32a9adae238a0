"""DrawnWidget: a widget drawn line by line from cached strips, for fast live updates.

The board and the thinking panel redraw up to ten times a second while the AI thinks.
Building their lines once per (state, size, theme) and serving `render_line` from that
cache repaints just the widget, never re-lays out the screen, and keeps key latency low.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip
from textual.widget import Widget


class DrawnWidget(Widget):
    """Subclasses implement `drawing()` and `drawing_key()`."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._strips_key: object = None
        self._strips: list[Strip] = []
        self._styles: dict[str, Style] = {}
        self._styles_theme: str | None = None

    def drawing_key(self) -> object:
        """What the drawing depends on besides size and theme; a change redraws it."""
        raise NotImplementedError

    def drawing(self) -> tuple[list[Text], int, int]:
        """The lines to show, and the (left, top) offset to draw them at."""
        raise NotImplementedError

    def render_line(self, y: int) -> Strip:
        key = (self.drawing_key(), self.size, self.app.theme)
        if key != self._strips_key:
            self._strips_key = key
            self._strips = self._build_strips()
        if y < len(self._strips):
            return self._strips[y]
        return Strip.blank(self.size.width, self.rich_style)

    def _build_strips(self) -> list[Strip]:
        base, width, console = self.rich_style, self.size.width, self.app.console
        lines, left, top = self.drawing()
        strips = [Strip.blank(width, base)] * top
        for line in lines:
            segments = [Segment(" " * left, base)] if left else []
            segments.extend(
                Segment(part.text, base + part.style if part.style else base)
                for part in line.render(console)
                if part.text != "\n"
            )
            strips.append(Strip(segments).adjust_cell_length(width, base))
        return strips

    def component_style(self, name: str) -> Style:
        # Looked up once per theme: Textual's own lookup is slow enough to show while
        # the panel redraws ten times a second.
        theme = self.app.theme
        if self._styles_theme != theme:
            self._styles_theme = theme
            self._styles = {}
        if name not in self._styles:
            self._styles[name] = self.get_component_rich_style(name)
        return self._styles[name]
