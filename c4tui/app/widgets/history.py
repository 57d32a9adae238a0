"""MoveHistory: the game's moves with its variations, and a line of the AI's evaluation.

The move list (rows from movetree.py) is a ScrollView drawn line by line, with room for
a few lines more than played: most moves only repaint and scroll, without re-laying out
the screen, so typing stays quick however long the game gets. A click on a move posts
`MoveChosen` with its path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Label

from c4tui.app.textual_internals import set_frame_words
from c4tui.app.widgets.evaluation import EvaluationLine
from c4tui.app.widgets.movetree import INDENT, Row, move_rows
from c4tui.engine.board.game import Game
from c4tui.engine.board.notation import format_moves, move_name
from c4tui.engine.players.contract import win_rate
from c4tui.match.opponents import Judge


@dataclass
class MoveChosen(Message):
    """A move of the list was clicked: show the position after it."""

    path: tuple[int, ...]


Piece = tuple[str, str, "tuple[int, ...] | None"]  # text, component class or "", path


def lay_out(rows: list[Row], width: int) -> list[list[Piece]]:
    """The rows as screen lines of at most `width` cells: a main-line round on one line,
    a variation wrapped under its own indent."""
    lines: list[list[Piece]] = []
    for row in rows:
        if row.depth == 0:
            line: list[Piece] = [(f"{row.round:>3}.", "moves--number", None)]
            for entry in row.entries:
                line += [("   ", "", None), (entry.move, "", entry.path)]
            lines.append(line)
            continue
        indent = " " * (3 + INDENT * row.depth)
        line, used = [(indent[:-2] + "↳ ", "moves--number", None)], len(indent)
        for entry in row.entries:
            words = f"{entry.number} {entry.move}".strip() if entry.number else entry.move
            if used + len(words) + 1 > width and used > len(indent):
                lines.append(line)
                line, used = [(indent, "", None)], len(indent)
            line.append((words, "moves--variation", entry.path))
            line.append((" ", "", None))
            used += len(words) + 1
        lines.append(line)
    return lines


def moves_title(game: Game, room: int = 80) -> str:
    """The list's title in `room` characters, moves counted as players count them
    (notation.py): "Moves to 4 ○" (the game's last move), where the board is when not
    at the end of the main line ("· board after 2 ●"), and the variations ("· 1
    variation"). Too long for the frame (at 80 columns), the variations go (the list
    shows them), then how far the game went (the list ends there)."""
    last = game.main_position.moves
    if last == game.start.moves:
        return "Moves"
    parts = [f"Moves to {move_name(last - 1)}"]
    if game.path != game.main_position.path:
        here = game.position.moves
        where = f"after {move_name(here - 1)}" if here > game.start.moves else "at the start"
        parts.append(f"board {where}")
    variations = len(game.line_ends()) - 1
    if variations:
        parts.append(f"{variations} variation{'s' * (variations > 1)}")
    title = " · ".join(parts)
    if len(title) > room and variations:
        title = " · ".join(parts[:-1])
    if len(title) > room and len(parts) > 1:
        title = "Moves · " + parts[1]
    return title


def moves_string_words(string: str, room: int) -> str:
    """The move string on the frame, named ("columns played 4453"), to read off or
    check against a copied one (c); its tail when long."""
    label = "columns played "
    if not string:
        return ""
    if len(label) + len(string) <= room:
        return label + string
    return label + "…" + string[-max(1, room - len(label) - 1) :]


def judged_words(value: float, whose: Judge | None) -> str:
    """The label over the evaluation line: a proven result in words ("● wins with
    perfect play (Level 8)"), an estimate as a win rate ("● wins 55% now, in MCTS's
    view"). An exact engine never says 50% of a position it knows is a draw."""
    title = whose.title if whose is not None else "the AI"
    if whose is not None and whose.exact:
        result = "● wins" if value > 0 else "○ wins" if value < 0 else "a draw"
        return f"{result} with perfect play ({title})"
    return f"● wins {win_rate(value):.0%} now, in {title}'s view"


class MoveList(ScrollView, can_focus=False):
    """The main line by rounds, variations under the move they branch from; the move on
    the board highlighted, and any move a click away."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "moves--number",
        "moves--last",
        "moves--variation",
        "moves--ahead",
    }

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[Row] = []
        self.lines: list[list[Piece]] = []
        self.current: tuple[int, ...] = ()
        self.capacity = 0

    def show(self, rows: list[Row], current: tuple[int, ...]) -> None:
        """`current`: the path of the position on the board."""
        lines, was, top = self.lines, self.current, self.scroll_offset.y
        self.rows, self.current = rows, current
        self._fit()
        if self.scroll_offset.y != top or not self._went_on(lines, was):
            self.refresh()
            return
        # A move played on: the lines that changed, and those of the move marked before
        # and now (the others are drawn as they were: a move used to repaint them all).
        marked = {self._line_of(lines, was), self._line_of(self.lines, current)}
        width = self.size.width
        for index in range(max(len(lines), len(self.lines))):
            same = (
                index < len(lines) and index < len(self.lines) and lines[index] == self.lines[index]
            )
            if (not same or index in marked) and 0 <= index - top < self.size.height:
                self.refresh(Region(0, index - top, width, 1))

    def _went_on(self, lines: list[list[Piece]], was: tuple[int, ...]) -> bool:
        """Whether the move on the board went on from `was`, which had no move after it
        in `lines` (none dimmed as ahead, then or now)."""
        current = self.current
        if current[: len(was)] != was:
            return False
        return not any(
            path is not None and len(path) > len(was) and path[: len(was)] == was
            for line in lines
            for _, _, path in line
        )

    @staticmethod
    def _line_of(lines: list[list[Piece]], path: tuple[int, ...]) -> int:
        return next(
            (index for index, line in enumerate(lines) if any(p == path for _, _, p in line)), -1
        )

    def _current_line(self) -> int:
        index = self._line_of(self.lines, self.current)
        return index if index >= 0 else len(self.lines) - 1

    def _fit(self) -> None:
        """Lay the rows out, size the scroll area and keep the board's move in view.

        The area is the visible height while the lines fit (no scrollbar), then grows in
        steps of eight lines: a layout pass now and then, never at every move.
        """
        self.lines = lay_out(self.rows, max(12, self.size.width - 1))
        visible = max(1, self.size.height)
        count = len(self.lines)
        capacity = visible if count <= visible else -(-count // 8) * 8
        if capacity != self.capacity:
            self.capacity = capacity
            self.virtual_size = Size(0, capacity)
        shown = self._current_line()
        top = self.scroll_offset.y
        if not top <= shown < top + visible:
            self.scroll_to(y=max(0, min(shown - visible // 2, count - visible)), animate=False)

    def on_resize(self) -> None:
        self._fit()

    def on_click(self, event: events.Click) -> None:
        index = self.scroll_offset.y + event.y
        if not 0 <= index < len(self.lines):
            return
        x = 0
        for text, _, path in self.lines[index]:
            if path is not None and x <= event.x < x + len(text):
                self.post_message(MoveChosen(path))
                return
            x += len(text)

    def _ahead(self, path: tuple[int, ...]) -> bool:
        """Whether the move lies ahead of the board (undone, or not played yet on this
        line): dimmed, as redo would bring it back."""
        return len(path) > len(self.current) and path[: len(self.current)] == self.current

    def render_line(self, y: int) -> Strip:
        index = self.scroll_offset.y + y
        width = self.size.width
        base = self.rich_style
        text = Text(style=base, no_wrap=True)
        if not self.lines and y == 0:
            text.append("No moves yet.", self.get_component_rich_style("moves--number"))
        elif index < len(self.lines):
            for words, kind, path in self.lines[index]:
                style = self.get_component_rich_style(kind) if kind else ""
                if path is not None and path == self.current:
                    style = self.get_component_rich_style("moves--last")
                elif path is not None and self._ahead(path):
                    style = self.get_component_rich_style("moves--ahead")
                text.append(words, style)
        segments = [
            Segment(segment.text, base + segment.style if segment.style else base)
            for segment in text.render(self.app.console)
            if segment.text != "\n"
        ]
        return Strip(segments).adjust_cell_length(width, base)


CRAMPED_BELOW = 7  # lines: border, a round of moves, the label and two rows of bars
# With variations, the list needs a few lines to show a line and its branch together:
# below this the bars give it theirs.
BRANCHED_BELOW = 11


class MoveHistory(Vertical):
    """The history panel; the app calls `show()` after every change to the game."""

    def compose(self) -> ComposeResult:
        yield MoveList(id="history-moves")
        yield Label(id="evaluation-label")
        yield EvaluationLine(id="evaluation")

    _shown: (
        tuple[list[Row], tuple[int, ...], list[float], Judge | None, bool, str | None] | None
    ) = None
    branched = False  # the game has variations
    _game: Game | None = None  # the game shown, for the frame's words at a new width

    def show(
        self,
        game: Game,
        evaluations: list[float],
        whose: Judge | None,
        ai_plays: bool = True,
        silent: str | None = None,
    ) -> None:
        """`game`: its lines are listed and its board's move marked; `evaluations`: one
        engine's values of its moves on the board's line, ●'s side; `whose`: that engine
        (its title, and whether its last value is a proven result); `ai_plays`: whether
        an engine plays a side (else nobody judges the moves); `silent`: the title of
        an engine that plays and values no move (Random), when no other has."""
        rows = move_rows(game, game.position.width)
        shown = (rows, game.path, evaluations, whose, ai_plays, silent)
        if shown == self._shown:
            return
        self._shown = shown
        lines = len(game.line_ends())
        self._game = game
        self._frame_words()
        self.query_one(MoveList).show(rows, game.path)
        if self.branched != (lines > 1):  # rare: the first variation, or the last gone
            self.branched = lines > 1
            self.on_resize()
        line = self.query_one("#evaluation", EvaluationLine)
        line.show(evaluations)
        label = self.query_one("#evaluation-label", Label)
        # The figure first: the narrowest layout (80 columns) leaves 36 characters.
        if evaluations:
            words = judged_words(evaluations[-1], whose)
        elif silent is not None:
            words = f"{silent} does not judge moves"
        elif ai_plays:
            words = "The AI's view of the game: none yet"
        else:
            words = "Two people: no engine judges moves"
        label.update(words, layout=False)  # a fixed one-line label: no layout pass
        self._show_bars()

    def _frame_words(self) -> None:
        """The title and the move string on the frame, in the frame's width (the corners
        and a space each side take 4 characters)."""
        if self._game is None:
            return
        room = max(10, (self.size.width or 40) - 4)
        title = moves_title(self._game, room)
        # Both change at every move: only the frame's two lines are painted again, not
        # every line of the panel.
        set_frame_words(self, title, moves_string_words(format_moves(self._game.moves), room))

    def on_resize(self) -> None:
        self._frame_words()
        # At 80x24 with 8-10 columns the thinking panel leaves this panel 4-6 lines:
        # then the bars go (the label keeps the figure), rather than the bottom border
        # and the bars being cut off below the screen's edge.
        # With variations, a short panel gives the move list the bars' lines.
        least = BRANCHED_BELOW if self.branched else CRAMPED_BELOW
        cramped = self.outer_size.height < least
        if cramped != self.has_class("-cramped"):
            self.set_class(cramped, "-cramped")
            self._show_bars()

    def _show_bars(self) -> None:
        """Bars once the AI has judged a move and there is room; toggled rarely, so the
        layout pass is fine."""
        line = self.query_one("#evaluation", EvaluationLine)
        shown = bool(self._shown and self._shown[2]) and not self.has_class("-cramped")
        if line.display != shown:
            line.display = shown
