"""Messages the app's worker and widgets post: small dataclasses tagged with an id.

Every AI search (and every hint) gets an id; a message whose id is no longer current is
stale and the app drops it, so a cancelled search can never play a move.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from c4tui.engine.players.contract import SearchInfo, SearchResult


@dataclass
class SearchProgressed(Message):
    """A live snapshot of the running search (posted at most ~10 times a second)."""

    search_id: int
    info: SearchInfo

    def can_replace(self, message: Message) -> bool:
        # A newer snapshot makes this one worthless, so a slow UI never builds a backlog.
        return isinstance(message, SearchProgressed)


@dataclass
class SearchFinished(Message):
    """The AI's move for the position of search `search_id`."""

    search_id: int
    result: SearchResult


@dataclass
class SearchFailed(Message):
    """The engine raised; the app reports it and lets the player go on."""

    search_id: int
    error: str
    forfeit: bool = False  # an outside engine failed: it loses the game (the error why)


@dataclass
class HintFinished(Message):
    """The suggested column (0-based) for the player to move, and why.

    `column` is None when the helper engine failed; `reason` then says how.
    """

    hint_id: int
    column: int | None
    reason: str


@dataclass
class ColumnClicked(Message):
    """The player clicked the board over `column` (0-based)."""

    column: int


@dataclass
class WorkFailed(Message):
    """A screen's worker raised; `error` says what. Each screen posts its own subclass,
    so that its handler hears only its own worker."""

    error: str

    @classmethod
    def of(cls, error: Exception) -> WorkFailed:
        return cls(f"{type(error).__name__}: {error}")
