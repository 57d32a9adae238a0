"""Game: the moves of one game, with undo and redo, its result, and a text save format.

A saved game is a few `key: value` lines, readable and easy to edit by hand:

    c4tui game
    size: 7x6
    connect: 4
    moves: 4453

Blank lines and lines starting with `#` are ignored; `size` and `connect` default to
7x6 and 4. Loading checks every move and reports the first bad one.
"""

from __future__ import annotations

from dataclasses import dataclass

from c4tui.engine.notation import NotationError
from c4tui.engine.position import Position

HEADER = "c4tui game"


class GameFormatError(ValueError):
    """A saved game that cannot be read; the message names the line and the problem."""


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

    def to_text(self) -> str:
        g = self.position.geometry
        return (
            f"{HEADER}\nsize: {g.width}x{g.height}\nconnect: {g.connect}\n"
            f"moves: {self.position.to_moves()}\n"
        )

    @classmethod
    def from_text(cls, text: str) -> Game:
        fields: dict[str, tuple[int, str]] = {}
        lines = text.splitlines()
        content = [
            (n, line.strip())
            for n, line in enumerate(lines, 1)
            if line.strip() and not line.strip().startswith("#")
        ]
        if not content or content[0][1] != HEADER:
            raise GameFormatError(f"line 1: expected {HEADER!r} as the first line")
        for n, line in content[1:]:
            key, sep, value = line.partition(":")
            key = key.strip().lower()
            if not sep or key not in ("size", "connect", "moves"):
                raise GameFormatError(
                    f"line {n}: expected 'size:', 'connect:' or 'moves:', got {line!r}"
                )
            fields[key] = (n, value.strip())
        width, height, connect = 7, 6, 4
        if "size" in fields:
            n, value = fields["size"]
            try:
                width, height = (int(part) for part in value.lower().split("x"))
            except ValueError:
                raise GameFormatError(
                    f"line {n}: size should look like 7x6, got {value!r}"
                ) from None
        if "connect" in fields:
            n, value = fields["connect"]
            if not value.isdigit():
                raise GameFormatError(f"line {n}: connect should be a number, got {value!r}")
            connect = int(value)
        n, moves = fields.get("moves", (0, ""))
        try:
            return cls.from_moves(moves, width, height, connect)
        except NotationError as error:
            raise GameFormatError(f"line {n}: {error}") from None
        except ValueError as error:
            raise GameFormatError(f"line {fields.get('size', (n,))[0]}: {error}") from None
