"""RoomHost: every room of the service and the clients in them, kept after every change.

Requests (requests.py) are done on the event loop, one at a time, so no two ever see a
room half-changed. After every change (`changed`) a room is kept in the store, off the
loop (keeping_line.py: one transaction in a writer's thread), and once it is committed
its view goes to everyone in it, the lobby hears of it, and when the AI seat is to move
its search goes to the pool of worker processes (ai_pool.py). A change the store
refuses (a full disk, a database away) is undone: the room goes back to what was last
kept, and its players are told why; what a player has seen is always what is kept, so a
kill at any moment loses nothing shown.

Presence: a person whose last connection to a room drops keeps the seat for the room's
grace (`Room.grace`: `RoomLimits.seat_hold` without a clock, a share of the time
control's length with one, never held in correspondence; the other side sees the
countdown); the same identity connecting again sits back down. After a restart, every
person's seat is held so.

Time comes from `now` (time.monotonic unless a test hands in its own): the clocks, the
holds and the once-a-TICK look (`look`) that ends games on time and on abandonment.

Its parts: the audience (audience.py: clients by room and identity), the one hook list
(hooks.py), the lobby (lobby.py), what a room shows (showing.py), the AI seats
(ai_seat.py), the clocks and held seats (seat_watch.py), the leases (leasing.py).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from c4tui.server.cluster.bus import Bus
from c4tui.server.cluster.opening import open_bus
from c4tui.server.cluster.room_leases import server_id
from c4tui.server.rooms import seat_watch, showing
from c4tui.server.rooms.ai_pool import AiPool
from c4tui.server.rooms.ai_seat import AiSeat
from c4tui.server.rooms.audience import Audience, Client
from c4tui.server.rooms.hooks import Elsewhere, HostListener
from c4tui.server.rooms.keeping import RoomKeeper
from c4tui.server.rooms.keeping_line import KeepLine
from c4tui.server.rooms.leasing import Leasing
from c4tui.server.rooms.lobby import LobbyBoard
from c4tui.server.rooms.looks import Looks
from c4tui.server.rooms.old_state import bring_in
from c4tui.server.rooms.room import Room, by_post
from c4tui.server.rooms.watching import Watching
from c4tui.server.store.opening import open_store
from c4tui.server.store.room_records import RoomRecord
from c4tui.server.store.store import Store, StoreError
from c4tui.server.wire.identity import RoomLimits
from c4tui.server.wire.protocol import VERSION, Notice, Welcome
from c4tui.server.wire.protocol import Identity as WelcomedAs

T = TypeVar("T")
log = logging.getLogger("c4tui.server")
TICK = 1.0  # seconds between looks at held seats


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
        self.kept: dict[int, RoomRecord] = {}  # each room as it was last kept
        self.rooms: dict[int, Room] = {}
        self.clients = Audience()  # every client, by room and by identity (audience.py)
        self.ai = AiSeat(self, AiPool(limits.ai_workers))  # the AI seats' searches (ai_seat.py)
        self._tick: asyncio.Task[None] | None = None
        self.looks = Looks()  # when each room is next due the look (looks.py, seat_watch.py)
        self.lobby = LobbyBoard(self)  # what the clients in no room see (lobby.py)
        self.closing = False
        self.listeners: list[HostListener] = []  # the one hook list (hooks.py)
        self.elsewhere = Elsewhere()  # other servers' rooms (the service sets relay.py's)
        # Whether a room is a tournament game's, which has no rematch (tournaments.py's).
        self.in_tournament: Callable[[int], bool] = lambda number: False
        self.watching = Watching(lambda: self.store, self.wall)  # spectators, kept (watching.py)
        self.leasing = Leasing(self)  # the rooms' leases, the servers' heartbeats (leasing.py)
        self.line = KeepLine(self, self.leasing)  # the rooms' changes on their way to the store

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

    def look(self) -> None:
        """The look at the rooms due it: flags, held seats, clocks kept (seat_watch.py)."""
        seat_watch.look(self)

    def look_at(self, room: Room) -> None:
        """`look` at one room now (before a move, so that one after the flag is refused)."""
        seat_watch.look_at(self, room, self.now())

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
        self.bring_into([c for c in self.clients.of(key) if not c.relayed], number)

    def bring_into(self, clients: list[Client], number: int) -> None:
        """These clients of this server into room `number`, each to its seat if it has
        one, through the server that holds the room when it is another's."""
        clients = [c for c in clients if c.room != number]
        for client in clients:  # each sees its room's last change before it goes
            if client.room is not None and self.line.busy(client.room):
                self.line.when_settled(client.room, lambda: self.bring_into(clients, number))
                return
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
            self._store = open_store(self.state_dir, self.store_url, self.limits.store_timeout)
        bring_in(self.state_dir, self.store)
        self.line.start(self.store)
        if self.store.dialect != "postgresql":
            self.leasing.leases.clear()  # a SQLite file is one server's: every room is its own
        self.bus.on("host.summon", self._summoned)
        # A server that stops cleanly lets its rooms go: they are taken at once.
        self.bus.on("host.stopped", lambda body, sender: self.leasing.see_to_soon())
        self.bus.on("host.started", self.leasing.started_there)
        await self.bus.start()
        self.leasing.heartbeats()
        self.bus.broadcast("host.started", {})
        self.leasing.bring_back()
        self.leasing.due = self.wall() + self.limits.lease_seconds / 3
        for listener in self.listeners:
            listener.started()
        self._tick = asyncio.create_task(self._look_at_seats())

    async def close(self) -> None:
        self.closing = self.bus.deaf = True  # no more rooms, nor words from other servers
        for task in (self._tick, self.leasing.task):
            if task is not None:
                task.cancel()
        self._tick = self.leasing.task = None
        self.ai.cancel_all()
        now = self.now()
        # A clock kept to the last second before the stop (a room whose lease another
        # server took goes from self.rooms as it is kept: the loop runs over a copy).
        for room in list(self.rooms.values()):
            if room.clock is not None and room.clock.running is not None:
                room.clock.charge(now)
                self.keep(room, show=False)
        await self.line.close()  # every change written before the leases go
        await self.ai.pool.close()
        if self._store is not None:
            try:  # another server may take them at once
                self.leasing.leases.release_all()
                if self.store.dialect == "postgresql":
                    self.leasing.records.stopped()
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
        self.lobby.people_changed()  # before its own lobby is made: it is online in it
        log.info("client %s logged in", client.who)
        engines = tuple(name for name, _ in self.limits.engines)
        who = WelcomedAs(client.key, client.name)
        client.send(Welcome(VERSION, who, self.limits.ai_seconds, engines))
        # Back to the seat it held, in a game played at one sitting; correspondence games
        # wait in the lobby's "your move" list, which comes first.
        seated = [room for room in self.seats_of(client.key) if not by_post(room)]
        if seated:
            self.enter(client, seated[0], seated[0].seat_of(client.key))
            self.show(seated[0])
        else:
            client.send(self.lobby.for_client(client))
            # A seat on another server: there, through it; else back to the room watched.
            if not self.elsewhere.arrive(client):
                self._watch_again(client)
        for listener in self.listeners:
            listener.arrived(client)

    def seats_of(self, key: str) -> list[Room]:
        """This server's rooms where `key` has a seat: the lobby's index of seats, and the
        rooms whose change is being written (indexed once kept); never every room."""
        numbers = self.lobby.seated(key) | self.line.flights.keys()
        found = (self.rooms.get(number) for number in sorted(numbers))
        return [room for room in found if room is not None and room.seat_of(key) is not None]

    def _watch_again(self, client: Client) -> None:
        """Back to the room the client watched when its connection ended, if it is on:
        here, or through the server that holds it (nowhere yet: leasing.py's `seat_the_waiting`)."""
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
        self.lobby.people_changed()
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
                    self.vacate(room, seat)  # nothing to come back to: it goes
                    self.changed(room)
                    return
                self.hold_seat(room, seat, self.now())
            self.show(room)
            self.lobby.room_changed(room)  # one watcher fewer, or a seat held

    def _present(self, key: str, room: Room) -> bool:
        return self.clients.present(key, room.number)

    def hold_seat(self, room: Room, seat: int, now: float) -> float | None:
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
        return by_post(room) and room.on

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
        self.lobby.room_changed(room)  # one watcher more, or its seat filled

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
            self.lobby.room_changed(room)
            return
        if room.under_way or self._waits(room):
            if not self._present(client.key, room):
                self._archive(room)  # among the player's games meanwhile
                grace = self.hold_seat(room, seat, self.now())
                if grace is None:
                    self.tell(room, f"{client.name} stepped out: their days per move run.")
                else:
                    minutes, seconds = divmod(round(grace), 60)
                    self.tell(
                        room,
                        f"{client.name} stepped out: the seat is held {minutes}:{seconds:02d}.",
                    )
            self.show(room)
            self.lobby.room_changed(room)
            return
        self.vacate(room, seat)
        self.tell(room, f"{client.name} left the room.")
        self.changed(room)

    def vacate(self, room: Room, seat: int) -> None:
        """A person's seat opens; the game so far is kept among that person's games."""
        self._archive(room)
        room.leave(seat)

    def _archive(self, room: Room) -> None:
        if room.position.moves:
            self.line.archive(room)

    def _close_if_empty(self, room: Room) -> bool:
        if room.people or any(s.held_until is not None for s in room.seats):
            return False
        self.ai.cancel(room.number)
        self.line.forget(room)
        del self.rooms[room.number]
        self.kept.pop(room.number, None)
        # Named gone before its people are sent the lobby, or theirs would still list it.
        self.lobby.room_changed(room.number)
        for client in self.members(room):
            client.room = None
            client.send(Notice(room.closing_words()))
            client.send(self.lobby.for_client(client))
        log.info("room %d closed", room.number)
        return True

    async def _look_at_seats(self) -> None:
        """Once a TICK, `look`; the leases whenever they are due (a lease shorter than
        three TICKs renewed only at the looks would run out between two renewals)."""
        look_due = time.monotonic() + TICK
        while True:
            lease_in = self.leasing.due - self.wall()
            await asyncio.sleep(max(0.0, min(lease_in, look_due - time.monotonic())))
            if self.wall() >= self.leasing.due:
                self.leasing.see_to_soon()
            if time.monotonic() < look_due:
                continue
            look_due = time.monotonic() + TICK
            self.look()
            for listener in self.listeners:
                try:
                    listener.tick()
                except Exception:
                    log.exception("%s could not tick", type(listener).__name__)

    # ---- after every change -------------------------------------------------------

    def changed(self, room: Room) -> asyncio.Future[bool]:
        """Keep the room; once kept, let its AI start if it is to move and show it to
        everyone in it (the view says the AI thinks, so players know they wait for it).
        Whether the change was kept comes as the future's result: one that was not is
        undone, and whoever asked for it is told no (keeping_line.py)."""
        moves = room.clock_ply
        room.settle_clock(self.now())
        if room.position.moves > moves:
            # At once, as the lobby's own list of games waiting may be (lobby.py): a
            # "your move" that came after the lobby said so would be out of order.
            showing.tell_turn(self, room)
        for listener in self.listeners:
            listener.changing(room)
        if not room.thinking:
            self.ai.cancel(room.number)
        if self._close_if_empty(room):
            closed: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
            closed.set_result(True)
            return closed
        return self.line.keep(room)

    def keep(self, room: Room, *, show: bool = True) -> asyncio.Future[bool]:
        """Keep the room as it is (a clock charged, a refused change tried again), shown
        again once kept if `show`; a refusal is undone and said (keeping_line.py)."""
        return self.line.keep(room, show=show, tell=False)

    def off_loop(self, job: Callable[[Store], T]) -> asyncio.Future[T]:
        """`job(store)` off the loop, on the connection of the server's own statements
        (writer.py's chores); it touches no room the loop is changing."""
        return self.line.chore(job)

    def writing(self, number: int) -> bool:
        """Whether a change to room `number` is being written."""
        return self.line.busy(number)

    @property
    def store_away(self) -> str | None:
        """Why the database cannot be reached now; None while it can."""
        return self.line.away

    def unmake(self, room: Room, reason: str) -> None:
        """A room that was never kept goes, and everyone in it back to the lobby."""
        del self.rooms[room.number]
        self.lobby.room_changed(room.number)
        for client in self.members(room):
            client.room = None
            client.send(Notice(reason))
            client.send(self.lobby.for_client(client))

    def members(self, room: Room) -> list[Client]:
        return self.clients.in_room(room.number)

    def show(self, room: Room) -> None:
        """The room as it is now, to everyone in it (showing.py); while a change to it is
        being written, once that is kept (nothing is shown that is not)."""
        if self.line.busy(room.number):
            self.line.show_later(room.number)
            return
        showing.show(self, room)

    def tell(self, room: Room, text: str) -> None:
        for client in self.members(room):
            client.send(Notice(text))
