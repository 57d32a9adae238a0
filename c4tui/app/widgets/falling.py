"""Falling discs: which dropped discs are still on their way down, and where each is now.

Only the drawing lags: the game has the disc in its cell at once, and the board draws it
a row higher for each row-time still to go. The falls follow the positions the board is
handed; a position that does not continue the last one (undo, a new game, another board)
ends every fall, so a disc that was taken back is never drawn falling.
"""

from __future__ import annotations

from dataclasses import dataclass

from c4tui.engine.board.position import Position

# Seconds a disc takes from the top row to the bottom one: long enough to see where it
# went, short enough never to feel like waiting (one row a frame at 25-45 fps).
FULL_FALL = 0.2


@dataclass(frozen=True)
class Fall:
    """One disc on its way down `column` to `row` (0 = bottom), dropped at `start`."""

    column: int
    row: int
    player: int
    start: float  # time.monotonic() of the drop


@dataclass(frozen=True)
class Falling:
    """Where a falling disc is drawn now: `shown` is the row it has reached."""

    column: int
    row: int
    player: int
    shown: int


class Falls:
    """The discs still falling on one board."""

    def __init__(self) -> None:
        self._position: Position | None = None
        self._falls: tuple[Fall, ...] = ()

    def follow(self, position: Position, now: float, *, animate: bool) -> None:
        """The board now shows `position`. If it continues the last one, its newest disc
        falls (earlier new ones, as in a redo of two moves, are simply there)."""
        old, self._position = self._position, position
        if not animate or old is None or not continues(old, position):
            self._falls = ()
            return
        if position.path == old.path:
            return
        column = position.path[-1]
        row = position.column_height(column) - 1
        player = position.cell(column, row)
        assert player is not None  # the disc just dropped is in its column's top cell
        self._falls = (*self._falls, Fall(column, row, player, now))

    def land(self) -> bool:
        """Every disc lands at once; True when one was still falling."""
        falling, self._falls = bool(self._falls), ()
        return falling

    def now(self, now: float) -> tuple[Falling, ...]:
        """The discs still falling at time `now`, each with the row it has reached;
        those that have landed are forgotten."""
        if self._position is None:
            return ()
        top = self._position.height - 1
        row_time = FULL_FALL / max(1, top)
        shown = {fall: top - int((now - fall.start) / row_time) for fall in self._falls}
        self._falls = tuple(fall for fall in self._falls if shown[fall] > fall.row)
        return tuple(Falling(f.column, f.row, f.player, shown[f]) for f in self._falls)


def continues(old: Position, new: Position) -> bool:
    """Whether `new` is `old` with moves added (or the same), on the same board."""
    return (
        (new.width, new.height, new.connect) == (old.width, old.height, old.connect)
        and len(new.path) >= len(old.path)
        and new.path[: len(old.path)] == old.path
    )
