"""ReviewGraph: the exact value after every move of a game, the whole game at a glance.

One bar per ply, two rows high, on the evaluation line's fixed scale (a sliver: ● loses
for sure, full: ● wins for sure, the bottom row alone: a draw), spread over the panel's
width: each ply gets as many columns as fit, and when the game has more plies than the
panel has columns, neighbouring plies share a column (it shows the last of them). A row
under the bars marks the move shown (▲) and the move where the game turned (◆); a ply
not judged yet is a dot.
"""

from __future__ import annotations

from typing import ClassVar

from rich.segment import Segment
from textual.strip import Strip
from textual.widget import Widget

from c4tui.app.widgets.evaluation import ROWS, column_cells

SHOWN, TURN = "▲", "◆"


def ply_columns(plies: int, width: int) -> list[range]:
    """The plies each of the graph's columns stands for: one ply spread over as many
    columns as fit, or a group of neighbouring plies per column when they do not fit."""
    if plies == 0 or width <= 0:
        return []
    if plies <= width:
        each = width // plies
        return [range(ply, ply + 1) for ply in range(plies) for _ in range(each)]
    return [range(col * plies // width, (col + 1) * plies // width) for col in range(width)]


class ReviewGraph(Widget):
    """The review's graph; `show()` hands it the values, the shown ply and the turn."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "evaluation--first",
        "evaluation--second",
        "evaluation--even",
        "graph--marker",
    }

    DEFAULT_CSS = """
    ReviewGraph { height: 3; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.values: list[float | None] = []
        self.shown: int | None = None
        self.turn: int | None = None

    def show(self, values: list[float | None], shown: int | None, turn: int | None) -> None:
        """`values`: ●'s exact value after each ply in [-1, 1], None while unjudged."""
        if (values, shown, turn) != (self.values, self.shown, self.turn):
            self.values, self.shown, self.turn = list(values), shown, turn
            self.refresh()

    def render_line(self, y: int) -> Strip:
        base = self.rich_style
        width = self.size.width
        columns = ply_columns(len(self.values), width)
        styles = {
            name: base + self.get_component_rich_style(f"evaluation--{name}")
            for name in ("first", "second", "even")
        }
        marker = base + self.get_component_rich_style("graph--marker")
        segments = []
        for index, plies in enumerate(columns):
            if y == ROWS:
                mark = " "
                if index == 0 or columns[index - 1] != plies:  # a ply's first column
                    if self.turn in plies:
                        mark = TURN
                    if self.shown in plies:
                        mark = SHOWN
                segments.append(Segment(mark, marker))
                continue
            value = self.values[plies[-1]]
            if value is None:
                segments.append(Segment("·" if y == ROWS - 1 else " ", styles["even"]))
                continue
            side = "first" if value > 0.05 else "second" if value < -0.05 else "even"
            segments.append(Segment(column_cells(value)[y], styles[side]))
        return Strip(segments).adjust_cell_length(width, base)
