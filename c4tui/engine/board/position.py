"""Position: one immutable Connect Four position on a bitboard.

`current` holds the stones of the player to move, `mask` every stone (layout in
`geometry.py`). Equality and hashing follow the stones, not the order they were
played in, so transpositions compare equal; `to_moves()` still returns the path that
built this object, for display and saving.

Players are numbered 0 (moves first, shown as ●) and 1 (shown as ○).
"""

from __future__ import annotations

from c4tui.engine.board.geometry import Geometry, geometry
from c4tui.engine.board.notation import NotationError, column_range, format_moves, symbol_column


class IllegalMoveError(ValueError):
    """A move that this position does not allow."""


class Position:
    __slots__ = ("_path", "current", "geometry", "mask", "moves")

    current: int
    mask: int
    moves: int
    geometry: Geometry

    def __init__(
        self,
        current: int,
        mask: int,
        moves: int,
        geometry: Geometry,
        path: tuple[int, ...] = (),
    ) -> None:
        self.current = current
        self.mask = mask
        self.moves = moves
        self.geometry = geometry
        self._path = path

    # ---- construction -------------------------------------------------------------

    @classmethod
    def start(cls, width: int = 7, height: int = 6, connect: int = 4) -> Position:
        """The empty board of the given size."""
        return cls(0, 0, 0, geometry(width, height, connect))

    @classmethod
    def from_moves(cls, text: str, width: int = 7, height: int = 6, connect: int = 4) -> Position:
        """The position after the moves in `text` (see `notation.py`).

        Raises NotationError naming the 1-based index of the first bad character.
        """
        pos = cls.start(width, height, connect)
        for index, char in enumerate(text, start=1):
            col = symbol_column(char)
            if col is None:
                raise NotationError(text, index, f"not a column (expected {column_range(width)})")
            if col >= width:
                raise NotationError(
                    text, index, f"column {col + 1} is outside the {width}-column board"
                )
            if pos.is_over():
                raise NotationError(text, index, "the game is already over")
            if not pos.can_play(col):
                raise NotationError(text, index, f"column {col + 1} is full")
            pos = pos._drop(col)
        return pos

    # ---- properties ---------------------------------------------------------------

    @property
    def width(self) -> int:
        return self.geometry.width

    @property
    def height(self) -> int:
        return self.geometry.height

    @property
    def connect(self) -> int:
        return self.geometry.connect

    @property
    def to_move(self) -> int:
        """The player whose turn it is: 0 or 1."""
        return self.moves & 1

    @property
    def opponent_stones(self) -> int:
        return self.current ^ self.mask

    # ---- moves --------------------------------------------------------------------

    def can_play(self, col: int) -> bool:
        """True when column `col` (0-based) is on the board and not full."""
        return 0 <= col < self.geometry.width and not self.mask & self.geometry.top_masks[col]

    def legal_moves(self) -> tuple[int, ...]:
        """Columns that can be played, left to right; empty once the game is over."""
        if self.is_over():
            return ()
        return tuple(c for c in range(self.geometry.width) if self.can_play(c))

    def play(self, col: int) -> Position:
        """The position after the side to move drops a stone in column `col` (0-based)."""
        if not 0 <= col < self.geometry.width:
            raise IllegalMoveError(
                f"column {col + 1} is outside the {self.geometry.width}-column board"
            )
        if self.is_over():
            raise IllegalMoveError("the game is already over")
        if not self.can_play(col):
            raise IllegalMoveError(f"column {col + 1} is full")
        return self._drop(col)

    def _drop(self, col: int) -> Position:
        g = self.geometry
        # Adding the column's bottom bit to the mask carries up to the first empty cell.
        mask = self.mask | (self.mask + g.bottom_masks[col])
        return Position(self.current ^ self.mask, mask, self.moves + 1, g, (*self._path, col))

    def is_winning_move(self, col: int) -> bool:
        """True when dropping in `col` makes a line for the side to move."""
        if not self.can_play(col):
            return False
        g = self.geometry
        stone = (self.mask + g.bottom_masks[col]) & g.column_masks[col]
        return g.has_alignment(self.current | stone)

    def column_height(self, col: int) -> int:
        """How many stones column `col` holds."""
        h1 = self.geometry.height + 1
        return ((self.mask >> (col * h1)) & ((1 << h1) - 1)).bit_count()

    # ---- outcome ------------------------------------------------------------------

    def winner(self) -> int | None:
        """The player who made a line, or None. Only the last mover can have one."""
        if self.moves and self.geometry.has_alignment(self.current ^ self.mask):
            return (self.moves - 1) & 1
        return None

    def is_draw(self) -> bool:
        return self.moves == self.geometry.cells and self.winner() is None

    def is_over(self) -> bool:
        return self.moves == self.geometry.cells or self.winner() is not None

    def winning_cells(self) -> tuple[tuple[int, int], ...]:
        """(col, row) of every stone in the winner's lines, or () without a winner."""
        if self.winner() is None:
            return ()
        cells = self.geometry.alignment_cells(self.current ^ self.mask)
        return self._cells_of(cells)

    def cell(self, col: int, row: int) -> int | None:
        """The player whose stone is at (col, row), row 0 at the bottom, or None."""
        bit = self.geometry.bit(col, row)
        if not self.mask & bit:
            return None
        return self.to_move if self.current & bit else 1 - self.to_move

    def _cells_of(self, bits: int) -> tuple[tuple[int, int], ...]:
        h1 = self.geometry.height + 1
        out = []
        while bits:
            low = bits & -bits
            index = low.bit_length() - 1
            out.append((index // h1, index % h1))
            bits ^= low
        return tuple(sorted(out))

    # ---- identity -----------------------------------------------------------------

    def to_moves(self) -> str:
        """The move string that built this position (1-based notation)."""
        return format_moves(self._path)

    @property
    def path(self) -> tuple[int, ...]:
        """The 0-based columns played to reach this position, in order."""
        return self._path

    def key(self) -> int:
        """A unique int for the stones on the board: current + mask (Pons)."""
        return self.current + self.mask

    def mirror(self) -> Position:
        """The position reflected left to right."""
        g = self.geometry
        path = tuple(g.width - 1 - c for c in self._path)
        return Position(g.mirror(self.current), g.mirror(self.mask), self.moves, g, path)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (
            self.current == other.current
            and self.mask == other.mask
            and self.geometry is other.geometry
        )

    def __hash__(self) -> int:
        return hash((self.current, self.mask, self.geometry.width, self.geometry.height))

    def __repr__(self) -> str:
        g = self.geometry
        size = (
            ""
            if (g.width, g.height, g.connect) == (7, 6, 4)
            else f", {g.width}x{g.height}c{g.connect}"
        )
        return f"Position({self.to_moves()!r}{size})"

    def __str__(self) -> str:
        """A plain text picture: X moved first, O second, '.' empty, top row first."""
        g = self.geometry
        rows = []
        for row in reversed(range(g.height)):
            marks = {None: ".", 0: "X", 1: "O"}
            rows.append(" ".join(marks[self.cell(c, row)] for c in range(g.width)))
        rows.append(" ".join(format_moves(tuple(range(g.width)))))
        return "\n".join(rows)
