"""The lobby's list of rooms in words: each seat, each room's state, the list's columns,
and the time controls a new room may have (the lobby screen, lobby.py, shows them)."""

from __future__ import annotations

from c4tui.match.room_view import RoomSummary
from c4tui.match.sides import engine_title


def player_words(player: tuple[str, str | None] | None) -> str:
    """A seat as the room list shows it: a name, an engine's title, or an open seat."""
    if player is None:
        return "(open)"
    name, ai = player
    return engine_title(ai) if ai is not None else name


# Fixed widths that fit the list beside the Play panel at 80 columns (a longer name is
# cut; the room itself shows it whole).
COLUMNS = (("#", 3), ("●", 8), ("○", 8), ("State", 10), ("Watch", 5))


# The time controls a room for two may have ("" none), in the order `m` goes through them.
CLOCKS = (
    ("no clock", ""),
    ("1+0 bullet", "1+0"),
    ("3+2 blitz", "3+2"),
    ("5+3 blitz", "5+3"),
    ("10+5 rapid", "10+5"),
    ("1 day a move", "1d"),
    ("3 days a move", "3d"),
)


def new_room_words(clock: str) -> str:
    """New room's button, saying its time control: "New room, 3+2 blitz (r)"."""
    return f"New room, {dict((v, w) for w, v in CLOCKS)[clock]} (r)"


def room_state(room: RoomSummary, your_move: bool = False) -> str:
    """A room's state in a word or two: a public room waiting for a player says "join",
    one where it is this player's move "your move", a finished one how it ended."""
    if room.over:
        return room.ended or "over"
    if your_move:
        return "your move"
    if room.open:
        return "join" if room.code else "private"
    # No move count: the lobby changes with a room's seats and state, not its moves
    # (a move would otherwise reach every lobby on every server).
    return "playing"
