"""A deliberately naive Connect Four board (lists of lists) to check `Position` against.

No bit tricks: every question is answered by looking at the cells one by one, so it is
slow but obviously right.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# (column step, row step) of the four line directions.
DIRECTIONS = {"vertical": (0, 1), "horizontal": (1, 0), "rising": (1, 1), "falling": (1, -1)}


@dataclass
class ReferenceBoard:
    width: int = 7
    height: int = 6
    connect: int = 4
    columns: list[list[int]] = field(default_factory=list)  # bottom first, players 0 / 1
    moves: int = 0

    def __post_init__(self) -> None:
        if not self.columns:
            self.columns = [[] for _ in range(self.width)]

    def copy(self) -> ReferenceBoard:
        return ReferenceBoard(
            self.width, self.height, self.connect, [list(c) for c in self.columns], self.moves
        )

    def cell(self, col: int, row: int) -> int | None:
        column = self.columns[col]
        return column[row] if row < len(column) else None

    def to_move(self) -> int:
        return self.moves % 2

    def lines(self) -> list[tuple[str, int, list[tuple[int, int]]]]:
        """Every run of `connect` equal stones: (direction, player, cells)."""
        found = []
        for col in range(self.width):
            for row in range(self.height):
                owner = self.cell(col, row)
                if owner is None:
                    continue
                for name, (dc, dr) in DIRECTIONS.items():
                    cells = [(col + i * dc, row + i * dr) for i in range(self.connect)]
                    if all(
                        0 <= c < self.width and 0 <= r < self.height and self.cell(c, r) == owner
                        for c, r in cells
                    ):
                        found.append((name, owner, cells))
        return found

    def winner(self) -> int | None:
        owners = {owner for _, owner, _ in self.lines()}
        assert len(owners) <= 1, "both players have a line: the game went on too long"
        return owners.pop() if owners else None

    def is_full(self) -> bool:
        return all(len(c) == self.height for c in self.columns)

    def is_over(self) -> bool:
        return self.winner() is not None or self.is_full()

    def legal_moves(self) -> list[int]:
        if self.is_over():
            return []
        return [c for c in range(self.width) if len(self.columns[c]) < self.height]

    def play(self, col: int) -> None:
        assert col in self.legal_moves()
        self.columns[col].append(self.to_move())
        self.moves += 1

    def wins_with(self, col: int) -> bool:
        """True when the side to move makes a line by dropping in `col`."""
        if col not in self.legal_moves():
            return False
        board = self.copy()
        board.play(col)
        return board.winner() is not None

    def winning_cells(self) -> set[tuple[int, int]]:
        return {cell for _, _, cells in self.lines() for cell in cells}

    def grid(self) -> tuple[tuple[int | None, ...], ...]:
        return tuple(tuple(self.cell(c, r) for r in range(self.height)) for c in range(self.width))
