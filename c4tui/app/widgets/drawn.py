"""DrawnWidget: a widget drawn line by line from cached strips, for fast live updates.

The board and the thinking panel redraw up to ten times a second while the AI thinks.
Building their lines once per (state, size, theme) and serving `render_line` from that
cache repaints just the widget, never re-lays out the screen, and keeps key latency low.
`redraw()` goes further: it repaints only the lines that changed. A cursor's step
changes two lines of the board's forty and a move five or so; painting the others
again was most of what a served client spent on a move.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget


class DrawnWidget(Widget):
    """Subclasses implement `drawing()` and `drawing_key()`."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._strips_key: object = None
        self._strips: list[Strip] = []
        # What the strips were built from, line by line, to keep those that stay.
        self._drawn: list[tuple[object, ...]] = []
        self._texts: list[Text] = []  # the lines as last handed over (the same objects)
        self._placed: tuple[object, ...] = ()  # and where: style, width, left, top
        self._styles: dict[str, Style] = {}
        self._styles_theme: str | None = None

    def drawing_key(self) -> object:
        """What the drawing depends on besides size and theme; a change redraws it."""
        raise NotImplementedError

    def drawing(self) -> tuple[list[Text], int, int]:
        """The lines to show, and the (left, top) offset to draw them at. A line handed
        over again as the same object must be unchanged (a subclass may keep its lines
        drawn, as the board does, and must not change one it has handed over)."""
        raise NotImplementedError

    def render_line(self, y: int) -> Strip:
        self._update_strips()
        if y < len(self._strips):
            return self._strips[y]
        return Strip.blank(self.size.width, self.rich_style)

    def redraw(self) -> None:
        """Repaint the lines whose drawing changed (all of them after a change of size
        or theme, or before the first paint); nothing when the drawing is the same."""
        if not self.is_mounted or not self.size:
            self.refresh()
            return
        old_key, old_strips = self._strips_key, self._strips
        if not self._update_strips():
            return
        if not isinstance(old_key, tuple) or old_key[1:] != self._strips_key[1:]:  # type: ignore[index]  # _update_strips made a tuple
            self.refresh()
            return
        strips, width = self._strips, self.size.width
        changed = [
            Region(0, y, width, 1)
            for y in range(max(len(old_strips), len(strips)))
            if y >= len(old_strips) or y >= len(strips) or old_strips[y] is not strips[y]
        ]
        if changed:
            self.refresh(*changed)

    def _update_strips(self) -> bool:
        """Build the strips again if the drawing, the size or the theme changed (True)."""
        key = (self.drawing_key(), self.size, self.app.theme)
        if key == self._strips_key:
            return False
        self._strips_key = key
        self._strips = self._build_strips()
        return True

    def _build_strips(self) -> list[Strip]:
        base, width, console = self.rich_style, self.size.width, self.app.console
        lines, left, top = self.drawing()
        # A line drawn as before (same words and styles at the same place) keeps its
        # strip, which tells `redraw` it need not be painted again. A line handed over
        # as the very object it was (the board keeps its rows drawn) is known to be the
        # same without working out its face: that was most of a move's redraw.
        placed, texts = (base, width, left, top), self._texts
        same = placed == self._placed
        faces: list[tuple[object, ...]] = [(base, width)] * top
        for y, x in enumerate(lines):
            if same and y < len(texts) and texts[y] is x:
                faces.append(self._drawn[top + y])
            else:
                faces.append(self._face(placed, x))
        before, old = self._drawn, None
        strips: list[Strip] = []
        for y, face in enumerate(faces):
            if y < len(before) and before[y] == face:
                strips.append(self._strips[y])
                continue
            if old is None:
                old = dict(zip(self._drawn, self._strips, strict=False))
            if face in old:
                strips.append(old[face])
            elif y < top:
                strips.append(Strip.blank(width, base))
            else:
                line = lines[y - top]
                segments = [Segment(" " * left, base)] if left else []
                segments.extend(
                    Segment(part.text, base + part.style if part.style else base)
                    for part in line.render(console)
                    if part.text != "\n"
                )
                strips.append(Strip(segments).adjust_cell_length(width, base))
        self._drawn, self._texts, self._placed = faces, list(lines), placed
        return strips

    @staticmethod
    def _face(placed: tuple[object, ...], line: Text) -> tuple[object, ...]:
        """What a line looks like where it is drawn: two alike are drawn alike."""
        base, width, left, _top = placed
        return (base, width, left, line.plain, line.style, tuple(line.spans))

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
