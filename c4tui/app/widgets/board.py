"""Board: draws a Position with its cursor, the AI's favourite column and the winning line.

The widget owns no game state: the app hands it a `BoardView` and it draws that, as big
as the space allows (seven disc sizes). Discs differ by shape as well as colour: the
first player's are filled (●), the second player's are rings (○), so the board reads
the same without colour. A click over a column posts `ColumnClicked`. When the app lets
them (`drops_fall`), a dropped disc is drawn falling down its column (falling.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

from rich.color import Color
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.reactive import reactive
from textual.timer import Timer

from c4tui.app.messages import ColumnClicked
from c4tui.app.widgets.classic import Paints, classic_cell
from c4tui.app.widgets.disc_sizes import COMPACT, GIANT, SIZES, DiscSize
from c4tui.app.widgets.drawn import DrawnWidget
from c4tui.app.widgets.falling import Falling, Falls
from c4tui.app.widgets.score_row import overlay_texts, rows_needed, score_lines
from c4tui.engine.board.position import Position
from c4tui.match.exact_scores import ColumnScores
from c4tui.match.sides import GLYPHS

THREAT_MARKS = ("•", "◦")  # a threat of ●, of ○: small discs of the side's own shape

# What to do once a game is over, under the result (the starred discs are the four).
NEXT_STEPS = "n new game · v review · u undo"


@dataclass(frozen=True)
class BoardView:
    """What the board shows; built by the app from its Game."""

    position: Position
    cursor: int | None = None  # the human's selected column, None when they cannot choose
    waiting: bool = False  # the cursor is a pre-selection made while the AI thinks
    preferred: int | None = None  # the column the thinking AI currently prefers
    hint: int | None = None
    winning: tuple[tuple[int, int], ...] = ()
    # The scores overlay: each column's exact score for the side to move (or how far
    # its solve has come), or None: off; in words ("win 7") or, with `score_numbers`,
    # the solver's numbers as connect4.gamesolver.org shows them.
    scores: ColumnScores | None = None
    score_numbers: bool = False
    result: str = ""  # at the end of the game: who won, in the app's words
    next_steps: str = NEXT_STEPS  # the keys shown under the result
    style: str = "modern"  # "classic": the blue frame filled around round holes
    # Threat marks: (player, col, row) of empty cells where that side's stone completes
    # a line, drawn in the hole as a small disc of that side (• for ●, ◦ for ○).
    threats: tuple[tuple[int, int, int], ...] = ()


FRAME_TIME = 1 / 60  # seconds between checks of a falling disc's row
# A cell as a row draws it: its owner (or None), whether it is in the winning line,
# whether it is the last disc dropped, its threat marks (or None).
Cell = tuple[int | None, bool, bool, str | None]
# What a row is drawn with: the frame's side, the hole's, the discs', the winning line's
# and the last disc's styles, the classic look's paints (None: modern).
RowStyles = tuple[Text, Style, tuple[Style, Style], Style, Style, "Paints | None"]
ROWS_KEPT = 256  # board rows kept drawn (a game's rows, and a fall's frames, many times over)


def board_size(size: DiscSize, width: int, height: int, extra: int = 0) -> Size:
    """Characters needed to draw a width x height board at this disc size, with `extra`
    lines under it."""
    return Size(size.width * width + 2, size.height * height + size.marker_rows + 3 + extra)


def marker_row(marks: dict[int, tuple[str, Style]], columns: int, cell_width: int) -> Text:
    """A row over the board: each marked column's (glyph, style) centred over its cell,
    blank over the others (the board's left edge is the first character)."""
    row = Text(" ")
    for col in range(columns):
        if col in marks:
            glyph, style = marks[col]
            row.append(glyph.center(cell_width), style)
        else:
            row.append(" " * cell_width)
    return row


class Board(DrawnWidget):
    """The Connect Four board."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "board--frame",
        "board--hole",
        "board--first",
        "board--second",
        "board--win",
        "board--last",
        "board--cursor",
        "board--thinking",
        "board--hint",
        "board--threat",
        "board--label",
        "board--classic-frame",
        "board--classic-hole",
        "board--classic-first",
        "board--classic-second",
        "board--classic-ring-centre",
        "board--classic-star",
        "board--classic-last",
    }

    # Painted by `redraw` (drawn.py): only the lines a change touches.
    view: reactive[BoardView | None] = reactive(None, layout=False, repaint=False)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        # Set by the app from its settings; Textual's animation level must also be "full"
        # (TEXTUAL_ANIMATIONS=basic keeps only motion that delays nothing).
        self.drops_fall = False
        self._falls = Falls()
        self._falling: tuple[Falling, ...] = ()
        self._fall_timer: Timer | None = None
        # The board's rows as last drawn, by what their cells show (_lines), for these
        # looks (disc size, style, theme, colour or not).
        self._rows: dict[tuple[Cell, ...], list[Text]] = {}
        self._rows_looks: tuple[object, ...] | None = None

    def watch_view(self, view: BoardView | None) -> None:
        if view is None:
            return
        # Not behind another screen (a lobby, a dialog): a fall nobody sees costs the same.
        animate = self.drops_fall and self.app.animation_level == "full" and self.screen.is_current
        self._falls.follow(view.position, time.monotonic(), animate=animate)
        self._next_frame()

    def land(self) -> None:
        """Every falling disc in its cell now: a key was pressed and must not wait."""
        if self._falls.land():
            self._next_frame()

    def _next_frame(self) -> None:
        """Redraw when a falling disc reached another row; tick only while one falls."""
        self._falling = self._falls.now(time.monotonic())
        self.redraw()
        falling = self._falling
        if falling and self._fall_timer is None:
            self._fall_timer = self.set_interval(FRAME_TIME, self._next_frame)
        elif not falling and self._fall_timer is not None:
            self._fall_timer.stop()
            self._fall_timer = None

    def disc_size(self) -> DiscSize | None:
        """The largest disc size that fits, or None when even the smallest does not. The
        scores overlay never changes it: it takes the lines to spare (`overlay_rows`)."""
        if self.view is None:
            return None
        pos = self.view.position
        for size in SIZES:
            need = board_size(size, pos.width, pos.height)
            if need.width <= self.size.width and need.height <= self.size.height:
                return size
        return None

    def overlay_rows(self, size: DiscSize) -> tuple[int, bool]:
        """How many lines the scores take under the column numbers, and whether they take
        the numbers' line too (when the board has no line to spare for them): one line
        when every column's words fit its width with a space, else two, staggered."""
        view = self.view
        if view is None or view.scores is None:
            return 0, False
        pos = view.position
        texts, _ = overlay_texts(view.position, view.scores, view.score_numbers)
        rows = rows_needed(texts, size.width)
        spare = self.size.height - board_size(size, pos.width, pos.height).height
        if spare >= rows:
            return rows, False
        return rows - 1, True

    def _origin(self, size: DiscSize) -> tuple[int, int]:
        """Top-left corner of the drawing, centred in the widget."""
        pos = self.view.position  # type: ignore[union-attr]  # drawn only once a view is set
        below, _ = self.overlay_rows(size)
        need = board_size(size, pos.width, pos.height, below)
        return (self.size.width - need.width) // 2, (self.size.height - need.height) // 2

    def column_at(self, x: int, y: int) -> int | None:
        """The 0-based column under content offset (x, y), or None."""
        size = self.disc_size()
        if size is None or self.view is None:
            return None
        left, _top = self._origin(size)
        inside = x - left - 1
        if inside < 0:
            return None
        col = inside // size.width
        return col if col < self.view.position.width else None

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        col = self.column_at(offset.x, offset.y)
        if col is not None:
            event.stop()
            self.post_message(ColumnClicked(col))

    def drawing_key(self) -> object:
        return self.view, self._falling

    def drawing(self) -> tuple[list[Text], int, int]:
        view = self.view
        if view is None:
            return [], 0, 0
        size = self.disc_size()
        if size is None:
            message = "The board does not fit here: make the terminal larger."
            line = Text(message.center(self.size.width), style=self.component_style("board--label"))
            return [line], 0, max(0, self.size.height // 2)
        left, top = self._origin(size)
        lines = self._lines(view, size)
        # The result is told, and the four marked, once the last disc has landed.
        if not (view.position.is_over() and view.result) or self._falling:
            return lines, left, top
        # The result takes the marker rows over the board, centred on the whole widget
        # so it may be wider than the board.
        banner = self._banner(view.result, view.next_steps, size.marker_rows)
        board = [Text(" " * left) + line for line in lines[size.marker_rows :]]
        return banner + board, 0, top

    def _banner(self, result: str, next_steps: str, rows: int) -> list[Text]:
        win, label = self.component_style("board--win"), self.component_style("board--label")
        width = self.size.width
        if rows == 1:
            return [Text(f"{result}  {next_steps}"[:width].center(width), win)]
        return [
            Text(result[:width].center(width), win),
            Text(next_steps[:width].center(width), label),
        ]

    def _lines(self, view: BoardView, size: DiscSize) -> list[Text]:
        pos = view.position
        hole, label = self.component_style("board--hole"), self.component_style("board--label")
        players = (self.component_style("board--first"), self.component_style("board--second"))
        win, last = self.component_style("board--win"), self.component_style("board--last")
        paints = self._paints() if view.style == "classic" and not self.app.no_color else None
        if paints is not None:  # the disc over the cursor in the board's own red and yellow
            players = (Style(color=paints.discs[0]), Style(color=paints.discs[1]))
        winning = set() if self._falling else set(view.winning)
        # A falling disc leaves its cell empty and shows in the row it has reached.
        drawn: dict[tuple[int, int], int | None] = {(f.column, f.row): None for f in self._falling}
        drawn |= {(f.column, f.shown): f.player for f in self._falling}
        last_cell = None
        if pos.path:
            last_col = pos.path[-1]
            last_cell = (last_col, pos.column_height(last_col) - 1)
        marks: dict[tuple[int, int], str] = {}
        for player, col, row in view.threats:
            marks[(col, row)] = marks.get((col, row), "") + THREAT_MARKS[player]
        lines: list[Text] = []

        # Markers above the board: the disc about to drop and an arrow, per column.
        mover = pos.to_move
        human = 1 - mover if view.waiting else mover
        markers: dict[int, tuple[str, Style]] = {}
        discs: dict[int, tuple[str, Style]] = {}  # the disc about to drop, over the arrow
        if view.preferred is not None:
            markers[view.preferred] = ("▽", self.component_style("board--thinking"))
            discs[view.preferred] = (GLYPHS[mover], self.component_style("board--thinking"))
        if view.cursor is not None:
            markers[view.cursor] = ("▼", self.component_style("board--cursor") + players[human])
            if not view.waiting:
                discs[view.cursor] = (GLYPHS[mover], markers[view.cursor][1])
        if view.hint is not None:
            star = ("★", self.component_style("board--hint"))
            if view.hint not in markers:
                markers[view.hint] = star
            elif size.marker_rows == 2:
                discs[view.hint] = star  # over the cursor's arrow: the hint stays seen
            else:
                markers[view.hint] = star
        if pos.is_over():  # nothing drops any more: the rows over the board stay blank
            markers, discs = {}, {}
        if size.marker_rows == 2:
            lines.append(marker_row(discs, pos.width, size.width))
        lines.append(marker_row(markers, pos.width, size.width))

        top_edge, side, bottom_edge = self._frame(size.width * pos.width, paints)
        lines.append(top_edge)
        looks = (size, view.style, self.app.theme, self.app.no_color)
        if looks != self._rows_looks or len(self._rows) > ROWS_KEPT:
            self._rows_looks, self._rows = looks, {}
        for board_row in reversed(range(pos.height)):
            cells = tuple(
                (
                    drawn[cell] if cell in drawn else pos.cell(*cell),
                    cell in winning,
                    cell == last_cell,
                    marks.get(cell),
                )
                for cell in ((col, board_row) for col in range(pos.width))
            )
            # A row drawn before as it is now is taken as it was: a move or a fall's
            # frame changes one or two of the board's rows, and making every line of
            # them again was most of what a redraw of the board cost.
            if cells not in self._rows:
                row_styles: RowStyles = (side, hole, players, win, last, paints)
                self._rows[cells] = self._row_lines(cells, size, row_styles)
            lines += self._rows[cells]
        numbers = Text(" ")
        for col in range(pos.width):
            style = self.component_style("board--hint") if col == view.hint else label
            numbers.append(str(col + 1).center(size.width), style)
        below, instead = self.overlay_rows(size)
        if instead:
            # No line to spare under the board for the scores (80x24): the column
            # numbers go into the frame's bottom edge rather than under the scores' words.
            lines.append(numbered_edge(bottom_edge, numbers, label))
        else:
            lines.append(bottom_edge)
            lines.append(numbers)
        if view.scores is not None:
            styles = (self.component_style("board--label"), self.component_style("board--hint"))
            texts, scores = overlay_texts(pos, view.scores, view.score_numbers)
            lines += score_lines(texts, scores, size.width, below + instead, *styles)
        return lines

    def _row_lines(self, cells: tuple[Cell, ...], size: DiscSize, styles: RowStyles) -> list[Text]:
        """The lines of one board row: each cell's (owner, in the winning line, the last
        disc dropped, its threat marks)."""
        side, hole, players, win, last, paints = styles
        lines: list[Text] = []
        for sub in range(size.height):
            line = Text()
            line.append_text(side)
            for owner, is_win, is_last, mark in cells:
                if owner is None and mark is not None and sub == (size.height - 1) // 2:
                    line.append(mark.center(size.width), self.component_style("board--threat"))
                    continue
                if paints is not None:
                    picture = classic_cell(size, owner, paints, win=is_win, last=is_last)
                    line.append_text(picture[sub])
                    continue
                if owner is None:
                    line.append(size.hole[sub].center(size.width), hole)
                    continue
                art = (size.win_marks if is_win else size.discs)[owner][sub]
                style = players[owner] + win if is_win else players[owner]
                left_pad = right_pad = " " * ((size.width - len(art)) // 2)
                if is_win and size is COMPACT:
                    left_pad, right_pad = "[", "]"
                elif is_last and sub == (size.height - 1) // 2:
                    left_pad, right_pad = "›", "‹"
                line.append(left_pad, last if left_pad == "›" else style)
                line.append(art, style)
                line.append(right_pad, last if right_pad == "‹" else style)
            line.append_text(side)
            lines.append(line)
        return lines

    def _frame(self, inside: int, paints: Paints | None) -> tuple[Text, Text, Text]:
        """The board's top edge, one side, and bottom edge around `inside` columns."""
        if paints is None:
            frame = self.component_style("board--frame")
            # assemble(), not Text(..., style): Rich drops the style of a Text that has
            # no spans, which left the top and bottom edges in the text colour.
            return (
                Text.assemble(("╭" + "─" * inside + "╮", frame)),
                Text.assemble(("│", frame)),
                Text.assemble(("╰" + "─" * inside + "╯", frame)),
            )
        # Half blocks: the solid frame starts and ends half a line from the holes.
        edge = Style(color=paints.frame)
        return (
            Text.assemble(("▄" * (inside + 2), edge)),
            Text.assemble((" ", Style(bgcolor=paints.frame))),
            Text.assemble(("▀" * (inside + 2), edge)),
        )

    def _paints(self) -> Paints:
        """The classic look's colours in this theme (board--classic-* in app.tcss; the
        terminal's default colour stands in for one a stylesheet leaves out)."""

        def colour(name: str) -> Color:
            return self.component_style(f"board--classic-{name}").color or Color.default()

        return Paints(
            frame=colour("frame"),
            hole=colour("hole"),
            discs=(colour("first"), colour("second")),
            ring_centre=colour("ring-centre"),
            star=colour("star"),
            last=colour("last"),
        )

    def get_content_width(self, container: Size, viewport: Size) -> int:
        if self.view is None:
            return 0
        return board_size(COMPACT, self.view.position.width, self.view.position.height).width

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if self.view is None:
            return 0
        pos = self.view.position
        return board_size(GIANT, pos.width, pos.height, 2 if self.view.scores else 0).height


def numbered_edge(edge: Text, numbers: Text, style: Style) -> Text:
    """The frame's bottom edge with each column's number (in `style`) over it, where the
    numbers' line has it (same columns: the edge's first cell under the line's first)."""
    out = edge.copy()
    for start, char in enumerate(numbers.plain):
        if char.isdigit() and start < len(out):
            out = out[:start] + Text(char, style) + out[start + 1 :]
    return out
