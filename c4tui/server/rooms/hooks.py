"""The one way the rest of the server follows the rooms: listeners, told of each event.

A part of the server that must know when a room changes, a client comes or goes, the
clock ticks or another server stops (the desks, the relays, the lobby of other servers,
the bot feeds) subscribes a `HostListener` to the host and overrides what it needs. The
events, in the order a change goes through the host:

- `changing(room)`: a room changed, before it is kept and shown (a tournament ends its
  game's board here, so what is kept already says so);
- `changed(room)`: it was kept and shown;
- `arrived(client)`, `departed(client)`: a client logged in, or its connection ended;
- `tick()`: once a second; `server_silent(server)`: another server missed its
  heartbeats, `server_answers(server)`: it beats again, `server_gone(server)`: it
  stopped beating;
- `listing(...)`, `your_move(key)`: the lobby is being made (other servers' rooms).

`Elsewhere` is not an event: it is the way into rooms other servers hold (relay.py's).
"""

from __future__ import annotations

from c4tui.server.rooms.audience import Client
from c4tui.server.rooms.room import Room
from c4tui.server.wire.lobby_messages import RoomListed
from c4tui.server.wire.protocol import Message


class Refused(Exception):
    """A request that cannot be done; the reason goes back to the client."""


class HostListener:
    """A part of the service that follows the host (see the module docstring). Each
    event does nothing by default."""

    def started(self) -> None:
        """The rooms are back and the store is open."""

    def arrived(self, client: Client) -> None: ...

    def departed(self, client: Client) -> None: ...

    def changing(self, room: Room) -> None:
        """The room changed; it is kept and shown after every listener has seen it."""

    def changed(self, room: Room) -> None: ...

    def tick(self) -> None:
        """Once a TICK."""

    def server_silent(self, server: str) -> None:
        """Another server missed its heartbeats (half a lease since its last): likely
        dead, its leases not yet run out."""

    def server_answers(self, server: str) -> None:
        """A server that was silent beats again (it was slow, not dead)."""

    def server_gone(self, server: str) -> None:
        """Another server of the community stopped beating (died, or stopped cleanly)."""

    def listing(self, people: dict[str, str], rooms: dict[int, RoomListed]) -> None:
        """The lobby is being made again: add the people (identity -> name) and the rooms'
        rows (by number) it lists besides this server's own (other_servers.py adds the
        other servers')."""

    def your_move(self, key: str) -> list[tuple[float, int]]:
        """Rooms not on this server where it is this player's move: (seconds left, number)."""
        return []


class Elsewhere:
    """The rooms other servers hold, as this server's own clients reach them (relay.py
    relays them over the bus); alone, there are none, and each says so (False)."""

    def open(self, client: Client, number: int, line: Message | None = None) -> bool:
        """Relay `client` into room `number` if another server holds it: to do `line`
        there (a join or a watch), or to go in (to its seat, if any). Whether it is."""
        return False

    def open_by_code(self, client: Client, code: str, line: Message) -> bool:
        """`open` the room another server holds with this room or seat code."""
        return False

    def arrive(self, client: Client) -> bool:
        """A client that logged in here goes to its seat in another server's room."""
        return False

    def forward(self, client: Client, message: Message) -> bool:
        """A relayed client's request about its room, sent to the room's server."""
        return False

    def leave(self, client: Client) -> None:
        """The client leaves the other server's room it is relayed to (if it is)."""

    def depart(self, client: Client) -> None:
        """The client's connection ended."""

    def taken(self, numbers: list[int]) -> None:
        """This server took these rooms from another: its clients relayed to them are in
        them here now."""

    def stopped_at(self, number: int) -> tuple[int, float] | None:
        """Where the running side's clock of room `number` was shown stopped to its own
        player, relayed, while the room moved: (the side, its seconds left), or None."""
        return None
