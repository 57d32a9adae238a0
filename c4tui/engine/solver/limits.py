"""When a solver's search must stop: a deadline, a stop event, and a progress tick.

One solver keeps one table, so one caller at a time searches with it: `SearchLimits.held`
takes the solver's lock for a block of work and sets the limits for it; on leaving, the
limits in force before come back. Blocks nest (the lock is re-entrant) and an inner
block only narrows: the earlier of the two deadlines, the inner stop event or else the
outer one, likewise the tick. So a caller may hold the solver for several searches
(`analyze`, then the best line) while each search states its own limits.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

TICK_SECONDS = 0.1  # between progress ticks of a search held with a tick


class SolverBusy(Exception):
    """The solver is held by another thread and the caller chose not to wait."""


class SearchLimits:
    """The limits of the search running now, and the lock that lets one caller search."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self.deadline: float | None = None
        self.stop: threading.Event | None = None
        self.tick: Callable[[], None] | None = None
        self._next_tick = 0.0
        # Copies the C analysis's bounds into the caller's columns before a tick.
        self.sync: Callable[[], None] | None = None

    @contextmanager
    def held(
        self,
        deadline: float | None = None,
        stop: threading.Event | None = None,
        tick: Callable[[], None] | None = None,
        *,
        wait: bool = True,
    ) -> Iterator[None]:
        """Hold the solver for a block of searches that raise SearchStopped past
        `deadline` (perf_counter) or once `stop` is set; `tick()` is called from inside
        the search about every TICK_SECONDS. `wait=False` raises SolverBusy at once
        when another thread holds it."""
        if not self._lock.acquire(blocking=wait):
            raise SolverBusy
        saved = (self.deadline, self.stop, self.tick)
        try:
            if deadline is not None and (self.deadline is None or deadline < self.deadline):
                self.deadline = deadline
            self.stop = stop or self.stop
            self.tick = tick or self.tick
            self._next_tick = time.perf_counter() + TICK_SECONDS
            yield
        finally:
            self.deadline, self.stop, self.tick = saved
            self._lock.release()

    @property
    def polled(self) -> bool:
        """Whether the search must call back to Python: for a stop event or a tick (a
        deadline alone the C search reads itself)."""
        return self.stop is not None or self.tick is not None

    def seconds_left(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.perf_counter()

    def expired(self) -> bool:
        """Asked every thousand nodes or so (Python) or every 10 ms (C): stop now?"""
        if self.stop is not None and self.stop.is_set():
            return True
        if self.tick is None and self.deadline is None:
            return False
        now = time.perf_counter()
        if self.tick is not None and now >= self._next_tick:
            # A long null-window search would otherwise be silent for seconds.
            self._next_tick = now + TICK_SECONDS
            if self.sync is not None:
                self.sync()
            self.tick()
        return self.deadline is not None and now >= self.deadline
