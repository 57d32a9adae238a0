"""KeepLine: a room's changes kept off the event loop, in the order made, shown once kept.

After a change the room host hands the room to its line (`keep`). The room is made a
record here, on the loop; writing it (the room's lease held, the record written:
keeping.py) is a job for the store's writer of that room (server/store/writer.py), a
thread with a connection of its own. So the loop serves the other rooms and everyone
else while a room's change commits, and a database that is slow or frozen holds only
the rooms whose changes wait on it.

Nothing is shown that is not kept: a room is shown, its listeners and the lobby told
and its AI started (`_settled`) only when the last of its changes in flight is kept,
once for all the changes that came while it was written. A `show` asked for meanwhile
(a spectator comes in) waits for it too.

A change the store refuses is undone: the room goes back to what was last kept
(keeping.py's `restore`), its players are told why (`room.trouble`), and its clock
stands still until it is kept again (seat_watch.py). The changes made after it and in
flight behind it were made on top of it, so they are void: each job carries its room's
epoch, a refusal ends the epoch, and the writer skips a job of an epoch that ended.
A room whose lease another server took is let go (leasing.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from c4tui.server.cluster.room_leases import LeaseLost, RoomLeases
from c4tui.server.rooms.face import Host
from c4tui.server.rooms.keeping import RoomKeeper, clock_charged, restore, room_record
from c4tui.server.rooms.room import Room
from c4tui.server.store.room_records import RoomRecord
from c4tui.server.store.store import Store, StoreError, StoreFull
from c4tui.server.store.writer import StoreWriters

T = TypeVar("T")
log = logging.getLogger("c4tui.server")


class Void(StoreError):
    """A change made on top of one the store refused: not written (it was undone)."""


@dataclass
class InFlight:
    """One room's changes being written."""

    count: int = 0
    last: RoomRecord | None = None  # the room as kept once they are: the next is written on it
    show: bool = False  # shown (and its AI started) when they are kept
    tell: bool = False  # its listeners and the lobby told when they are kept
    settled: list[Callable[[], None]] = field(default_factory=list)  # run once they are done


class Leases(Protocol):
    """The host's leases, as the line needs them (leasing.py's Leasing)."""

    @property
    def leases(self) -> RoomLeases: ...

    def let_go(self, room: Room) -> None: ...


class KeepLine:
    """The changes of a host's rooms, on their way to the store (see the module)."""

    def __init__(self, host: Host, leasing: Leases) -> None:
        self.host, self.leasing = host, leasing
        self.writers: StoreWriters | None = None  # from the host's start to its close
        self.flights: dict[int, InFlight] = {}
        self.epochs: dict[int, int] = {}  # each room's, ended by a refusal (the module)
        # Each room's last epoch a writer saw refused: read and written in that writer's
        # thread only (a room's jobs all go to one writer).
        self._refused: dict[int, int] = {}

    def start(self, store: Store) -> None:
        self.writers = StoreWriters(store, self.host.limits.store_writers)

    async def close(self) -> None:
        """Every change given is written (the host keeps its clocks just before)."""
        writers, self.writers = self.writers, None
        if writers is not None:
            await asyncio.to_thread(writers.close)
            await asyncio.sleep(0)  # the answers the writers sent are settled

    @property
    def away(self) -> str | None:
        """Why the database cannot be reached now, as any connection found it."""
        return self.host.store.away if self.writers is None else self.writers.away

    async def written(self) -> None:
        """Wait for every change given so far to be written (or refused): a read on
        the loop's connection after it sees them."""
        if self.writers is not None:
            done = [writer.submit(_nothing) for writer in self.writers.writers]
            await asyncio.gather(*done, return_exceptions=True)

    def chore(self, job: Callable[[Store], T]) -> asyncio.Future[T]:
        """`job(store)` by the store's chores writer (RoomHost.off_loop)."""
        return self._writers().chores.submit(job)

    def busy(self, number: int) -> bool:
        """Whether a change to room `number` is being written."""
        return number in self.flights

    def show_later(self, number: int) -> None:
        self.flights[number].show = True

    def when_settled(self, number: int, then: Callable[[], None]) -> None:
        """Run `then` once room `number`'s changes in flight are written (or refused)
        and shown: a person taken out of the room meanwhile would miss the last view."""
        self.flights[number].settled.append(then)

    # ---- a room's change --------------------------------------------------------

    def keep(
        self,
        room: Room,
        *,
        show: bool = True,
        tell: bool = True,
    ) -> asyncio.Future[bool]:
        """Write the room as it is now after the changes in flight; whether it was kept
        comes as the future's result (a refusal is undone and said before). Once kept:
        `show` it (and start its AI), and `tell` its listeners and the lobby."""
        number, record, over = room.number, room_record(room), room.over
        charged = clock_charged(room, self.host.now(), self.host.wall())
        flight = self.flights.setdefault(number, InFlight())
        last = flight.last if flight.count else self.host.kept.get(number)
        flight.count += 1
        flight.last, flight.show, flight.tell = record, flight.show or show, flight.tell or tell
        epoch = self.epochs.get(number, 0)
        leases = self.host.server, self.host.limits.lease_seconds, self.host.wall

        def write(store: Store) -> None:  # in the writer's thread: no room touched
            if self._refused.get(number, -1) >= epoch:
                raise Void("an earlier change to this room was not kept")
            try:
                with store.transaction():  # only while the room is this server's
                    RoomLeases(store, *leases).hold(number)
                    RoomKeeper(store).write(record, last, over, charged)
            except BaseException:
                self._refused[number] = epoch
                raise

        answer = asyncio.get_running_loop().create_future()
        written = self._writers().submit(number, write)
        written.add_done_callback(lambda done: self._written(room, record, epoch, done, answer))
        return answer

    def _written(
        self,
        room: Room,
        record: RoomRecord,
        epoch: int,
        done: asyncio.Future[None],
        answer: asyncio.Future[bool],
    ) -> None:
        number = room.number
        flight = self.flights[number]
        flight.count -= 1
        error = done.exception()
        now = epoch == self.epochs.get(number, 0)  # not void (undone with the refused one)
        kept = now and error is None
        if kept:
            self.host.kept[number] = record
            room.trouble = None
        elif now:
            self.epochs[number] = epoch + 1
            if room.trouble is not None and not flight.tell:
                flight.show = False  # refused again, as its players were told already
            self._refused_change(room, error)
            flight.last = self.host.kept.get(number)
        if not flight.count:
            del self.flights[number]
            self._settled(room, flight)
        if not answer.done():
            answer.set_result(kept)

    def _refused_change(self, room: Room, error: BaseException | None) -> None:
        """Undo the change the store refused, and say why in the room."""
        host = self.host
        if isinstance(error, LeaseLost):
            if room.number in host.kept:
                self.leasing.let_go(room)
            else:
                host.unmake(room, "The server cannot keep games now: try later.")
            return
        if not isinstance(error, StoreError):
            log.error("room %d: a change not kept, so undone", room.number, exc_info=error)
        elif room.trouble is None:
            log.warning("room %d: a change not kept, so undone: %s", room.number, error)
        why = "its disk is full" if isinstance(error, StoreFull) else "its database failed"
        last = host.kept.get(room.number)
        if last is None:  # a new room that could not be kept at all
            if host.rooms.get(room.number) is room:
                host.unmake(room, f"The server cannot keep games now ({why}): try later.")
            return
        restore(room, last)
        room.trouble = (
            f"The server cannot keep this game ({why}): the last move or change "
            "was not made, and the clocks are stopped. Try again in a while."
        )

    def _settled(self, room: Room, flight: InFlight) -> None:
        """The room's changes in flight are all written (or refused and undone)."""
        host = self.host
        here = host.rooms.get(room.number) is room
        if here and flight.show and room.trouble is None:
            host.ai.search(room)
        if here and flight.show:
            host.show(room)
        if flight.tell:
            if here:
                for listener in host.listeners:
                    listener.changed(room)
            host.lobby.room_changed(room)
        for then in flight.settled:
            then()

    # ---- a room's game kept for its players, a room gone ---------------------------

    def archive(self, room: Room) -> None:
        """Keep the room's game among its players' games, after its changes in flight."""
        record = room_record(room)
        self._after(room.number, "could not keep its game", lambda s: RoomKeeper(s).archive(record))

    def forget(self, room: Room) -> None:
        """The room has closed: its game is kept for its players, it goes from the store
        and its lease is let go (if that fails it stays: back after a restart)."""
        record, server = room_record(room), self.leasing.leases

        def gone(store: Store) -> None:
            with store.transaction():
                RoomKeeper(store).forget(record)
                RoomLeases(store, server.server, server.seconds, server.clock).release(
                    record.number
                )

        self._after(room.number, "could not keep its game", gone)

    def _after(self, number: int, failed: str, job: Callable[[Store], None]) -> None:
        """A job of the room's after its changes in flight, void if one is refused."""
        epoch = self.epochs.get(number, 0)

        def write(store: Store) -> None:
            if self._refused.get(number, -1) >= epoch:
                raise Void("an earlier change to this room was not kept")
            job(store)

        def written(done: asyncio.Future[None]) -> None:
            error = done.exception()
            if error is not None:
                log.warning("room %d: %s: %s", number, failed, error)

        self._writers().submit(number, write).add_done_callback(written)

    def _writers(self) -> StoreWriters:
        if self.writers is None:
            raise RuntimeError("the room host has not started: its store is not open")
        return self.writers


def _nothing(store: Store) -> None:
    """A job that writes nothing: done when the jobs before it are."""
