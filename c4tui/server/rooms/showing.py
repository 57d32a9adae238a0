"""What everyone in a room sees, made once per kind of audience.

A room's view differs only by the seat it is seen from: each seat's players get theirs,
and every spectator gets the same one. So a change becomes at most three messages, each
made and checked once, and each encoded once (protocol.encode keeps the line it made
last): the same bytes go to every member of that audience, however many watch.
"""

from __future__ import annotations

from c4tui.server.rooms.access import show_code
from c4tui.server.rooms.audience import Client
from c4tui.server.rooms.face import Host
from c4tui.server.rooms.room import Room
from c4tui.server.rooms.views import room_view
from c4tui.server.wire.codec import from_wire
from c4tui.server.wire.protocol import RoomShown, YourMove


def show(host: Host, room: Room) -> None:
    """The room as it is now, to everyone in it."""
    now = host.now()
    here = host.members(room)
    online = {c.key for c in here}
    audiences: dict[int | None, list[Client]] = {}
    for client in here:
        audiences.setdefault(room.seat_of(client.key), []).append(client)
    watchers = sorted({c.name for c in audiences.get(None, ())})
    for seat, clients in audiences.items():
        view = room_view(room, None if seat is None else clients[0].key, now, online)
        # A private room's code is for its players to pass on, not for its watchers.
        view["code"] = show_code(room.code) if seat is not None or room.public else None
        view["seat_code"] = view["seat_code"] and show_code(view["seat_code"])
        view["watchers"], view["tournament"] = watchers, host.in_tournament(room.number)
        shown = from_wire(RoomShown, view, "room")
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
