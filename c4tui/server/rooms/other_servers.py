"""The other servers of one database in this server's lobby: who is online on them and
the rooms they play (several servers on PostgreSQL, issue 36).

Each server keeps its own people in the store (server/cluster/presence.py: a row per
identity connected to it) and its rooms (rooms, seats, leases). A server's lobby lists
its own clients and rooms, and with them those of the other live servers, read from the
store: a person connected to two servers is one entry, a room is listed by the server
that holds its lease. When a server's lobby changes it says so on the bus
("lobby.changed", lobby.py's `_tell_the_others`, gathered as its own lobby updates are),
with the rows of its rooms that changed: the others put those in their lobbies as they
are; when its people changed (or anything may have), the others read the store again at
their next lobby update. What the desks ask of the other servers (who is online, their
rooms) is read again when they ask after any such word. The store is read
again every REFRESH_EVERY seconds besides (who is online; their rooms every ROOMS_EVERY),
and when a server stops beating: a server that died tells nobody, and its people leave
every lobby once its heartbeat is over. Those timed reads run off the event loop (the
store's chores connection, RoomHost.off_loop) and are applied on it after; a read asked
for by a desk or the lobby after a word on the bus is still made on the loop.

On SQLite (one server) none of this runs: the lobby is the server's own, as before.
"""

from __future__ import annotations

import asyncio
import logging
from math import inf
from typing import Any

from c4tui.server.cluster.bus_servers import ServerRecords
from c4tui.server.cluster.presence import PresenceRecords
from c4tui.server.cluster.room_leases import RoomLeases
from c4tui.server.rooms.audience import Client
from c4tui.server.rooms.hooks import HostListener
from c4tui.server.rooms.host import RoomHost
from c4tui.server.rooms.keeping import RoomKeeper
from c4tui.server.rooms.room import Room
from c4tui.server.rooms.views import room_listed
from c4tui.server.store.room_versions import room_versions
from c4tui.server.store.store import Store, StoreError
from c4tui.server.wire.codec import ShapeError, from_wire
from c4tui.server.wire.lobby_messages import RoomListed

log = logging.getLogger("c4tui.server")
REFRESH_EVERY = 5  # ticks between reads of who is online, should a "lobby.changed" be lost
# Ticks between reads of the other servers' rooms besides: their rows come on the bus, and
# a read loads every room changed since (with hundreds in play, all of them: seconds of
# statements on the event loop, which had two loaded servers miss their heartbeats).
ROOMS_EVERY = 60
# The other servers' rooms as read (`_read`): their servers, the version of each, those
# changed since the versions given, and those loaded.
RoomsRead = tuple[dict[int, str], dict[int, Any], set[int], list[tuple[Room, Any]]]


class OtherServers(HostListener):
    """This server's people in the store, and the other servers' people and rooms in its
    lobby (see the module docstring)."""

    def __init__(self, host: RoomHost) -> None:
        self.host = host
        self.shared = False  # several servers may share the store (PostgreSQL)
        self.people: dict[str, str] = {}  # identity -> name, online on another server
        self.rooms: dict[int, Room] = {}  # the rooms other servers play, as last kept
        self._versions: dict[int, Any] = {}  # and the version of each (room_versions.py)
        self._holders: dict[int, str] = {}  # and the server that holds each
        self._seated: dict[str, list[int]] = {}  # identity -> those rooms with its seat
        self._watchers: dict[str, dict[int, int]] = {}  # as each server last said
        self._stale = True
        self._ticks = 0
        self.reading: asyncio.Task[None] | None = None  # a timed read off the loop
        self._reads = 0  # reads applied: a timed read that finds one applied since is void

    def _presence(self) -> PresenceRecords:
        return PresenceRecords(self.host.store, self.host.server)

    # ---- this server's people ---------------------------------------------------------

    def started(self) -> None:
        self.shared = self.host.store.dialect == "postgresql"
        if not self.shared:
            return
        self.host.bus.on("lobby.changed", self._heard)
        try:
            self._presence().clear()  # those connected before a restart are not here now
        except StoreError as error:
            log.warning("this server's people were not cleared: %s", error)

    def arrived(self, client: Client) -> None:
        if self.shared:
            try:
                self._presence().arrive(client.key, client.name, self.host.wall())
            except StoreError as error:
                log.warning("client %s not shown to the other servers: %s", client.who, error)

    def departed(self, client: Client) -> None:
        if self.shared and not bool(self.host.clients.of(client.key)):
            try:
                self._presence().depart(client.key)
            except StoreError as error:
                log.warning("client %s still shown to the other servers: %s", client.who, error)

    # ---- the other servers' ---------------------------------------------------------

    def _heard(self, body: dict[str, Any], sender: str) -> None:
        """Another server's lobby changed (the watchers of its rooms come with the word):
        the rows of its rooms that changed, when it sends them, go into the lobby as they
        are; else (its people changed, or anything may have) the store is read again at
        the next lobby update. Either way what the desks ask of the other servers (who
        is online, their rooms) is read again when they ask."""
        watchers = body.get("watchers", {})
        self._watchers[sender] = {int(n): int(count) for n, count in watchers.items()}
        self._stale = True
        rows, gone = body.get("rows"), body.get("gone")
        if isinstance(rows, list) and isinstance(gone, list):
            try:
                listed = [from_wire(RoomListed, row, "row") for row in rows]
                numbers = [int(number) for number in gone]
            except (ShapeError, TypeError, ValueError) as error:
                log.warning("a lobby change from %s does not read: %s", sender, error)
            else:
                self.host.lobby.rows_elsewhere({row.room: row for row in listed}, numbers)
                return
        self.host.lobby.changed(here=False)

    def server_gone(self, server: str) -> None:
        self._heard({}, server)

    def tick(self) -> None:
        self._ticks += 1
        if not self.shared or self._ticks % REFRESH_EVERY:
            return
        if self.reading is None or self.reading.done():  # who is online; the rooms' rows
            rooms_too = not self._ticks % ROOMS_EVERY  # come on the bus, read seldom
            self.reading = asyncio.get_running_loop().create_task(self._read_off_loop(rooms_too))

    async def _read_off_loop(self, rooms_too: bool) -> None:
        """The timed read (`tick`), made off the loop and applied on it; the lobby is
        made again if it changed what it lists."""
        reads, versions = self._reads, dict(self._versions)
        try:
            people, rooms = await self.host.off_loop(
                lambda store: self._read(store, versions if rooms_too else None)
            )
        except StoreError as error:
            log.warning("the other servers' lobby could not be read: %s", error)
            return
        if self.host.closing or reads != self._reads:
            return  # a read made since is newer
        before = (self.people, self._listed())
        self._apply(people, rooms)
        if (self.people, self._listed()) != before:
            self.host.lobby.changed(here=False)

    def refresh(self) -> None:
        """Read the other live servers' people and rooms from the store, on the loop (on
        a failure, what was read last stays)."""
        try:
            people, rooms = self._read(self.host.store, self._versions)
        except StoreError as error:
            log.warning("the other servers' lobby could not be read: %s", error)
            return
        self._apply(people, rooms)

    def _read(
        self, store: Store, versions: dict[int, Any] | None
    ) -> tuple[dict[str, str], RoomsRead | None]:
        """Who is online on the other live servers, and (unless `versions` is None) the
        rooms they hold, those whose version is not in `versions` loaded: statements
        and new objects only, so that it runs off the loop too."""
        host = self.host
        live = ServerRecords(store, host.server, host.limits.lease_seconds, host.wall).live()
        others = set(live) - {host.server}
        people = PresenceRecords(store, host.server).online(others)
        if versions is None:
            return people, None
        leases = RoomLeases(store, host.server, host.limits.lease_seconds, host.wall)
        holders = {n: s for n, s in leases.elsewhere().items() if s in others}
        kept = room_versions(store) if holders else {}
        now = {n: kept.get(n) for n in holders}
        changed = {n for n in holders if now[n] != versions.get(n)}
        loaded = RoomKeeper(store).load(changed) if changed else []
        return people, (holders, now, changed, loaded)

    def _apply(self, people: dict[str, str], read: RoomsRead | None) -> None:
        self._reads += 1
        self.people = people
        if read is None:
            return
        holders, versions, changed, loaded = read
        rooms = {n: room for n, room in self.rooms.items() if n in holders and n not in changed}
        rooms.update((room.number, room) for room, _ in loaded)
        self.rooms, self._versions = rooms, versions
        self._seated = {}
        for number, room in rooms.items():
            for seat in room.seats:
                if seat.key is not None:
                    self._seated.setdefault(seat.key, []).append(number)
        self._holders = holders
        self._stale = False

    def _listed(self) -> dict[int, RoomListed]:
        """The other servers' rooms as the lobby lists them, by number."""
        listed = {}
        for number, room in self.rooms.items():
            holder = self._holders.get(number, "")
            listed[number] = room_listed(room, self._watchers.get(holder, {}).get(number, 0))
        return listed

    def listing(self, people: dict[str, str], rooms: dict[int, RoomListed]) -> None:
        if not self.shared:
            return
        people.update(self.online())
        for number, row in self._listed().items():
            rooms.setdefault(number, row)

    def your_move(self, key: str) -> list[tuple[float, int]]:
        """The other servers' rooms where it is this player's move: the seconds their
        clock had left when last kept (the least first in the lobby), and the number
        (from the index of their seats, not a walk over their rooms)."""
        if self.shared and self._stale:
            self.refresh()
        mine = []
        for number in self._seated.get(key, ()):
            room = self.rooms[number]
            seat = room.seat_of(key)
            if number in self.host.rooms or seat is None:
                continue
            if room.on and room.position.to_move == seat:
                left = inf if room.clock is None else room.clock.left[seat]
                mine.append((left, number))
        return mine

    # ---- asked by matchmaking and people --------------------------------------------

    def online(self) -> dict[str, str]:
        """Who is online on the other servers (identity -> name), as last read."""
        if self.shared and self._stale:
            self.refresh()
        return dict(self.people)

    def elsewhere(self) -> dict[int, Room]:
        """The rooms the other servers play (not this one's), as last read."""
        if self.shared and self._stale:
            self.refresh()
        return {n: room for n, room in self.rooms.items() if n not in self.host.rooms}
