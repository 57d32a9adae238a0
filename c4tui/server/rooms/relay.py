"""Relays: this server's clients playing or watching in rooms other servers hold.

Several servers share one community (issue 36); a room is played by the server holding
its lease. A player connected here who joins, watches or is sent to (`summon`) a room
another server holds is relayed to it over the bus (server/cluster/bus.py): this server
opens a relay, the holder makes a stand-in client for it (relay_standins.py) that the
room treats as any other, the player's requests about the room go to the holder
("relay.do"), and everything the room sends the stand-in comes back ("relay.message")
to the player's real connection here. Why the bus and not a connection routed to the
holder: the client process is on this server's machine, talking to this server's Unix
socket; the servers already share the database, which carries the bus, and need no
port, address or credentials of each other's.

What goes through a relay: the room's own requests (ROOM_KINDS: a move, a resign, an
offer, chat...); everything else (the lobby, seeks, challenges, profiles, tournaments)
is this server's, as for any client of its. Creating, joining or watching another room,
or leaving, ends the relay ("relay.close": the holder does the leaving, seats held as
for a local player).

When the holder dies it stops beating (bus_servers.py): the relays to it wait, their
players told the game is moving as soon as it misses its heartbeats (half a lease) and
shown its clocks stopped where they stand then (the server that takes the room runs a
relayed player's own time on from there); once its leases
run out a live server takes its rooms and says so ("relay.taken"): a relayed player
whose room this server took is in it here, in its seat, with nothing played lost (the
room is loaded as last kept, and a room is kept before anyone is shown a change); one
whose room another server took is relayed there. A relay whose room comes back nowhere
within two leases goes back to the lobby.
"""

from __future__ import annotations

import itertools
import logging
import re
from dataclasses import dataclass, replace
from typing import Any

from c4tui.server.cluster.bus_rooms import RoomsElsewhere
from c4tui.server.rooms.audience import Client
from c4tui.server.rooms.hooks import Elsewhere, HostListener
from c4tui.server.rooms.host import RoomHost
from c4tui.server.store.store import StoreError
from c4tui.server.wire.kinds import parse_service_line
from c4tui.server.wire.protocol import Message, Notice, ProtocolError, Refused, RoomShown, encode

log = logging.getLogger("c4tui.server")
# A line as protocol.encode writes it: its kind first, a room's view its number next.
LINE_KIND = re.compile(rb'\{"kind":"(?P<kind>\w+)"(?:,"room":(?P<room>\d+))?')
# The requests about the room a relayed client is in: done by the room's server.
ROOM_KINDS = frozenset(
    {"drop", "hurry", "resign", "offer_draw", "take_back", "answer", "claim", "rematch", "say"}
)
MOVING = (
    "The server of this room stopped answering: the game is moving to another server"
    " (a few seconds), the clocks stopped meanwhile."
)
ORPHAN_LEASES = 2.0  # leases' lengths a relay waits for its room to come back somewhere


@dataclass
class Relay:
    """One client of this server's, in room `number` that `server` holds."""

    id: int
    client: Client
    server: str
    number: int
    opened: float  # Unix seconds
    orphaned: float | None = None  # Unix seconds: when its server was found gone
    answered: bool = False  # its server has answered it (a view, a refusal, or back)
    shown_line: bytes = b""  # the room as its server last showed it here, as it came
    shown_at: float = 0.0  # Unix seconds: when that view came

    @property
    def shown(self) -> RoomShown | None:
        """That view read (only when it is wanted: views are forwarded unread)."""
        if not self.shown_line:
            return None
        try:
            shown = parse_service_line(self.shown_line)
        except ProtocolError:
            return None
        return shown if isinstance(shown, RoomShown) else None


class Relays(Elsewhere, HostListener):
    """This server's relays (see the module docstring)."""

    def __init__(self, host: RoomHost) -> None:
        self.host = host
        self._ids = itertools.count(1)
        self.by_id: dict[int, Relay] = {}
        self.of: dict[Client, Relay] = {}
        # room -> (side, seconds left, when): a clock shown stopped to its own player
        self._stopped: dict[int, tuple[int, float, float]] = {}
        host.bus.on("relay.message", self._message)
        host.bus.on("relay.stopped", self._heard_stopped)
        host.bus.on("relay.back", self._back)
        host.bus.on("relay.taken", self._taken_there)
        host.bus.on("host.started", self._started_there)
        host.listeners.append(self)

    def _rooms(self) -> RoomsElsewhere:
        return RoomsElsewhere(self.host.store, self.host.server, self.host.wall)

    def _none_for(self, client: Client) -> bool:
        """No other server's room for this client: it is a stand-in (relayed by its own
        server only), or this server is alone (SQLite, or the only one beating: a room
        another holds then is a dead server's, moving), so the store is not asked."""
        return client.relayed or self.host.leasing.servers() == [self.host.server]

    # ---- what the host and the requests ask -------------------------------------

    def open(self, client: Client, number: int, line: Message | None = None) -> bool:
        if self._none_for(client):
            return False
        try:
            server = self._rooms().holder(number)
        except StoreError as error:
            log.warning("room %d: its server could not be looked up: %s", number, error)
            return False
        if server is None:
            return False
        self._open(client, server, number, _op(line, number))
        return True

    def open_by_code(self, client: Client, code: str, line: Message) -> bool:
        if self._none_for(client):
            return False
        try:
            found = self._rooms().by_code(code)
        except StoreError as error:
            log.warning("a code could not be looked up: %s", error)
            return False
        if found is None:
            return False
        number, server = found
        self._open(client, server, number, _op(line, number))
        return True

    def arrive(self, client: Client) -> bool:
        if self._none_for(client):
            return False
        try:
            found = self._rooms().seated(client.key)
        except StoreError as error:
            log.warning(
                "client %s: its seats elsewhere could not be looked up: %s", client.who, error
            )
            return False
        if found is None:
            return False
        number, server = found
        self._open(client, server, number, {"enter": number, "arriving": True})
        return True

    def forward(self, client: Client, message: Message) -> bool:
        relay = self.of.get(client)
        if relay is None or message.kind not in ROOM_KINDS:
            return False
        if relay.orphaned is not None:
            reason = "This room is moving to another server: try again in a moment."
            client.send(Refused(of=message.kind, reason=reason))
            return True
        self._send(relay, "relay.do", {"op": {"line": encode(message).decode()}})
        return True

    def leave(self, client: Client) -> None:
        relay = self._drop(client)
        if relay is not None and relay.orphaned is None:
            self._send(relay, "relay.close", {})

    def depart(self, client: Client) -> None:
        relay = self._drop(client)
        if relay is not None and relay.orphaned is None:
            self._send(relay, "relay.gone", {})

    def taken(self, numbers: list[int]) -> None:
        if not numbers:
            return
        for relay in [r for r in self.by_id.values() if r.number in numbers]:
            self._drop(relay.client)
            room = self.host.rooms[relay.number]
            log.info("client %s: room %d is here now", relay.client.who, relay.number)
            self.host.enter(relay.client, room, room.seat_of(relay.client.key))
        self.host.bus.broadcast("relay.taken", {"numbers": numbers})

    # ---- the host's listener ----------------------------------------------------

    def server_silent(self, server: str) -> None:
        for relay in self.by_id.values():
            if relay.server == server and relay.orphaned is None:
                self._moving(relay)

    def server_answers(self, server: str) -> None:
        """It was slow, not dead: its relays go on, the room shown again as it is there."""
        for relay in self.by_id.values():
            if relay.server == server and relay.orphaned is not None:
                relay.orphaned = None
                self._stopped.pop(relay.number, None)
                self._send(relay, "relay.do", {"op": {"enter": relay.number}})

    def server_gone(self, server: str) -> None:
        for relay in self.by_id.values():
            if relay.server == server and relay.orphaned is None:
                self._moving(relay)

    def _moving(self, relay: Relay) -> None:
        """Its room's server is silent: the player is told the game is moving, and shown
        the clocks stopped where they stand now. A player whose own time was running
        says where it stopped to every server (`stopped_at`): the one that takes the
        room runs it on from there, not from its last charge (Leasing.bring_back)."""
        now = self.host.wall()
        relay.orphaned = now
        relay.client.send(Notice(MOVING))
        shown = relay.shown
        if shown is None or shown.clock is None or shown.clock.running is None:
            return
        clock, side = shown.clock, shown.clock.running
        left = list(clock.left)
        left[side] = max(0.0, left[side] - max(0.0, now - relay.shown_at))
        relay.client.send(replace(shown, clock=replace(clock, left=tuple(left), running=None)))
        if shown.seat == side:
            body = {"room": relay.number, "side": side, "left": left[side]}
            self._heard_stopped(body, self.host.server)
            self.host.bus.broadcast("relay.stopped", body)

    def _heard_stopped(self, body: dict[str, Any], sender: str) -> None:
        self._stopped[int(body["room"])] = (
            int(body["side"]),
            float(body["left"]),
            self.host.wall(),
        )

    def stopped_at(self, number: int) -> tuple[int, float] | None:
        """Where the running side's clock of room `number` was shown stopped to its
        player while the room moved (the side, its seconds left), if it was lately."""
        found = self._stopped.pop(number, None)
        lately = self.host.wall() - ORPHAN_LEASES * self.host.limits.lease_seconds
        return None if found is None or found[2] < lately else found[:2]

    def tick(self) -> None:
        """Relays left waiting go back to the lobby: one whose room came back nowhere
        (ORPHAN_LEASES), and one its live server never answered within a lease (the
        bus lost the word: its connection to the database was cut). Clocks shown
        stopped that no server took a room with go too (`stopped_at`)."""
        now, lease = self.host.wall(), self.host.limits.lease_seconds
        for number, (_, _, when) in list(self._stopped.items()):
            if when < now - ORPHAN_LEASES * lease:
                del self._stopped[number]
        for relay in list(self.by_id.values()):
            if relay.orphaned is not None and relay.orphaned < now - ORPHAN_LEASES * lease:
                self._drop(relay.client)
                self._to_lobby(relay, "The room did not come back on any server.")
            elif relay.orphaned is None and not relay.answered and relay.opened < now - lease:
                self.leave(relay.client)  # its stand-in, if the word came after all
                self._to_lobby(relay, "The room's server did not answer: try again.")

    # ---- what the bus brings ----------------------------------------------------

    def _message(self, body: dict[str, Any], sender: str) -> None:
        relay = self.by_id.get(int(body["id"]))
        if relay is None or relay.server != sender:
            return  # a relay that ended meanwhile
        relay.answered = True
        relay.orphaned = None  # it speaks: alive after all (it started after the last look)
        # Forwarded as it came, not read and written again: the other server wrote it
        # (one line, made by protocol.encode), and the client reads every line it gets.
        line = body.get("line")
        if not isinstance(line, bytes):
            line = b""
        kind = LINE_KIND.match(line)
        if kind is None or b"\n" in line[:-1] or not line.endswith(b"\n"):
            log.warning("relay %d: a line from %s is not one message", relay.id, sender)
            return
        # A view says which room: the holder may move it (a rematch elsewhere, summons).
        if kind["kind"] == b"room" and kind["room"]:
            relay.number = relay.client.room = int(kind["room"])
            relay.shown_line, relay.shown_at = line, self.host.wall()
        relay.client.send_line(line)

    def _back(self, body: dict[str, Any], sender: str) -> None:
        relay = self.by_id.get(int(body["id"]))
        if relay is not None and relay.server == sender:
            self._drop(relay.client)
            self._to_lobby(relay, None)

    def _taken_there(self, body: dict[str, Any], sender: str) -> None:
        """Another server took these rooms: the relays to them go there, and players of
        theirs who came here while no server held them (in the lobby) sit down, as their
        spectators watch on (server/rooms/watching.py)."""
        numbers = [int(n) for n in body["numbers"]]
        for relay in [r for r in self.by_id.values() if r.number in numbers and r.server != sender]:
            log.info("client %s: room %d is on %s now", relay.client.who, relay.number, sender)
            self._drop(relay.client)
            self._open(relay.client, sender, relay.number, {"enter": relay.number})
        waiting = [c for c in self.host.clients.in_lobby() if not c.relayed]
        if not waiting:
            return
        try:
            seats = self._rooms().seats_in(numbers)
        except StoreError as error:
            log.warning("the seats of rooms taken over could not be looked up: %s", error)
            return
        watchers = self.host.watching.of_rooms(numbers)
        for client in waiting:
            number = seats.get(client.key)
            if number is not None and client.room is None:
                self._open(client, sender, number, {"enter": number, "arriving": True})
            elif client.key in watchers and client.room is None:
                self._open(client, sender, watchers[client.key], {"enter": watchers[client.key]})

    def _started_there(self, body: dict[str, Any], sender: str) -> None:
        """A server started again (killed, and back before its leases ran out): it has
        none of its stand-ins, so the relays to it open again (into the seats it holds)."""
        for relay in [r for r in self.by_id.values() if r.server == sender]:
            self._drop(relay.client)
            self._open(relay.client, sender, relay.number, {"enter": relay.number})

    # ---- the relays themselves --------------------------------------------------

    def _open(self, client: Client, server: str, number: int, op: dict[str, Any]) -> None:
        relay = self.of.get(client)
        if relay is not None and relay.server == server and relay.orphaned is None:
            relay.number = number
            self._send(relay, "relay.do", {"op": op})  # the same server: the same stand-in
            return
        self.host.leave(client)  # out of the room it is in (here, or relayed elsewhere)
        relay = Relay(next(self._ids), client, server, number, self.host.wall())
        if server not in self.host.leasing.servers():  # silent already: its rooms are moving
            relay.orphaned = self.host.wall()
        self.by_id[relay.id] = relay
        self.of[client] = relay
        client.room = number  # in a room: this server sends it no lobby meanwhile
        log.info("client %s: relayed to room %d on %s", client.who, number, server)
        who = {"key": client.key, "name": client.name, "address": client.address}
        self._send(relay, "relay.open", {**who, "op": op})

    def _drop(self, client: Client) -> Relay | None:
        relay = self.of.pop(client, None)
        if relay is not None:
            del self.by_id[relay.id]
        return relay

    def _send(self, relay: Relay, kind: str, body: dict[str, Any]) -> None:
        self.host.bus.send(relay.server, kind, {"id": relay.id, **body})

    def _to_lobby(self, relay: Relay, why: str | None) -> None:
        client = relay.client
        if client.room != relay.number or client not in self.host.clients:
            return  # it went elsewhere meanwhile
        client.room = None
        if why is not None:
            client.send(Notice(why))
        client.send(self.host.lobby.for_client(client))
        self.host.lobby.changed()


def _op(line: Message | None, number: int) -> dict[str, Any]:
    """What the holder does first: the request, or going into the room."""
    return {"enter": number} if line is None else {"line": encode(line).decode()}
