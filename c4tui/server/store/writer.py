"""StoreWriters: the store's writes done off the event loop, each in its turn.

The store's interface is synchronous (store.py); a commit costs a fraction of a
millisecond on SQLite but a round trip or several, and a flush, on PostgreSQL, and a
database that is frozen holds a statement until its timeout. So the room service hands
its rooms' writes to writers: each a thread with a connection of its own (`Store.another`),
doing its jobs one at a time in the order they were given, and answering each with an
asyncio future on the loop that gave it. The loop serves everyone else meanwhile.

A job is keyed (a room's number): the same key always goes to the same writer, so one
room's changes are kept in the order they were made, while other rooms' go on in the
other writers. SQLite takes one writer (it has one write lock, which a second would
only wait for); PostgreSQL takes as many as the operator says (`--store-writers`,
RoomLimits.store_writers), each a connection of its own.

The server's own statements (its leases renewed, its heartbeats) go to one more writer,
the chores (`chores`): on PostgreSQL a connection of its own, so that they wait behind no
room's writes and no room's writes behind them; on SQLite the one writer.

A job runs in the writer's thread: it may touch only its Store and what it was handed
(never a room the loop is changing), and what it raises is its future's exception.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from c4tui.server.store.store import Store, StoreGone

T = TypeVar("T")
log = logging.getLogger("c4tui.server")
_STOP = None  # put on a writer's queue: it ends


class StoreWriter:
    """One thread writing through its own connection, one job at a time, in order."""

    def __init__(self, store: Store, name: str) -> None:
        self.store = store  # this writer's own connection (tests make it refuse)
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def submit(self, job: Callable[[Store], T]) -> asyncio.Future[T]:
        """Do `job(store)` in this writer's thread after the jobs given before; its
        result (or exception) comes as the future's, on the running loop."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put((job, future, loop))
        return future

    def _run(self) -> None:
        while True:
            item = self._jobs.get()
            if item is _STOP:
                return
            job, future, loop = item
            try:
                result = job(self.store)
            except BaseException as error:  # the caller's to judge, on its loop
                _answer(loop, future, None, error)
            else:
                _answer(loop, future, result, None)

    def stop(self) -> None:
        """Do the jobs given so far, then end the thread and close the connection."""
        self._jobs.put(_STOP)
        self._thread.join()
        with contextlib.suppress(Exception):
            self.store.close()


def _answer(
    loop: asyncio.AbstractEventLoop,
    future: asyncio.Future[Any],
    result: Any,
    error: BaseException | None,
) -> None:
    """Settle `future` on its loop (from a writer's thread); nothing if the loop closed."""

    def settle() -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)

    with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits any more
        loop.call_soon_threadsafe(settle)


class StoreWriters:
    """The writers of one store: one for SQLite, `postgresql` for PostgreSQL."""

    def __init__(self, store: Store, postgresql: int) -> None:
        """Connections of their own to `store`'s database, `postgresql` of them on
        PostgreSQL (at least 1); one that finds the database gone (StoreGone) tells
        `store.on_gone`, on the loop, as the store itself would."""
        if postgresql < 1:
            raise ValueError(f"{postgresql} writers: at least 1")
        count = postgresql if store.dialect == "postgresql" else 1
        self.main = store
        self.loop = asyncio.get_running_loop()
        self.writers: list[StoreWriter] = []
        self._chores: StoreWriter | None = None
        try:
            for index in range(count):
                self.writers.append(self._writer(f"c4tui-store-writer-{index}"))
            if store.dialect == "postgresql":
                self._chores = self._writer("c4tui-store-chores")
        except BaseException:
            self.close()
            raise

    def _writer(self, name: str) -> StoreWriter:
        connection = self.main.another()
        connection.on_gone = self._gone
        return StoreWriter(connection, name)

    @property
    def chores(self) -> StoreWriter:
        """The writer of the server's own statements (see the module)."""
        return self._chores or self.writers[0]

    def of(self, key: int) -> StoreWriter:
        """The writer of key `key` (a room's number): always the same one."""
        return self.writers[key % len(self.writers)]

    def submit(self, key: int, job: Callable[[Store], T]) -> asyncio.Future[T]:
        return self.of(key).submit(job)

    @property
    def away(self) -> str | None:
        """Why the database cannot be reached, as any of the connections found it."""
        every = [*self.writers, *([self._chores] if self._chores else [])]
        for store in [self.main, *(writer.store for writer in every)]:
            if store.away is not None:
                return store.away
        return None

    def _gone(self, error: StoreGone) -> None:
        told = self.main.on_gone
        if told is not None:
            with contextlib.suppress(RuntimeError):
                self.loop.call_soon_threadsafe(told, error)

    def close(self) -> None:
        """Every job given is done, the threads end and the connections close (it
        blocks: the room service calls it once, at its close, in a thread)."""
        for writer in [*self.writers, *([self._chores] if self._chores else [])]:
            writer.stop()
        self.writers, self._chores = [], None
