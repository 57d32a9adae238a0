"""Leasing: which rooms this server plays, when several servers share one database.

Each room is played by the server holding its lease (room_leases.py); a server renews
its leases every third of --lease-seconds and beats its heart with them. A server that
stops renewing (killed, stalled) has its rooms taken by the next live server to look,
loaded as they were last kept, with every person's seat held for the room's grace; a
server that finds its lease taken (it stalled past it) lets the room go, and its own
people in it follow it there (relay.py). On SQLite every room is the one server's.

The renewals, the heartbeats and the loading of rooms taken over are statements on the
database: they run off the event loop (`Host.off_loop`, the store's chores connection,
writer.py), and what they found is applied on the loop after, so a slow or frozen
database holds no room's play while this server sees to its leases.

A server that could not reach the database judges no other server for a lease's length
after it can again (`_blind_until`): the others could not renew or beat meanwhile
either, so their leases and heartbeats look run out when they are not; judged at once,
the first server back would take the others' rooms and drop their relays.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection

from c4tui.server.cluster.bus_servers import ServerRecords
from c4tui.server.cluster.room_leases import RoomLeases
from c4tui.server.rooms.face import Host
from c4tui.server.rooms.keeping import RoomKeeper
from c4tui.server.rooms.room import Room, by_post
from c4tui.server.store.room_records import RoomRecord
from c4tui.server.store.store import Store, StoreError

log = logging.getLogger("c4tui.server")
# What `_taken` found: the rooms taken with their records, when their clocks were last
# charged, their servers' last heartbeats, and the rooms that cannot be loaded.
Taken = tuple[list[tuple[Room, RoomRecord]], dict[int, float], dict[int, float] | None, set[int]]


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
        self.task: asyncio.Task[None] | None = None  # the seeing to under way (`see_to_soon`)
        self._again = False  # asked for while one was under way: once more after it
        self._off_loop: tuple[Store, RoomLeases, ServerRecords] | None = None

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

    def bring_back(self) -> list[int]:
        """Load from the store every room kept whose lease this server takes, as it was
        last kept (at the start, on the loop: nothing plays yet); the numbers brought back."""
        here = set(self.host.rooms)
        return self._install(*_taken(self.host.store, self.leases, None, None, here))

    def _install(
        self,
        taken: list[tuple[Room, RoomRecord]],
        charged: dict[int, float],
        last_heard: dict[int, float] | None,
        unplayable: set[int],
    ) -> list[int]:
        """The rooms `_taken` found and took, played here from now; their numbers. A
        room in `last_heard` (taken from a server that died, heard from last then, in
        Unix seconds) has its running clock charged up to then from its last charge
        (`charged`), or further, to where a relayed player saw their own time stopped
        (relay.py): the time its player saw run is not given back, and none is taken
        twice."""
        now = self.host.now()
        back = []
        self._unplayable |= unplayable  # one that cannot be loaded is not tried again
        for room, record in taken:
            if room.number in self.host.rooms:
                continue  # made here meanwhile (its lease is this server's: never so)
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

    def see_to_soon(self) -> None:
        """`see_to` in a task of its own (the look's tick, another server stopped); one
        asked for while one is under way runs after it."""
        if self.task is not None and not self.task.done():
            self._again = True
            return
        self.task = asyncio.get_running_loop().create_task(self._seeing_to())

    async def _seeing_to(self) -> None:
        self._again = True
        while self._again and not self.host.closing:
            self._again = False
            try:
                await self.see_to()
            except Exception:
                log.exception("the rooms' leases could not be seen to")

    async def see_to(self) -> None:
        """Renew this server's leases, let go of the rooms another server took, and
        take the rooms whose server stopped renewing (loaded as they were last kept);
        then the heartbeat (after the renewal: a server found silent for a lease's length
        has its leases run out by then, so its rooms are taken at the same look). The
        statements run off the loop; what they found is applied on it."""
        self.due = self.host.wall() + self.host.limits.lease_seconds / 3
        if self.host.closing:
            return
        judging = self.host.wall() >= self._blind_until
        unplayable, here = set(self._unplayable), set(self.host.rooms)
        try:
            held, found = await self.host.off_loop(
                lambda store: self._renewed(store, judging, unplayable, here)
            )
        except StoreError as error:
            self._blind = True
            log.warning("the rooms' leases could not be seen to: %s", error)
        else:
            if self.host.closing:
                return
            self._seeing()
            # Only the rooms here when the leases were renewed: one made since is ours.
            for number in here & set(self.host.rooms) - held:
                self.let_go(self.host.rooms[number])
            never_made = held - set(self.host.rooms) - {room.number for room, _ in found[0]}
            if never_made:  # rooms whose making was refused after their lease was taken
                self._release_soon(never_made)
            back = self._install(*found)
            self.host.elsewhere.taken(back)  # this server's players relayed to them sit here
            for number in back:
                log.info("room %d taken over from a server that stopped", number)
                self.seat_the_waiting(self.host.rooms[number])
                self.host.show(self.host.rooms[number])
            if back:
                self.host.lobby.changed()
        await self.beat()

    def _renewed(
        self, store: Store, judging: bool, unplayable: set[int], here: set[int]
    ) -> tuple[set[int], Taken]:
        """In the chores' thread: the leases renewed, and the rooms whose server stopped
        renewing taken and loaded (none while not `judging`)."""
        leases, _ = self._on(store)
        held = leases.renew()
        free = set(leases.free()) - unplayable - here if judging else set()
        if not free:
            return held, ([], {}, None, set())
        return held, _taken(store, leases, free, leases.last_heard(), here)

    def _release_soon(self, numbers: set[int]) -> None:
        def release(store: Store) -> None:
            leases, _ = self._on(store)
            for number in numbers:
                leases.release(number)

        def released(future: asyncio.Future[None]) -> None:
            if not future.cancelled() and future.exception() is not None:
                log.warning("leases not let go: %s", future.exception())

        self.host.off_loop(release).add_done_callback(released)

    def _on(self, store: Store) -> tuple[RoomLeases, ServerRecords]:
        """The leases and heartbeats on the chores' connection `store` (made once: the
        heartbeats say when this server started)."""
        if self._off_loop is None or self._off_loop[0] is not store:
            host = self.host
            leases = RoomLeases(store, host.server, host.limits.lease_seconds, host.wall)
            records = ServerRecords(store, host.server, host.limits.lease_seconds, host.wall)
            records.started = self.records.started
            self._off_loop = (store, leases, records)
        return self._off_loop[1], self._off_loop[2]

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
        """This server's first heartbeat, on the loop (at the start), and the live servers."""
        if self.host.store.dialect == "postgresql":
            self._beaten(_beat, self.records)

    async def beat(self) -> None:
        """This server's heartbeat, off the loop, and the live servers (`_judge`)."""
        if self.host.store.dialect != "postgresql":
            return
        try:
            seen = await self.host.off_loop(lambda store: _beat(self._on(store)[1]))
        except StoreError as error:
            self._unbeaten(error)
            return
        if not self.host.closing:
            self._judge(seen)

    def _beaten(
        self, beat: Callable[[ServerRecords], dict[str, float]], records: ServerRecords
    ) -> None:
        try:
            seen = beat(records)
        except StoreError as error:
            self._unbeaten(error)
            return
        self._judge(seen)

    def _unbeaten(self, error: StoreError) -> None:
        self._blind = True
        log.warning("the servers' heartbeats could not be seen to: %s", error)

    def _judge(self, seen: dict[str, float]) -> None:
        """The live servers, by their heartbeats (`seen`). The listeners are told of a
        server that missed its heartbeats (`server_silent`: silent for half a lease, a
        look before its leases run out), of one that beats again after that
        (`server_answers`), and of those that stopped beating (`server_gone`)."""
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


def _beat(records: ServerRecords) -> dict[str, float]:
    """A heartbeat, and every server's last one."""
    records.beat()
    return records.seen()


def _taken(
    store: Store,
    leases: RoomLeases,
    numbers: set[int] | None,
    last_heard: dict[int, float] | None,
    here: Collection[int],
) -> Taken:
    """The rooms kept (only `numbers`, unless None; none of those `here`) whose lease
    this server takes now, loaded as they were last kept; when each of those in
    `last_heard` last had its clock charged; `last_heard`; and those of `numbers` that
    cannot be loaded. Only statements and new objects: it runs off the loop too."""
    keeper = RoomKeeper(store)
    charged = keeper.clocks.charged(list(last_heard)) if last_heard else {}
    loaded = keeper.load(numbers)
    unplayable = set() if numbers is None else numbers - {room.number for room, _ in loaded}
    taken = [
        (room, record)
        for room, record in loaded
        if room.number not in here and leases.take(room.number)  # else another's
    ]
    return taken, charged, last_heard, unplayable
