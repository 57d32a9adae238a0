"""The AI seats' searches: a bounded pool of worker processes, fed in turn.

Searches wait in one line per player, and the players take turns (round robin): one
player's twenty rooms cannot make another player's AI reply wait for all twenty, only
for one search at most per worker. `workers` processes take them one at a time
(worker.py), each search capped at the server's AI seconds: a room whose
engine is slow or busy cannot hold a worker longer than that, nor starve other rooms of
the CPU (the engines are Python and C; processes, not threads, so they truly run side
by side and a crash takes down one worker, which is replaced). Progress comes back at
about 10 Hz and is handed to the search's `on_info`, on the event loop.

The pipes are read in threads (a `Connection` has no asyncio reader); everything else
happens on the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from c4tui.engine.players.contract import SearchInfo
from c4tui.server.rooms import worker
from c4tui.server.rooms.worker import SearchJob
from c4tui.server.wire.protocol import ProtocolError, info_from_wire

log = logging.getLogger("c4tui.server")
GRACE = 10.0  # seconds past its budget before a silent worker is killed and replaced
POLL = 0.5  # seconds a pipe reader waits before looking whether it should stop


@dataclass(eq=False)
class PooledSearch:
    """One search in the pool; `stop()` asks it for its best move now."""

    job: SearchJob
    on_info: Callable[[SearchInfo], None]
    on_done: Callable[[int, SearchInfo], None]
    on_failed: Callable[[str], None]
    number: int = 0
    cancelled: bool = False
    _worker: _Worker | None = field(default=None, repr=False)

    def stop(self) -> None:
        if self._worker is not None:
            self._worker.send(("stop", self.number))

    def cancel(self) -> None:
        """Nobody wants the result: stop it, and drop whatever it still sends."""
        self.cancelled = True
        self.stop()


class _Worker:
    """One worker process and its end of the pipe."""

    def __init__(self, context: Any) -> None:  # a multiprocessing context (its Pipe, Process)
        self.conn, child = context.Pipe()
        self.process = context.Process(
            target=worker.serve, args=(child,), name="c4tui-ai", daemon=True
        )
        self.process.start()
        child.close()

    def send(self, message: object) -> None:
        # A worker that died cannot be told; its runner notices and replaces it.
        with contextlib.suppress(OSError, ValueError):
            self.conn.send(message)

    def receive(self) -> Any:  # a worker's message: a tuple as worker.py sends it
        """The next message, None when there was none for POLL seconds (runs in a thread)."""
        if self.conn.poll(POLL):
            return self.conn.recv()
        return None

    def end(self, wait: float = 2.0) -> None:
        self.send(None)
        self.process.join(wait)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(wait)
        self.conn.close()


class AiPool:
    """`workers` processes that run the AI seats' searches, the players taking turns."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._context = multiprocessing.get_context("spawn")  # no fork of a threaded server
        self._waiting: dict[str, deque[PooledSearch]] = {}  # each player's line
        self._turns: deque[str] = deque()  # the players with searches waiting, next first
        self._ready = asyncio.Event()  # set when a search is added
        self._runners: list[asyncio.Task[None]] = []
        self._live: list[_Worker | None] = [None] * self.workers
        self._threads = ThreadPoolExecutor(self.workers, thread_name_prefix="c4tui-ai-pipe")
        self._numbers = itertools.count(1)

    def search(
        self,
        job: SearchJob,
        on_info: Callable[[SearchInfo], None],
        on_done: Callable[[int, SearchInfo], None],
        on_failed: Callable[[str], None],
        player: str = "",
    ) -> PooledSearch:
        """Queue a search in `player`'s line; its callbacks run on the event loop."""
        if not self._runners:
            self._runners = [asyncio.create_task(self._run(i)) for i in range(self.workers)]
        search = PooledSearch(job, on_info, on_done, on_failed, next(self._numbers))
        if player not in self._waiting:
            self._waiting[player] = deque()
            self._turns.append(player)
        self._waiting[player].append(search)
        self._ready.set()
        return search

    async def _next(self) -> PooledSearch:
        """The next search to run: the first of the player whose turn it is."""
        while True:
            while self._turns:
                player = self._turns.popleft()
                line = self._waiting[player]
                search = line.popleft()
                if line:
                    self._turns.append(player)  # to the back: the others go first
                else:
                    del self._waiting[player]
                if not search.cancelled:
                    return search
            self._ready.clear()
            await self._ready.wait()

    async def close(self) -> None:
        for runner in self._runners:
            runner.cancel()
        await asyncio.gather(*self._runners, return_exceptions=True)
        self._runners = []
        loop = asyncio.get_running_loop()
        ends = [loop.run_in_executor(None, w.end) for w in self._live if w is not None]
        await asyncio.gather(*ends)
        self._live = [None] * self.workers
        self._threads.shutdown(wait=True, cancel_futures=True)

    async def start(self) -> None:
        """Start every worker now rather than at the first search (a server that wants
        its first AI move without the wait, or a process whose stderr is no file, as
        under a Textual test: a worker started then would fail)."""
        loop = asyncio.get_running_loop()
        for index in range(self.workers):
            if self._live[index] is None:
                self._live[index] = await loop.run_in_executor(None, _Worker, self._context)

    async def _run(self, index: int) -> None:
        while True:
            search = await self._next()
            work = self._live[index]
            if work is None or not work.process.is_alive():
                try:
                    work = await asyncio.get_running_loop().run_in_executor(
                        None, _Worker, self._context
                    )
                except (OSError, ValueError) as error:  # the search fails, the pool lives
                    log.warning("AI worker %d could not start: %s", index, error)
                    search.on_failed(f"the AI's worker process could not start ({error})")
                    continue
                self._live[index] = work
            await self._follow(index, work, search)

    async def _follow(self, index: int, work: _Worker, search: PooledSearch) -> None:
        """Hand the search to the worker and pass on what comes back until it is done."""
        loop = asyncio.get_running_loop()
        search._worker = work
        work.send(("search", search.number, search.job))
        if search.cancelled:  # cancelled while the worker started
            search.stop()
        deadline = loop.time() + search.job.seconds + GRACE
        while True:
            try:
                message = await loop.run_in_executor(self._threads, work.receive)
            except (EOFError, OSError):
                message = self._lose(index, "the AI's worker process ended")
            if message is None:
                if loop.time() < deadline:
                    continue
                message = self._lose(index, "the AI took too long and was stopped")
            if message[0] == "info":
                if not search.cancelled:
                    try:
                        search.on_info(info_from_wire(message[1]))
                    except ProtocolError as error:
                        log.warning("AI worker %d: %s", index, error)
                continue
            search._worker = None
            if search.cancelled:
                return
            if message[0] == "done":
                search.on_done(message[1], info_from_wire(message[2]))
            else:
                search.on_failed(message[1])
            return

    def _lose(self, index: int, reason: str) -> tuple[str, str]:
        """A worker that died or went silent: end it (a new one takes its place)."""
        log.warning("AI worker %d: %s; replaced", index, reason)
        work = self._live[index]
        self._live[index] = None
        if work is not None:
            asyncio.get_running_loop().run_in_executor(None, work.end, 0.5)
        return ("failed", reason)
