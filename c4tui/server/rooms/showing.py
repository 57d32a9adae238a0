"""What everyone in a room sees, made once per kind of audience.

A room's view differs only by the seat it is seen from: each seat's players get theirs,
and every spectator gets the same one. So a change becomes at most three messages, each
made once (as the wire message itself: the server's own output is not checked again),
and each encoded once (protocol.encode keeps the line it made last): the same bytes go
to every member of that audience, however many watch.
"""

from __future__ import annotations

from c4tui.server.rooms.audience import Client
from c4tui.server.rooms.face import Host
from c4tui.server.rooms.room import Room
from c4tui.server.rooms.views import room_shown
from c4tui.server.wire.protocol import YourMove


def show(host: Host, room: Room) -> None:
    """The room as it is now, to everyone in it; and looked at next (seat_watch.py):
    every change is shown, so a room that changed is due a look."""
    host.looks.at(room.number)
    now = host.now()
    here = host.members(room)
    online = {c.key for c in here}
    audiences: dict[int | None, list[Client]] = {}
    for client in here:
        audiences.setdefault(room.seat_of(client.key), []).append(client)
    watchers = tuple(sorted({c.name for c in audiences.get(None, ())}))
    tournament = host.in_tournament(room.number)
    for seat, clients in audiences.items():
        key = None if seat is None else clients[0].key
        shown = room_shown(room, key, now, online, watchers, tournament)
        for client in clients:
            client.send(shown)


def tell_turn(host: Host, room: Room) -> None:
    """A move was made: tell the player now to move on their connections that are not
    in this room (in the lobby, in another game), with the bell if they want it."""
    if not room.on:
        return
    seat = room.position.to_move
    key = room.seats[seat].key
    if key is None:
        return
    elsewhere = [c for c in host.clients.of(key) if c.room != room.number]
    if elsewhere:
        told = YourMove(room.number, room.seats[1 - seat].title(), host.lobby.bell(key))
        for client in elsewhere:
            client.send(told)
