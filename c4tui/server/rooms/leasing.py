"""Leasing: which rooms this server plays, when several servers share one database.

Each room is played by the server holding its lease (room_leases.py); a server renews
its leases every third of --lease-seconds and beats its heart with them. A server that
stops renewing (killed, stalled) has its rooms taken by the next live server to look,
loaded as they were last kept, with every person's seat held for the room's grace; a
server that finds its lease taken (it stalled past it) lets the room go, and its own
people in it follow it there (relay.py). On SQLite every room is the one server's.

A server that could not reach the database judges no other server for a lease's length
after it can again (`_blind_until`): the others could not renew or beat meanwhile
either, so their leases and heartbeats look run out when they are not; judged at once,
the first server back would take the others' rooms and drop their relays.
"""

from __future__ import annotations

import logging

from c4tui.server.cluster.bus_servers import ServerRecords
from c4tui.server.cluster.room_leases import RoomLeases
from c4tui.server.rooms.face import Host
from c4tui.server.rooms.room import Room, by_post
from c4tui.server.store.store import StoreError

log = logging.getLogger("c4tui.server")


class Leasing:
    """One host's leases on its rooms and the servers' heartbeats (see the module docstring)."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self._records: ServerRecords | None = None
        self._servers: list[str] = [host.server]  # the live servers at the last heartbeat
        self._leases: RoomLeases | None = None
        self.due = 0.0  # when this server renews its leases next (by host.wall)
        self._unplayable: set[int] = set()  # rooms kept that this c4tui cannot load
        self._silent: set[str] = set()  # live servers that missed their heartbeats
        self._blind = False  # the database could not be reached at the last look
        self._blind_until = 0.0  # by host.wall: no other server judged before (the module)

    @property
    def leases(self) -> RoomLeases:
        """This server's leases on its rooms (room_leases.py)."""
        if self._leases is None or self._leases.store is not self.host.store:
            host = self.host
            self._leases = RoomLeases(host.store, host.server, host.limits.lease_seconds, host.wall)
        return self._leases

    @property
    def records(self) -> ServerRecords:
        """The servers' heartbeats (server/cluster/bus_servers.py)."""
        if self._records is None or self._records.store is not self.host.store:
            self._records = ServerRecords(
                self.host.store, self.host.server, self.host.limits.lease_seconds, self.host.wall
            )
        return self._records

    def servers(self) -> list[str]:
        """The live servers of the community, this one among them, by name (as of the
        last heartbeat: every third of --lease-seconds)."""
        return list(self._servers)

    def bring_back(
        self, numbers: set[int] | None, last_heard: dict[int, float] | None = None
    ) -> list[int]:
        """Load from the store the rooms kept (only `numbers`, unless None) whose lease
        this server takes, as they were last kept; the numbers brought back. A room in
        `last_heard` (taken from a server that died, heard from last then, in Unix
        seconds) has its running clock charged up to then from its last charge, or
        further, to where a relayed player saw their own time stopped (relay.py): the
        time its player saw run is not given back, and none is taken twice."""
        now = self.host.now()
        charged = self.host.keeper.clocks.charged(list(last_heard)) if last_heard else {}
        back = []
        loaded = self.host.keeper.load()
        if numbers is not None:  # one that cannot be loaded is not tried again
            self._unplayable |= numbers - {room.number for room, _ in loaded}
        for room, record in loaded:
            if numbers is not None and room.number not in numbers:
                continue
            if room.number in self.host.rooms or not self.leases.take(room.number):
                continue  # another live server plays it
            grace = None
            for index, seat in enumerate(room.seats):
                if seat.key is not None:
                    grace = self.host.hold_seat(room, index, now)
            if room.clock is not None:
                ran = _ran(room, (last_heard or {}).get(room.number), charged.get(room.number))
                if ran is not None:
                    room.clock.left[ran[0]] = max(0.0, room.clock.left[ran[0]] - ran[1])
                    stopped = self.host.elsewhere.stopped_at(room.number)
                    if stopped is not None and stopped[0] == ran[0]:  # as its player saw it
                        room.clock.left[ran[0]] = min(room.clock.left[ran[0]], stopped[1])
                # The time the server was down is not charged; nor is the time the side to
                # move takes to come back, up to the grace (`enter` runs it from then).
                room.clock.resume(now + (grace or 0.0))
            self.host.rooms[room.number] = room
            self.host.kept[room.number] = record
            self.host.looks.at(room.number)  # its held seats and its clock
            if room.clock is not None and room.number in charged:
                self.host.keep(room)  # kept as charged: a second takeover charges from here
            back.append(room.number)
            log.info("room %d back from the store (%d moves)", room.number, room.position.moves)
        for number in back:
            self.host.ai.search(self.host.rooms[number])
        return back

    def new_number(self) -> int:
        """A number for a new room, leased to this server (no other server makes the
        same one); with the store failing, the next after this server's own."""
        number = max(self.host.rooms, default=0) + 1
        try:
            number = max(number, self.leases.highest() + 1)
            while not self.leases.take(number):
                number += 1
        except StoreError as error:
            log.warning("no lease for a new room: %s", error)
        return number

    def see_to(self) -> None:
        """Renew this server's leases, let go of the rooms another server took, and
        take the rooms whose server stopped renewing (loaded as they were last kept);
        then the heartbeat (after the renewal: a server found silent for a lease's length
        has its leases run out by then, so its rooms are taken at the same look)."""
        self.due = self.host.wall() + self.host.limits.lease_seconds / 3
        if self.host.closing:
            return
        try:
            held = self.leases.renew()
            self._seeing()
            for number in list(self.host.rooms):
                if number not in held:
                    self.let_go(self.host.rooms[number])
            for number in held - set(self.host.rooms):
                self.leases.release(number)  # a room that was never made here
            judging = self.host.wall() >= self._blind_until
            free = set(self.leases.free()) - self._unplayable if judging else set()
            if free:
                back = self.bring_back(free, self.leases.last_heard())
                self.host.elsewhere.taken(back)  # this server's players relayed to them sit here
                for number in back:
                    log.info("room %d taken over from a server that stopped", number)
                    self.seat_the_waiting(self.host.rooms[number])
                    self.host.show(self.host.rooms[number])
                if back:
                    self.host.lobby.changed()
        except StoreError as error:
            self._blind = True
            log.warning("the rooms' leases could not be seen to: %s", error)
        self.heartbeats()

    def _seeing(self) -> None:
        """The database answered: after it did not, judge no other server for a lease."""
        if self._blind:
            self._blind = False
            self._blind_until = self.host.wall() + self.host.limits.lease_seconds
            log.warning(
                "the database answers again: no other server's rooms taken for %g s",
                self.host.limits.lease_seconds,
            )

    def seat_the_waiting(self, room: Room) -> None:
        """Players of a room just taken over who came to this server in the lobby, in
        the moment no server held the room (its lease ran out, not yet taken), sit back
        down, as `arrive` would have seated them a moment later."""
        if by_post(room):
            return  # correspondence games wait in the lobby's "your move" list
        watchers = self.host.watching.of_rooms([room.number])
        for client in self.host.clients.in_lobby():
            seat = room.seat_of(client.key)
            if seat is not None or client.key in watchers:  # a spectator watches on
                self.host.enter(client, room, seat)

    def started_there(self, body: dict[str, object], sender: str) -> None:
        """Another server started (or started again): live, so it is missed if it stops
        beating before this one's next heartbeat."""
        self._servers = sorted({*self._servers, sender})

    def heartbeats(self) -> None:
        """This server's heartbeat, and the live servers. The listeners are told of a
        server that missed its heartbeats (`server_silent`: silent for half a lease, a
        look before its leases run out), of one that beats again after that
        (`server_answers`), and of those that stopped beating (`server_gone`)."""
        if self.host.store.dialect != "postgresql":
            return
        try:
            self.records.beat()
            seen = self.records.seen()
        except StoreError as error:
            self._blind = True
            log.warning("the servers' heartbeats could not be seen to: %s", error)
            return
        self._seeing()
        now, lease = self.host.wall(), self.host.limits.lease_seconds
        live = {server for server, at in seen.items() if at >= now - lease}
        if now < self._blind_until:  # none judged silent or gone yet (the module)
            self._servers = sorted({*self._servers, *live, self.host.server})
            return
        silent = {s for s in live if seen[s] < now - lease / 2} - {self.host.server}
        gone = set(self._servers) - live - {self.host.server}
        self._servers = sorted(live | {self.host.server})
        newly, again = sorted(silent - self._silent), sorted(self._silent & live - silent)
        self._silent = silent
        for server in newly:
            log.warning("server %s missed its heartbeats: its rooms may be moving", server)
            self._tell("server_silent", server)
        for server in again:
            log.info("server %s beats again", server)
            self._tell("server_answers", server)
        for server in sorted(gone):
            log.warning("server %s stopped beating", server)
            self._tell("server_gone", server)

    def _tell(self, event: str, *args: object) -> None:
        """Every listener, of an event about another server (one that fails is logged)."""
        for listener in self.host.listeners:
            try:
                getattr(listener, event)(*args)
            except Exception:
                log.exception("%s could not see to %s", type(listener).__name__, event)

    def let_go(self, room: Room) -> None:
        """Another server plays this room now (this one stalled past its lease): it goes
        from here, and this server's own people in it follow it there (relay.py)."""
        log.warning("room %d: its lease is another server's now: let go", room.number)
        self.host.ai.cancel(room.number)
        self.host.kept.pop(room.number, None)
        own = [c for c in self.host.members(room) if not c.relayed]  # others: by their servers
        self.host.unmake(room, "This room is played on another server now.")
        for client in own:
            self.host.elsewhere.open(client, room.number)
        self.host.lobby.changed()


def _ran(room: Room, heard: float | None, charged: float | None) -> tuple[int, float] | None:
    """The side whose time ran on the room's dead server, and for how long: from its
    clock's last charge to the server's last heartbeat (None: no time ran, or unknown)."""
    clock = room.clock
    if clock is None or clock.running is None or heard is None or charged is None:
        return None
    return clock.running, max(0.0, heard - charged)
