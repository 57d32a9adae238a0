"""EvaluationLine: the AI's value of each of its moves, as bars on a fixed scale.

A bar per AI move, two rows high: a sliver (one eighth of a row) means the AI sees the
first player (●) losing for sure, a full column winning for sure, the bottom row alone an
even game. Never empty: a sure loss must not look like a move the AI did not judge.
Unlike a sparkline scaled to its own data, a run of even moves stays in the middle
instead of jumping between the top and the bottom.
"""

from __future__ import annotations

from typing import ClassVar

from rich.segment import Segment
from textual.strip import Strip
from textual.widget import Widget

from c4tui.engine.players.contract import win_rate

EIGHTHS = " ▁▂▃▄▅▆▇█"
ROWS = 2


def column_cells(value: float, rows: int = ROWS) -> list[str]:
    """The characters of one bar for `value` in [-1, 1], top row first."""
    eighths = max(1, round(win_rate(max(-1.0, min(1.0, value))) * rows * 8))
    cells = []
    for row in reversed(range(rows)):  # top row first
        filled = max(0, min(8, eighths - row * 8))
        cells.append(EIGHTHS[filled])
    return cells


class EvaluationLine(Widget):
    """Bars coloured by who the AI thinks is ahead; the newest move on the right."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "evaluation--first",
        "evaluation--second",
        "evaluation--even",
    }

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.values: list[float] = []

    def show(self, values: list[float]) -> None:
        if values != self.values:
            self.values = list(values)
            self.refresh()

    def render_line(self, y: int) -> Strip:
        base = self.rich_style
        width = self.size.width
        shown = self.values[-(width // 2) :] if width >= 2 else []
        styles = {
            name: base + self.get_component_rich_style(f"evaluation--{name}")
            for name in ("first", "second", "even")
        }
        segments = []
        for value in shown:
            side = "first" if value > 0.05 else "second" if value < -0.05 else "even"
            segments.append(Segment(column_cells(value)[y] if y < ROWS else " ", styles[side]))
            segments.append(Segment(" ", base))
        return Strip(segments).adjust_cell_length(width, base)
