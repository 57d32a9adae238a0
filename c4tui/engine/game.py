"""Game: the moves of one game, with undo and redo, and its result.

The file format of a kept game is gamefile.py's.
"""

from __future__ import annotations

from dataclasses import dataclass

from c4tui.engine.position import Position


@dataclass(frozen=True)
class Result:
    """How a finished game ended: `winner` is 0, 1, or None for a draw."""

    winner: int | None
    cells: tuple[tuple[int, int], ...] = ()  # the winning line(s), (col, row)


class Game:
    """A game in progress: the positions played so far and the ones undone."""

    def __init__(self, start: Position | None = None) -> None:
        self._history: list[Position] = [start or Position.start()]
        self._undone: list[int] = []  # columns undone, most recent last

    @classmethod
    def from_moves(cls, moves: str, width: int = 7, height: int = 6, connect: int = 4) -> Game:
        game = cls(Position.start(width, height, connect))
        for col in Position.from_moves(moves, width, height, connect).path:
            game.play(col)
        return game

    @property
    def position(self) -> Position:
        return self._history[-1]

    @property
    def moves(self) -> tuple[int, ...]:
        """0-based columns played since the start, in order."""
        return self.position.path[len(self._history[0].path) :]

    def play(self, col: int) -> Position:
        """Drop a stone for the side to move; clears the redo list."""
        self._history.append(self.position.play(col))
        self._undone.clear()
        return self.position

    def can_undo(self) -> bool:
        return len(self._history) > 1

    def can_redo(self) -> bool:
        return bool(self._undone)

    def undo(self) -> int:
        """Take back the last move; returns its column."""
        if not self.can_undo():
            raise IndexError("nothing to undo")
        col = self.position.path[-1]
        self._history.pop()
        self._undone.append(col)
        return col

    def redo(self) -> int:
        """Play the last undone move again; returns its column."""
        if not self.can_redo():
            raise IndexError("nothing to redo")
        col = self._undone.pop()
        self._history.append(self.position.play(col))
        return col

    def result(self) -> Result | None:
        """None while the game goes on."""
        pos = self.position
        winner = pos.winner()
        if winner is not None:
            return Result(winner, pos.winning_cells())
        if pos.is_draw():
            return Result(None)
        return None
