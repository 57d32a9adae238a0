"""MoveHistory: the numbered moves of the game and a line of the AI's evaluation.

The move list is a ScrollView drawn line by line, with room for a few rounds more than
played: most moves only repaint and scroll, without re-laying out the screen, so
typing stays quick however long the game gets.
"""

from __future__ import annotations

from typing import ClassVar

from rich.segment import Segment
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Label

from c4tui.app.widgets.evaluation import EvaluationLine
from c4tui.engine.notation import format_moves
from c4tui.engine.search import win_rate
from c4tui.match.sides import GLYPHS


def move_rounds(moves: tuple[int, ...], columns: int = 7) -> list[list[str]]:
    """Moves grouped by round: [["● 4", "○ 4"], ...], columns 1-based and as wide as the
    board's widest number, so that on a 10-column board "● 10" keeps the ○ moves aligned."""
    digits = len(str(columns))
    rounds: list[list[str]] = []
    for ply, col in enumerate(moves):
        entry = f"{GLYPHS[ply & 1]} {col + 1:<{digits}}"
        if ply % 2 == 0:
            rounds.append([entry])
        else:
            rounds[-1].append(entry)
    return rounds


class MoveList(ScrollView, can_focus=False):
    """One line per round: "  3.   ● 5   ○ 4", the newest move highlighted."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"moves--number", "moves--last"}

    rounds: list[list[str]]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rounds = []
        self.capacity = 0

    def show(self, moves: tuple[int, ...], columns: int) -> None:
        self.rounds = move_rounds(moves, columns)
        self._fit()
        self.refresh()

    def _fit(self) -> None:
        """Size the scroll area and keep the newest round on the last visible line.

        The area is the visible height while the rounds fit (no scrollbar), then grows in
        steps of eight rounds: a layout pass now and then, never at every move.
        """
        visible = max(1, self.size.height)
        rounds = len(self.rounds)
        capacity = visible if rounds <= visible else -(-rounds // 8) * 8
        if capacity != self.capacity:
            self.capacity = capacity
            self.virtual_size = Size(0, capacity)
        self.scroll_to(y=max(0, rounds - visible), animate=False)

    def on_resize(self) -> None:
        self._fit()

    def render_line(self, y: int) -> Strip:
        index = self.scroll_offset.y + y
        width = self.size.width
        base = self.rich_style
        text = Text(style=base, no_wrap=True)
        if not self.rounds and y == 0:
            text.append("No moves yet.", self.get_component_rich_style("moves--number"))
        elif index < len(self.rounds):
            entries = self.rounds[index]
            text.append(f"{index + 1:>3}.", self.get_component_rich_style("moves--number"))
            for position, entry in enumerate(entries):
                newest = index == len(self.rounds) - 1 and position == len(entries) - 1
                text.append("   ")
                text.append(entry, self.get_component_rich_style("moves--last") if newest else "")
        segments = [
            Segment(segment.text, base + segment.style if segment.style else base)
            for segment in text.render(self.app.console)
            if segment.text != "\n"
        ]
        return Strip(segments).adjust_cell_length(width, base)


CRAMPED_BELOW = 7  # lines: border, a round of moves, the label and two rows of bars


class MoveHistory(Vertical):
    """The history panel; the app calls `show()` after every change to the game."""

    def compose(self) -> ComposeResult:
        yield MoveList(id="history-moves")
        yield Label(id="evaluation-label")
        yield EvaluationLine(id="evaluation")

    _shown: tuple[tuple[int, ...], list[float], str | None, int] | None = None

    def show(
        self, moves: tuple[int, ...], evaluations: list[float], whose: str | None, columns: int
    ) -> None:
        """`evaluations`: one engine's values of its moves, ●'s side; `whose`: its name."""
        if (moves, evaluations, whose, columns) == self._shown:
            return
        self._shown = (moves, evaluations, whose, columns)
        title = f"Moves ({len(moves)})"
        if title != self.border_title:
            self.border_title = title
        # The move string on the frame, to read off or check against a copied one (c).
        # The tail when long: the frame has room for about 40 characters at 80 columns.
        string = format_moves(moves)
        self.border_subtitle = string if len(string) <= 40 else "…" + string[-39:]
        self.query_one(MoveList).show(moves, columns)
        line = self.query_one("#evaluation", EvaluationLine)
        line.show(evaluations)
        label = self.query_one("#evaluation-label", Label)
        # The figure first: the narrowest layout (80 columns) leaves 36 characters.
        if evaluations:
            chance = win_rate(evaluations[-1])
            words = f"● wins {chance:.0%} now, in {whose}'s view"
        else:
            words = "The AI's view of the game: none yet"
        label.update(words, layout=False)  # a fixed one-line label: no layout pass
        self._show_bars()

    def on_resize(self) -> None:
        # At 80x24 with 8-10 columns the thinking panel leaves this panel 4-6 lines:
        # then the bars go (the label keeps the figure), rather than the bottom border
        # and the bars being cut off below the screen's edge.
        cramped = self.outer_size.height < CRAMPED_BELOW
        if cramped != self.has_class("-cramped"):
            self.set_class(cramped, "-cramped")
            self._show_bars()

    def _show_bars(self) -> None:
        """Bars once the AI has judged a move and there is room; toggled rarely, so the
        layout pass is fine."""
        line = self.query_one("#evaluation", EvaluationLine)
        shown = bool(self._shown and self._shown[1]) and not self.has_class("-cramped")
        if line.display != shown:
            line.display = shown
