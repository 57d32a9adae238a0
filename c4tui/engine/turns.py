"""The rules of taking turns, the same wherever moves are taken: the local match
(c4tui/match) and a room of `c4tui serve` (c4tui/server/rooms) both ask these.

- Whether a column takes a disc (`column_refusal`), in the words a player reads.
  An engine's answer is checked the same way before it is played.
- Which search counts (`SearchIds`): every search gets a new id, and so does every
  cancel, so whatever an older search still sends carries an old id and is dropped.
"""

from __future__ import annotations

from c4tui.engine.board.position import Position


def column_refusal(position: Position, column: int) -> str | None:
    """Why a disc cannot be dropped in `column` (0-based) of `position`; None when it can.
    Whose turn it is and whether the game goes on are the caller's to say first."""
    if not 0 <= column < position.width:
        return f"There is no column {column + 1}: the board has {position.width}."
    if not position.can_play(column):
        return f"Column {column + 1} is full."
    return None


class SearchIds:
    """The id of the search that counts, and whether it still runs."""

    def __init__(self) -> None:
        self.last = 0  # the last id handed out (a cancel uses one up too)
        self.running = False

    def start(self) -> int:
        """A new search: its id; anything an earlier one sends is stale from now on."""
        self.last += 1
        self.running = True
        return self.last

    def cancel(self) -> None:
        """Whatever the running search still sends is stale from now on."""
        self.last += 1
        self.running = False

    def end(self) -> None:
        """The search is over (answered or failed); its id stays the last."""
        self.running = False

    def is_current(self, search_id: int) -> bool:
        """Whether a report with this id is of the search running now."""
        return search_id == self.last and self.running
