"""Playing the games of a tournament in worker processes that never outlive their parent.

Tasks are handed to the pool a few at a time, as games end, so a schedule of any length
runs in the same memory. A worker ends when its parent does, whatever killed the parent:
on Linux the kernel sends it SIGKILL (prctl PR_SET_PDEATHSIG); everywhere, a watchdog
thread sees it has been re-parented and exits. Signals meant for the run (Ctrl-C to the
process group, SIGTERM, SIGHUP) are the parent's to handle: workers ignore them and stop
their game when the parent sets the stop event.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import (
    FIRST_COMPLETED,
    Future,
    InvalidStateError,
    ProcessPoolExecutor,
    wait,
)
from concurrent.futures.process import BrokenProcessPool
from itertools import islice
from multiprocessing.synchronize import Event as ProcessEvent
from typing import Any, Generic, TypeVar, cast, overload

from c4tui.engine.external.child import ignore_here
from c4tui.tournament.games import EngineError, GameAborted, GameTask, PlayedGame, play_game

# What ends a run of games early, whatever command runs it: an engine that raised (a bug,
# not bad input) or a worker process killed from outside. The games so far still count.
RUN_FAILURES = (EngineError, BrokenProcessPool)


def run_failure(error: EngineError | BrokenProcessPool) -> str:
    """Why a run of games stopped, in the one line a command prints (status 1)."""
    if isinstance(error, BrokenProcessPool):
        return "a worker process died (killed from outside?)"
    return str(error)


PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
WATCHDOG_SECONDS = 0.5  # how often a worker checks that its parent is alive
TASKS_PER_WORKER = 2  # queued per worker: one running, one ready to start

_worker_stop: threading.Event | None = None

Record = TypeVar("Record")
# How a task becomes a record: play_game by default; `c4tui rate` also judges the moves.
Play = Callable[[GameTask, threading.Event | None], Record]


def end_with_parent(parent: int) -> None:
    """Make this process exit when process `parent` (its parent) ends."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # no prctl: the watchdog below still ends the worker
    # The parent may have died before prctl took effect: then we were re-parented already.
    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCHDOG_SECONDS)
    os._exit(1)


def _start_worker(stop: ProcessEvent, parent: int) -> None:
    global _worker_stop
    _worker_stop = cast(threading.Event, stop)  # a process-shared Event: the same set/is_set
    # The run's process handles these; the outside engines a worker starts must not
    # inherit them ignored.
    ignore_here(signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    signal.set_wakeup_fd(-1)  # the parent's, inherited by the fork
    end_with_parent(parent)


def _play_in_worker(play: Play[Any] | None, task: GameTask) -> Any:
    try:
        return (play or play_game)(task, _worker_stop)
    except GameAborted:
        return None


class GameRunner(Generic[Record]):
    """Plays the scheduled games in `jobs` processes and yields each record as it ends.

    `play(task, stop)` plays one game and returns its record (`play_game`'s PlayedGame
    unless another is given: a module-level function, so workers can be sent it); it
    raises GameAborted when `stop` is set.

    Use it as a context manager: entering starts the worker processes (before any
    thread of the caller's, such as a progress bar, since workers are forked from this
    process), leaving stops them. `stop()` (from any thread: a signal's watcher), or a
    KeyboardInterrupt while waiting for games, stops the running ones at once, drops the
    ones not started, still yields the games that had finished, and sets `interrupted`.
    `tasks` may be an endless-looking generator: it is read only as workers become free.
    """

    @overload
    def __init__(
        self: GameRunner[PlayedGame], tasks: Iterable[GameTask], jobs: int = 1, play: None = None
    ) -> None: ...

    @overload
    def __init__(self, tasks: Iterable[GameTask], jobs: int = 1, *, play: Play[Record]) -> None: ...

    def __init__(
        self,
        tasks: Iterable[GameTask],
        jobs: int = 1,
        play: Play[Record] | None = None,
    ) -> None:
        if jobs < 1:
            raise ValueError("jobs must be at least 1")
        self.tasks = iter(tasks)
        self.play = play  # None: play_game, looked up where the game is played
        self.jobs = jobs
        self.interrupted = False
        self._pool: ProcessPoolExecutor | None = None
        self._stop: ProcessEvent | None = None  # the workers' stop
        self._stop_here = threading.Event()  # this process's: games played in process
        self._wake: Future[None] = Future()  # done when stopped, so a wait for games returns
        self._running: set[Future[Any]] = set()

    def __enter__(self) -> GameRunner[Record]:
        if self.jobs > 1 and self._pool is None:
            context = multiprocessing.get_context()
            stop = self._stop = context.Event()
            self._pool = ProcessPoolExecutor(
                self.jobs,
                mp_context=context,
                initializer=_start_worker,
                initargs=(stop, os.getpid()),
            )
            self._submit_more()  # the workers start now, before the caller's threads
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def stop(self) -> None:
        """Stop the run: running games end, no new one starts. Safe from any thread."""
        self._stop_here.set()
        if self._stop is not None:
            self._stop.set()
        if not self._wake.done():
            with contextlib.suppress(InvalidStateError):  # two stops at once
                self._wake.set_result(None)

    def close(self) -> None:
        """Stop the running games, drop the queued ones, and end the worker processes."""
        if self._pool is None:
            return
        if self._stop is not None:
            self._stop.set()
        for future in self._running:
            future.cancel()
        self._pool.shutdown(wait=True)
        self._pool = None

    def __iter__(self) -> Iterator[Record]:
        if self.jobs == 1:
            yield from self._in_process()
            return
        with self:
            yield from self._from_pool()

    def _in_process(self) -> Iterator[Record]:
        for task in self.tasks:
            try:
                if self._stop_here.is_set():
                    raise GameAborted
                play: Play[Any] = self.play or play_game
                record = play(task, self._stop_here)
            except (KeyboardInterrupt, GameAborted):
                self.interrupted = True
                return
            yield record

    def _submit_more(self) -> None:
        room = self.jobs * TASKS_PER_WORKER - len(self._running)
        assert self._pool is not None  # entered: the workers run
        for task in islice(self.tasks, max(room, 0)):
            self._running.add(self._pool.submit(_play_in_worker, self.play, task))

    def _from_pool(self) -> Iterator[Record]:
        running = self._running
        try:
            while running and not self._stop_here.is_set():
                done, _ = wait(running | {self._wake}, return_when=FIRST_COMPLETED)
                for future in done - {self._wake}:
                    running.discard(future)
                    record = future.result()
                    if record is not None:
                        yield record
                if not self._stop_here.is_set():
                    self._submit_more()
        except KeyboardInterrupt:
            self._stop_here.set()
        if not self._stop_here.is_set():
            return  # every game played
        self.interrupted = True
        if self._stop is not None:
            self._stop.set()
        for future in running:
            future.cancel()
        # Running games see the stop event within milliseconds and return None.
        wait(running)
        for future in list(running):
            running.discard(future)
            if future.cancelled() or future.exception() is not None:
                continue
            record = future.result()
            if record is not None:
                yield record
