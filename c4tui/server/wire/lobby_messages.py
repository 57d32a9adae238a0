"""The room protocol's lobby messages: what a client in no room is sent (protocol.py
has the rest; rooms/lobby.py sends them, wire/room_client.py applies the diffs).

Service to client:
    lobby      Lobby {online, rooms: [RoomListed], bots, your_move: [room], bell}
               the whole lobby: on coming into it, and after a bell toggle
    lobby_diff LobbyDiff {rooms, gone, online?, bots?, your_move?, bell?}
               what changed since: rows keyed by room, the rest only when it changed

A lobby of 500 rooms is a line of about 60 KiB; a change to it is one row. The service
sends the whole lobby only to a client coming into it, then diffs: one shared diff for
everyone in the lobby (encoded once), and a client's own parts (its "your move" list,
its bell) in a diff of its own when they change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from c4tui.server.wire.codec import Items
from c4tui.server.wire.protocol import AnyText, Count, Message


@dataclass(frozen=True)
class PlayerListed:
    name: AnyText
    ai: AnyText | None


@dataclass(frozen=True)
class RoomListed:
    """A room as the lobby lists it (the code only when it is open to anyone)."""

    room: Count
    code: AnyText | None
    players: Annotated[tuple[PlayerListed | None, ...], Items(2, 2)]
    over: bool
    open: bool
    watchers: Count
    clock: AnyText | None = None  # its time control, "5+3" or "3d"
    ended: AnyText | None = None  # how it ended, "1-0 time" (community/endings.py)


@dataclass(frozen=True)
class Lobby(Message):
    KIND = "lobby"
    online: tuple[AnyText, ...]
    rooms: tuple[RoomListed, ...]
    bots: tuple[AnyText, ...] = ()  # the bots online, to be challenged
    your_move: tuple[Count, ...] = ()  # the rooms where it is this player's move
    bell: bool = True  # this player's bell toggle (YourMove rings it)

    def applied(self, diff: LobbyDiff) -> Lobby:
        """This lobby with `diff`'s changes: the rows by room number, in its order."""
        rooms = {row.room: row for row in self.rooms}
        for number in diff.gone:
            rooms.pop(number, None)
        for row in diff.rooms:
            rooms[row.room] = row
        return Lobby(
            self.online if diff.online is None else diff.online,
            tuple(sorted(rooms.values(), key=lambda row: row.room)),
            self.bots if diff.bots is None else diff.bots,
            self.your_move if diff.your_move is None else diff.your_move,
            self.bell if diff.bell is None else diff.bell,
        )


@dataclass(frozen=True)
class LobbyDiff(Message):
    """What changed in the lobby since the last `lobby` or `lobby_diff` this client got:
    rows keyed by room (a row whose room is listed already replaces it), rooms no longer
    listed, and the other parts only when they changed (None: as before). A client
    applies it to the lobby it has (`Lobby.applied`); one shared diff, encoded once, goes
    to every client in the lobby, and each client's own parts in a diff of its own."""

    KIND = "lobby_diff"
    rooms: tuple[RoomListed, ...] = ()  # added or changed
    gone: tuple[Count, ...] = ()  # no longer listed
    online: tuple[AnyText, ...] | None = None
    bots: tuple[AnyText, ...] | None = None
    your_move: tuple[Count, ...] | None = None
    bell: bool | None = None
