"""RoomHost: every room of the service and the clients in them, kept after every change.

Requests (requests.py) are done on the event loop, one at a time, so no two ever see a
room half-changed. After every change (`changed`) a room is kept in the store
(keeping.py: one transaction, committed before anyone is told), its view goes to
everyone in it, the lobby hears of it, and when the AI seat is to move its search goes
to the pool of worker processes (ai_pool.py). A change the store refuses (a full disk)
is undone: the room goes back to what was last kept, and its players are told why; what
a player has seen is always what is kept, so a kill at any moment loses nothing shown.

Presence: a person whose last connection to a room drops keeps the seat for the room's
grace (`Room.grace`: `RoomLimits.seat_hold` without a clock, a share of the time
control's length with one, never held in correspondence; the other side sees the
countdown); the same identity connecting again sits back down. After a restart, every
person's seat is held so.

Time comes from `now` (time.monotonic unless a test hands in its own): the clocks, the
holds and the once-a-TICK look (`look`) that ends games on time and on abandonment.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import replace
from math import inf
from pathlib import Path
from typing import Any

from c4tui.community.bot_tokens import is_bot_key
from c4tui.community.clocks import CLOCK_KEEP
from c4tui.engine.players.contract import SearchInfo
from c4tui.server.cluster.bus import Bus
from c4tui.server.cluster.bus_servers import ServerRecords
from c4tui.server.cluster.opening import open_bus
from c4tui.server.cluster.room_leases import LeaseLost, RoomLeases, server_id
from c4tui.server.rooms.access import show_code
from c4tui.server.rooms.ai_pool import AiPool, PooledSearch
from c4tui.server.rooms.keeping import RoomKeeper, restore
from c4tui.server.rooms.old_state import bring_in
from c4tui.server.rooms.room import Room
from c4tui.server.rooms.watching import Watching
from c4tui.server.rooms.worker import SearchJob
from c4tui.server.store.bells import BellRecords
from c4tui.server.store.opening import open_store
from c4tui.server.store.room_records import RoomRecord
from c4tui.server.store.store import Store, StoreError, StoreFull
from c4tui.server.wire.codec import from_wire
from c4tui.server.wire.identity import RoomLimits
from c4tui.server.wire.protocol import (
    VERSION,
    Lobby,
    Message,
    Notice,
    Progress,
    RoomShown,
    Welcome,
    YourMove,
    escaped,
)
from c4tui.server.wire.protocol import Identity as WelcomedAs

log = logging.getLogger("c4tui.server")
TICK = 1.0  # seconds between looks at held seats
LOBBY_EVERY = 0.25  # seconds: lobby updates are gathered, so a busy server sends few


class Client(ABC):
    """A logged-in client, as the host sees it (service.py's Connection is the one)."""

    relayed = False  # a stand-in for a client connected to another server (relay_standins.py)

    def __init__(self, key: str, name: str, address: str) -> None:
        self.key, self.name, self.address = key, name, address
        self.room: int | None = None  # the room it is in (as a player or watching)

    @property
    def who(self) -> str:
        return f"{self.name} ({escaped(self.key)}, {self.address})"  # a key holds a typed name

    @abstractmethod
    def send(self, message: Message) -> None:
        """One message to the client (never blocks: a client that does not read is cut)."""

    @abstractmethod
    def close(self) -> None:
        """End the connection."""


class Refused(Exception):
    """A request that cannot be done; the reason goes back to the client."""


class HostListener:
    """A part of the service that follows the host: clients coming and going, rooms
    changing, the clock ticking (matchmaking.py is one). Each does nothing by default."""

    def started(self) -> None:
        """The rooms are back and the store is open."""

    def arrived(self, client: Client) -> None: ...

    def departed(self, client: Client) -> None: ...

    def changed(self, room: Room) -> None: ...

    def tick(self) -> None:
        """Once a TICK."""

    def server_gone(self, server: str) -> None:
        """Another server of the community stopped beating (died, or stopped cleanly)."""

    def listing(self, people: dict[str, str], rooms: list[dict[str, Any]]) -> None:
        """The lobby is being made from this server's people (identity -> name) and rooms
        (their summaries): add to them (server/rooms/other_servers.py adds the other servers')."""

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


class RoomHost:
    """The rooms and the clients in them (see the module docstring)."""

    def __init__(
        self,
        state_dir: Path,
        limits: RoomLimits,
        store: Store | None = None,
        now: Callable[[], float] | None = None,
        store_url: str | None = None,
        wall: Callable[[], float] = time.time,
    ) -> None:
        """`store`: the community's store, or None to open one at start (and close it at
        close): the state directory's own, or the PostgreSQL database at `store_url`;
        `now`: the time, time.monotonic unless a test moves it by hand; `wall`: Unix
        seconds, for the rooms' leases (room_leases.py), which servers compare."""
        self.limits = limits
        self.store_url = store_url
        self.now = now or time.monotonic
        self.state_dir = state_dir
        self._given = store
        self._store = store
        self._keeper: RoomKeeper | None = None
        self.wall = wall
        self.server = server_id(state_dir)
        # The other servers on the same database (server/cluster/bus.py): on SQLite, none.
        self.bus: Bus = open_bus(self.server, store_url or (store.url if store else None))
        self._records: ServerRecords | None = None
        self._servers: list[str] = [self.server]  # the live servers at the last heartbeat
        self._leases: RoomLeases | None = None
        self._lease_due = 0.0  # when this server renews its leases next (by `wall`)
        self._unplayable: set[int] = set()  # rooms kept that this c4tui cannot load
        self.kept: dict[int, RoomRecord] = {}  # each room as it was last kept
        self.rooms: dict[int, Room] = {}
        self.clients: set[Client] = set()
        self.pool = AiPool(limits.ai_workers)
        self.searches: dict[int, PooledSearch] = {}
        self._tick: asyncio.Task[None] | None = None
        self._lobby_due = False
        self._lobby_news = False  # the lobby changed here: the other servers are to be told
        self._closing = False
        # Called with every room that changed, before it is kept and shown (tournaments.py).
        self.followers: list[Callable[[Room], None]] = []
        self.listeners: list[HostListener] = []  # clients, kept changes, ticks (matchmaking.py)
        self.elsewhere = Elsewhere()  # other servers' rooms (the service sets relay.py's)
        # Whether a room is a tournament game's, which has no rematch (tournaments.py's).
        self.in_tournament: Callable[[int], bool] = lambda number: False
        self.watching = Watching(lambda: self.store, self.wall)  # spectators, kept (watching.py)

    @property
    def store(self) -> Store:
        """The community's store (open from `start` to `close`)."""
        if self._store is None:
            raise RuntimeError("the room host has not started: its store is not open")
        return self._store

    @property
    def keeper(self) -> RoomKeeper:
        """The rooms' and kept games' part of the store."""
        if self._keeper is None or self._keeper.store is not self.store:
            self._keeper = RoomKeeper(self.store)
        return self._keeper

    @property
    def leases(self) -> RoomLeases:
        """This server's leases on its rooms (room_leases.py)."""
        if self._leases is None or self._leases.store is not self.store:
            self._leases = RoomLeases(self.store, self.server, self.limits.lease_seconds, self.wall)
        return self._leases

    @property
    def records(self) -> ServerRecords:
        """The servers' heartbeats (server/cluster/bus_servers.py)."""
        if self._records is None or self._records.store is not self.store:
            self._records = ServerRecords(
                self.store, self.server, self.limits.lease_seconds, self.wall
            )
        return self._records

    def servers(self) -> list[str]:
        """The live servers of the community, this one among them, by name (as of the
        last heartbeat: every third of --lease-seconds)."""
        return list(self._servers)

    def summon(self, key: str, number: int) -> None:
        """Every server (this one too) sends its clients of identity `key` into room
        `number`, to their seat if they have one (the caller has kept the room)."""
        self._summoned({"key": key, "number": number}, self.server)
        self.bus.broadcast("host.summon", {"key": key, "number": number})

    def _summoned(self, body: dict[str, object], sender: str) -> None:
        key, number = str(body["key"]), body["number"]
        if not isinstance(number, int):
            return
        # Only this server's own clients: a relayed one is moved by the server it is on.
        self.bring_into([c for c in self.clients if c.key == key and not c.relayed], number)

    def bring_into(self, clients: list[Client], number: int) -> None:
        """These clients of this server into room `number`, each to its seat if it has
        one, through the server that holds the room when it is another's."""
        clients = [c for c in clients if c.room != number]
        room = self.rooms.get(number)
        if room is None:
            for client in clients:  # another server's room: through it
                self.elsewhere.open(client, number)
            return
        for client in clients:
            self.leave(client)
            self.enter(client, room, room.seat_of(client.key))
        self.show(room)

    async def start(self) -> None:
        """Open the store (StoreError says why it cannot be), bring in the files of an
        older state directory, and bring back the rooms no other live server holds."""
        if self._store is None:
            self._store = open_store(self.state_dir, self.store_url)
        bring_in(self.state_dir, self.store)
        if self.store.dialect != "postgresql":
            self.leases.clear()  # a SQLite file is one server's: every room is its own
        self.bus.on("host.summon", self._summoned)
        # A server that stops cleanly lets its rooms go: they are taken at once.
        self.bus.on("host.stopped", lambda body, sender: self.see_to_leases())
        self.bus.on("host.started", self._started_there)
        await self.bus.start()
        self._heartbeats()
        self.bus.broadcast("host.started", {})
        self._bring_back(None)
        self._lease_due = self.wall() + self.limits.lease_seconds / 3
        for listener in self.listeners:
            listener.started()
        self._tick = asyncio.create_task(self._look_at_seats())

    def _bring_back(self, numbers: set[int] | None) -> list[int]:
        """Load from the store the rooms kept (only `numbers`, unless None) whose lease
        this server takes, as they were last kept; the numbers brought back."""
        now = self.now()
        back = []
        loaded = self.keeper.load()
        if numbers is not None:  # one that cannot be loaded is not tried again
            self._unplayable |= numbers - {room.number for room, _ in loaded}
        for room, record in loaded:
            if numbers is not None and room.number not in numbers:
                continue
            if room.number in self.rooms or not self.leases.take(room.number):
                continue  # another live server plays it
            grace = None
            for index, seat in enumerate(room.seats):
                if seat.key is not None:
                    grace = self._hold(room, index, now)
            if room.clock is not None:
                # The time the server was down is not charged; nor is the time the side to
                # move takes to come back, up to the grace (`enter` runs it from then).
                room.clock.resume(now + (grace or 0.0))
            self.rooms[room.number] = room
            self.kept[room.number] = record
            back.append(room.number)
            log.info("room %d back from the store (%d moves)", room.number, room.position.moves)
        for number in back:
            self.maybe_search(self.rooms[number])
        return back

    def new_number(self) -> int:
        """A number for a new room, leased to this server (no other server makes the
        same one); with the store failing, the next after this server's own."""
        number = max(self.rooms, default=0) + 1
        try:
            number = max(number, self.leases.highest() + 1)
            while not self.leases.take(number):
                number += 1
        except StoreError as error:
            log.warning("no lease for a new room: %s", error)
        return number

    def see_to_leases(self) -> None:
        """Renew this server's leases, let go of the rooms another server took, and
        take the rooms whose server stopped renewing (loaded as they were last kept);
        then the heartbeat (after the renewal: a server found silent for a lease's length
        has its leases run out by then, so its rooms are taken at the same look)."""
        self._lease_due = self.wall() + self.limits.lease_seconds / 3
        if self._closing:
            return
        try:
            held = self.leases.renew()
            for number in list(self.rooms):
                if number not in held:
                    self._let_go(self.rooms[number])
            for number in held - set(self.rooms):
                self.leases.release(number)  # a room that was never made here
            free = set(self.leases.free()) - self._unplayable
            if free:
                back = self._bring_back(free)
                self.elsewhere.taken(back)  # this server's players relayed to them sit here
                for number in back:
                    log.info("room %d taken over from a server that stopped", number)
                    self._seat_the_waiting(self.rooms[number])
                    self.show(self.rooms[number])
                if back:
                    self._lobby_changed()
        except StoreError as error:
            log.warning("the rooms' leases could not be seen to: %s", error)
        self._heartbeats()

    def _seat_the_waiting(self, room: Room) -> None:
        """Players of a room just taken over who came to this server in the lobby, in
        the moment no server held the room (its lease ran out, not yet taken), sit back
        down, as `arrive` would have seated them a moment later."""
        if _by_post(room):
            return  # correspondence games wait in the lobby's "your move" list
        watchers = self.watching.of_rooms([room.number])
        for client in [c for c in self.clients if c.room is None]:
            seat = room.seat_of(client.key)
            if seat is not None or client.key in watchers:  # a spectator watches on
                self.enter(client, room, seat)

    def _started_there(self, body: dict[str, object], sender: str) -> None:
        """Another server started (or started again): live, so it is missed if it stops
        beating before this one's next heartbeat."""
        self._servers = sorted({*self._servers, sender})

    def _heartbeats(self) -> None:
        """This server's heartbeat, and the live servers: those that stopped beating
        since the last look are told to the listeners (`server_gone`)."""
        if self.store.dialect != "postgresql":
            return
        try:
            self.records.beat()
            live = self.records.live()
        except StoreError as error:
            log.warning("the servers' heartbeats could not be seen to: %s", error)
            return
        gone = set(self._servers) - set(live) - {self.server}
        self._servers = sorted(set(live) | {self.server})
        for server in sorted(gone):
            log.warning("server %s stopped beating", server)
            for listener in self.listeners:
                try:
                    listener.server_gone(server)
                except Exception:
                    log.exception("%s could not see to a gone server", type(listener).__name__)

    def _let_go(self, room: Room) -> None:
        """Another server plays this room now (this one stalled past its lease): it goes
        from here, and this server's own people in it follow it there (relay.py)."""
        log.warning("room %d: its lease is another server's now: let go", room.number)
        search = self.searches.pop(room.number, None)
        if search is not None:
            search.cancel()
        self.kept.pop(room.number, None)
        own = [c for c in self.members(room) if not c.relayed]  # others: by their servers
        self._unmake(room, "This room is played on another server now.")
        for client in own:
            self.elsewhere.open(client, room.number)
        self._lobby_changed()

    async def close(self) -> None:
        self._closing = True  # it takes no more rooms (another's stop may come meanwhile)
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None
        for search in self.searches.values():
            search.cancel()
        now = self.now()
        # A clock kept to the last second before the stop (a room whose lease another
        # server took goes from self.rooms as it is kept: the loop runs over a copy).
        for room in list(self.rooms.values()):
            if room.clock is not None and room.clock.running is not None:
                room.clock.charge(now)
                self._keep(room)
        await self.pool.close()
        if self._store is not None:
            try:  # another server may take them at once
                self.leases.release_all()
                if self.store.dialect == "postgresql":
                    self.records.stopped()
            except StoreError as error:
                log.warning("the rooms' leases were not let go: %s", error)
        self.bus.broadcast("host.stopped", {})
        await self.bus.close()
        if self._given is None and self._store is not None:
            self._store.close()
            self._store = None

    # ---- clients coming and going -------------------------------------------------

    def arrive(self, client: Client) -> None:
        self.clients.add(client)
        log.info("client %s logged in", client.who)
        engines = tuple(name for name, _ in self.limits.engines)
        who = WelcomedAs(client.key, client.name)
        client.send(Welcome(VERSION, who, self.limits.ai_seconds, engines))
        # Back to the seat it held, in a game played at one sitting; correspondence games
        # wait in the lobby's "your move" list, which comes first.
        seated = [
            r for r in self.rooms.values() if r.seat_of(client.key) is not None and not _by_post(r)
        ]
        if seated:
            self.enter(client, seated[0], seated[0].seat_of(client.key))
            self.show(seated[0])
        else:
            client.send(self.lobby_for(client))
            # A seat on another server: there, through it; else back to the room watched.
            if not self.elsewhere.arrive(client):
                self._watch_again(client)
        for listener in self.listeners:
            listener.arrived(client)
        self._lobby_changed()

    def _watch_again(self, client: Client) -> None:
        """Back to the room the client watched when its connection ended, if it is on:
        here, or through the server that holds it (nowhere yet: `_seat_the_waiting`)."""
        number = self.watching.room_of(client.key)
        if number is None:
            return
        room = self.rooms.get(number)
        if room is None:
            self.elsewhere.open(client, number)
        elif room.seat_of(client.key) is None:  # a seat of theirs is by post: the lobby
            self.enter(client, room, None)
            self.show(room)

    def depart(self, client: Client) -> None:
        self.clients.discard(client)
        log.info("client %s left", client.who)
        self.elsewhere.depart(client)
        if not client.relayed:  # the listeners follow the client on its own server
            for listener in self.listeners:
                listener.departed(client)
        room = self.rooms.get(client.room) if client.room is not None else None
        client.room = None
        if room is not None:
            seat = room.seat_of(client.key)
            if seat is not None and not self._present(client.key, room):
                alone = not any(self._present(s.key, room) for s in room.seats if s.key)
                if room.position.moves == 0 and alone and not self._waits(room):
                    self._vacate(room, seat)  # nothing to come back to: it goes
                    self.changed(room)
                    return
                self._hold(room, seat, self.now())
            self.show(room)
        self._lobby_changed()

    def _present(self, key: str, room: Room) -> bool:
        return any(c.key == key and c.room == room.number for c in self.clients)

    def _hold(self, room: Room, seat: int, now: float) -> float | None:
        """Hold the seat of a person who went for the room's grace; the grace, or None
        when such a seat is not held (correspondence: it stays theirs)."""
        limits = self.limits
        grace = room.grace(limits.seat_hold, limits.grace_share, limits.grace_least)
        if grace is not None:
            room.hold(seat, now + grace)
        return grace

    @staticmethod
    def _waits(room: Room) -> bool:
        """A correspondence game with both seats taken waits for its players, moves or not."""
        return _by_post(room) and room.on

    # ---- entering, leaving, closing -----------------------------------------------

    def enter(self, client: Client, room: Room, seat: int | None) -> None:
        """Into a room (back into its seat, if any); the caller shows the room after."""
        self.elsewhere.leave(client)  # out of another server's room it was relayed to
        client.room = room.number
        if seat is None:
            self.watching.entered(client.key, room.number)
        if seat is not None and room.seats[seat].held_until is not None:
            room.back(seat)
            self.tell(room, f"{client.name} is back.")
        clock, now = room.clock, self.now()
        if seat is not None and clock is not None and clock.running == seat and clock.since > now:
            clock.resume(now)  # back after a restart: their time runs from now
        self._lobby_changed()

    def leave(self, client: Client) -> None:
        """Out of its room: a seat in a game under way is held as a dropped one is (the
        client asked the player first); any other seat is given up; a room nobody plays
        in any more closes."""
        room = self.rooms.get(client.room) if client.room is not None else None
        client.room = None
        if room is None:
            self.elsewhere.leave(client)
            return
        seat = room.seat_of(client.key)
        if seat is None:
            self.watching.left(client.key, room.number)
            self.show(room)  # one watcher fewer
            self._lobby_changed()
            return
        if room.under_way or self._waits(room):
            if not self._present(client.key, room):
                self._archive(room)  # among the player's games meanwhile
                grace = self._hold(room, seat, self.now())
                if grace is None:
                    self.tell(room, f"{client.name} stepped out: their days per move run.")
                else:
                    minutes, seconds = divmod(round(grace), 60)
                    self.tell(
                        room,
                        f"{client.name} stepped out: the seat is held {minutes}:{seconds:02d}.",
                    )
            self.show(room)
            self._lobby_changed()
            return
        self._vacate(room, seat)
        self.tell(room, f"{client.name} left the room.")
        self.changed(room)

    def _vacate(self, room: Room, seat: int) -> None:
        """A person's seat opens; the game so far is kept among that person's games."""
        self._archive(room)
        room.leave(seat)

    def _archive(self, room: Room) -> None:
        if room.position.moves:
            try:
                self.keeper.archive(room)
            except StoreError as error:
                log.warning("room %d: could not keep its game: %s", room.number, error)

    def _close_if_empty(self, room: Room) -> bool:
        if room.people or any(s.held_until is not None for s in room.seats):
            return False
        search = self.searches.pop(room.number, None)
        if search is not None:
            search.cancel()
        try:
            self.keeper.forget(room)
            self.leases.release(room.number)
        except StoreError as error:  # it stays in the store: back after a restart
            log.warning("room %d: could not keep its game: %s", room.number, error)
        del self.rooms[room.number]
        self.kept.pop(room.number, None)
        for client in self.members(room):
            client.room = None
            client.send(Notice("The room has closed."))
            client.send(self.lobby_for(client))
        log.info("room %d closed", room.number)
        self._lobby_changed()
        return True

    async def _look_at_seats(self) -> None:
        """Once a TICK, `look`; the leases whenever they are due (a lease shorter than
        three TICKs renewed only at the looks would run out between two renewals)."""
        look_due = time.monotonic() + TICK
        while True:
            lease_in = self._lease_due - self.wall()
            await asyncio.sleep(max(0.0, min(lease_in, look_due - time.monotonic())))
            if self.wall() >= self._lease_due:
                self.see_to_leases()
            if time.monotonic() < look_due:
                continue
            look_due = time.monotonic() + TICK
            self.look()
            for listener in self.listeners:
                try:
                    listener.tick()
                except Exception:
                    log.exception("%s could not tick", type(listener).__name__)

    def look_at(self, room: Room) -> None:
        """`look` at one room now (before a move, so that one after the flag is refused)."""
        self._look_at(room, self.now())

    def look(self) -> None:
        """End the games whose time ran out, see to the seats held too long, keep the
        running clocks, and try again to keep rooms that could not be kept. A bug in one
        room is logged, and the others are still seen to."""
        now = self.now()
        for room in list(self.rooms.values()):
            try:
                self._look_at(room, now)
            except Exception:
                log.exception("room %d: its seats could not be seen to", room.number)

    def _look_at(self, room: Room, now: float) -> None:
        side = room.time_out(now)
        if side is not None:
            name = room.seats[side].title()
            how = "forfeits: no move made" if room.ended == "forfeit" else "lost on time"
            log.info("room %d: %s %s", room.number, name, how)
            self.tell(room, f"{name}'s time ran out: {name} {how}.")
            self.changed(room)
            if room.number not in self.rooms:
                return
        here = {c.key for c in self.members(room)}
        if room.over:  # a correspondence game's seats are not held while it goes on
            for index, seat in enumerate(room.seats):
                if seat.key is not None and seat.key not in here and seat.held_until is None:
                    room.hold(index, now + self.limits.seat_hold)
        claimant = room.claimant
        ending, freed = room.holds_run_out(now, here)
        if room.claimant is not None and claimant is None:
            gone = room.seats[1 - room.claimant].name
            log.info("room %d: %s is gone past the grace: a claim is open", room.number, gone)
            self.tell(room, f"{gone} has not come back: you may claim the win or a draw.")
            self.show(room)
        if ending is not None:
            how, winner = ending
            name = room.seats[1 - winner].name
            log.info("room %d: %s did not come back: %s", room.number, name, how)
            room.end_by(how, winner)
            words = "forfeits (no move made)" if how == "forfeit" else "abandoned the game"
            self.tell(room, f"{name} did not come back: {name} {words}.")
        for index in freed:
            seat = room.seats[index]
            log.info("room %d: %s's seat is free again", room.number, seat.name)
            if ending is None:
                self.tell(room, f"{seat.name} did not come back: the seat is open.")
            self._vacate(room, index)
        if freed:
            self.changed(room)
            if room.number not in self.rooms:
                return
        clock = room.clock
        if clock is not None and clock.running is not None and now - clock.since >= CLOCK_KEEP:
            clock.charge(now)  # kept up to date, so a kill gives back at most CLOCK_KEEP
            self._keep(room)
        if room.trouble is not None and room.number in self.rooms and self._keep(room):
            self.maybe_search(room)  # an AI move the store refused is searched again
            self.show(room)

    # ---- after every change -------------------------------------------------------

    def changed(self, room: Room) -> bool:
        """Keep the room, let its AI start if it is to move, and show it to everyone in it
        (the view says the AI thinks, so players know they wait for it). Whether the
        change was kept: one that was not is undone, and whoever asked for it is told no."""
        moves = room.clock_ply
        room.settle_clock(self.now())
        if room.position.moves > moves:
            self._tell_turn(room)
        for follow in self.followers:
            follow(room)
        search = self.searches.get(room.number)
        if search is not None and not room.thinking:
            search.cancel()
            del self.searches[room.number]
        if self._close_if_empty(room):
            return True
        kept = self._keep(room)
        if kept:
            self.maybe_search(room)
        if room.number in self.rooms:
            self.show(room)
            for listener in self.listeners:
                listener.changed(room)
        self._lobby_changed()
        return kept

    def _keep(self, room: Room) -> bool:
        """Keep the room; when the store refuses, undo the change (see the module
        docstring) and say why in the room. Whether it was kept."""
        try:
            with self.store.transaction():  # only while the room is this server's
                self.leases.hold(room.number)
                self.kept[room.number] = self.keeper.keep(room)
        except LeaseLost:
            if room.number in self.kept:
                self._let_go(room)
            else:
                self._unmake(room, "The server cannot keep games now: try later.")
            return False
        except StoreError as error:
            if room.trouble is None:
                log.warning("room %d: a change not kept, so undone: %s", room.number, error)
            why = "its disk is full" if isinstance(error, StoreFull) else "its database failed"
            last = self.kept.get(room.number)
            if last is None:  # a new room that could not be kept at all
                self._unmake(room, f"The server cannot keep games now ({why}): try later.")
                return False
            restore(room, last)
            room.trouble = (
                f"The server cannot keep this game ({why}): the last move or change "
                "was not made. Try again in a while."
            )
            return False
        room.trouble = None
        return True

    def _unmake(self, room: Room, reason: str) -> None:
        """A room that was never kept goes, and everyone in it back to the lobby."""
        del self.rooms[room.number]
        for client in self.members(room):
            client.room = None
            client.send(Notice(reason))
            client.send(self.lobby_for(client))

    def members(self, room: Room) -> list[Client]:
        return [c for c in self.clients if c.room == room.number]

    def show(self, room: Room) -> None:
        now = self.now()
        here = self.members(room)
        online = {c.key for c in here}
        watchers = sorted({c.name for c in here if room.seat_of(c.key) is None})
        for client in here:
            view = room.view(client.key, now, online)
            # A private room's code is for its players to pass on, not for its watchers.
            seated = view["seat"] is not None
            view["code"] = show_code(room.code) if seated or room.public else None
            view["seat_code"] = view["seat_code"] and show_code(view["seat_code"])
            shown = {**view, "watchers": watchers, "tournament": self.in_tournament(room.number)}
            client.send(from_wire(RoomShown, shown, "room"))

    def tell(self, room: Room, text: str) -> None:
        for client in self.members(room):
            client.send(Notice(text))

    # ---- the AI seat ----------------------------------------------------------------

    def maybe_search(self, room: Room) -> None:
        if room.bot_to_move():  # it thinks in its own process; the room shows it thinking
            if not room.thinking:
                room.start_search()
            return
        spec = room.ai_to_move()
        if spec is None or room.paused or room.number in self.searches:
            return
        search_id = room.start_search()
        pos, number, path = room.position, room.number, room.position.path
        seconds = self.limits.ai_seconds
        if room.clock is not None:  # on a clock, a twentieth of what is left at most
            seconds = min(seconds, max(0.05, room.clock.remaining(pos.to_move, self.now()) / 20))
        job = SearchJob(
            spec,
            pos.to_moves(),
            pos.width,
            pos.height,
            pos.connect,
            seconds,
            seed=secrets.randbelow(1 << 30),
        )
        self.searches[number] = self.pool.search(
            job,
            on_info=lambda info: self._progress(number, search_id, info),
            on_done=lambda move, info: self._ai_moved(number, search_id, path, move, info),
            on_failed=lambda reason: self._ai_failed(number, search_id, reason),
            player=next((s.key for s in room.seats if s.key is not None), ""),
        )

    def _progress(self, number: int, search_id: int, info: SearchInfo) -> None:
        room = self.rooms.get(number)
        if room is None or not room.progress(search_id, info):
            return
        progress = Progress(number, search_id, info)
        for client in self.members(room):
            client.send(progress)

    def _ai_moved(
        self, number: int, search_id: int, path: tuple[int, ...], move: int, info: SearchInfo
    ) -> None:
        room = self.rooms.get(number)
        self.searches.pop(number, None)
        if room is not None and room.ai_move(search_id, path, move, info):
            self.changed(room)

    def _ai_failed(self, number: int, search_id: int, reason: str) -> None:
        room = self.rooms.get(number)
        self.searches.pop(number, None)
        if room is None or search_id != room.search_id:
            return
        room.search_failed()
        self.tell(room, f"The AI failed: {reason}. Press m to let it try again.")
        self.show(room)

    # ---- the lobby ------------------------------------------------------------------

    def lobby(self) -> Lobby:
        # One entry per identity: two people who share a name are two (a set of names was one).
        people = {c.key: c.name for c in self.clients}
        rooms = []
        for room in sorted(self.rooms.values(), key=lambda r: r.number):
            summary = room.summary()
            if summary["code"] is not None:
                summary["code"] = show_code(summary["code"])
            summary["watchers"] = sum(1 for c in self.members(room) if room.seat_of(c.key) is None)
            rooms.append(summary)
        for listener in self.listeners:
            listener.listing(people, rooms)
        online = sorted(name for key, name in people.items() if not is_bot_key(key))
        bots = sorted(name for key, name in people.items() if is_bot_key(key))
        rooms.sort(key=lambda summary: int(summary["room"]))
        return from_wire(Lobby, {"online": online, "rooms": rooms, "bots": bots}, "lobby")

    def lobby_changed(self, here: bool = True) -> None:
        """The lobby is to be sent again (someone came or went without a room; `here`
        False: on another server, which has told the others already)."""
        self._lobby_changed(here)

    def _lobby_changed(self, here: bool = True) -> None:
        """Send the lobby to everyone in it, soon (changes close together go as one), and
        tell the other servers that it changed here (their lobbies list this one's)."""
        self._lobby_news = self._lobby_news or here
        if self._lobby_due:
            return
        self._lobby_due = True
        asyncio.get_running_loop().call_later(LOBBY_EVERY, self._send_lobby)

    def _send_lobby(self) -> None:
        self._lobby_due = False
        lobby = self.lobby()
        if self._lobby_news:
            # With how many watch this server's rooms: only the room's server knows (a
            # watcher on another server is relayed, so it is among its clients).
            here = {str(r.room): r.watchers for r in lobby.rooms if r.room in self.rooms}
            self.bus.broadcast("lobby.changed", {"watchers": {n: w for n, w in here.items() if w}})
        self._lobby_news = False
        for client in self.clients:
            if client.room is None:
                client.send(self.lobby_for(client, lobby))

    def lobby_for(self, client: Client, lobby: Lobby | None = None) -> Lobby:
        """The lobby as this client sees it: with the rooms where it is their move, the
        least time left first, and their bell toggle."""
        mine = []
        for room in self.rooms.values():
            seat = room.seat_of(client.key)
            if seat is not None and room.on and room.position.to_move == seat:
                left = inf if room.clock is None else room.clock.remaining(seat, self.now())
                mine.append((left, room.number))
        for listener in self.listeners:
            mine += listener.your_move(client.key)
        return replace(
            lobby or self.lobby(),
            your_move=tuple(number for _, number in sorted(mine)),
            bell=self._bell(client.key),
        )

    # ---- the bell -------------------------------------------------------------------

    def _bell(self, key: str) -> bool:
        try:
            return BellRecords(self.store).wanted(key)
        except StoreError:
            return True

    def keep_bell(self, client: Client, on: bool) -> None:
        """This player's bell toggle, kept (StoreError when the store refuses)."""
        BellRecords(self.store).keep(client.key, on)

    def _tell_turn(self, room: Room) -> None:
        """A move was made: tell the player now to move on their connections that are
        not in this room (in the lobby, in another game), with the bell if they want it."""
        if not room.on:
            return
        seat = room.position.to_move
        key = room.seats[seat].key
        if key is None:
            return
        elsewhere = [c for c in self.clients if c.key == key and c.room != room.number]
        if elsewhere:
            told = YourMove(room.number, room.seats[1 - seat].title(), self._bell(key))
            for client in elsewhere:
                client.send(told)


def _by_post(room: Room) -> bool:
    """A correspondence game: days a move, played over many logins."""
    return room.control is not None and room.control.correspondence
