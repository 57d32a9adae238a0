"""How a search shares the processor with the app's UI thread: c4tui's one GIL policy.

Python runs one thread at a time (the GIL). While the AI searches in a thread, the app's
UI thread must still get the GIL quickly, or every key waits behind the search. Four
measures, all here, keep keys quick at a small cost to the search:

1. The switch interval. A thread holding the GIL hands it over only when another asks
   and the interval (5 ms by default) has passed; the UI thread, waking from select()
   several times per key, would wait that long each time. While the app runs, the
   interval is 0.5 ms (`QuickSwitching`), and the previous value comes back when the
   app ends, so a program that embeds the app keeps its own.
2. Long C calls release the GIL, short ones keep it. The solver's search in C
   (kernels/search.c) runs for up to seconds: it is called through `long_calls`
   (ctypes.CDLL, which releases the GIL for the call), reads its stop flag and deadline
   without Python, and takes the GIL back only to ask a stop event or report progress
   (at most every 10 ms, and only when there is one: kernels/stops.c), and, in the
   analysis of every column (kernels/columns.c), to report each column as it is
   proven. Its helper thread, started for long positions, is a C thread: it takes the
   GIL only for the same two questions. MCTS's random game in C (playout.c) takes a
   microsecond or two: it is called through `short_calls`
   (ctypes.PyDLL, which keeps the GIL), because releasing and retaking the GIL around so
   short a call costs more than the call and hands the GIL to the UI thousands of times
   a second, which measured slower keys (benchmarks/app_latency.py: p95 about 90 ms,
   not 40).
3. A pause after each progress message. The search thread sleeps `UI_SHARE` after
   posting its ~10 progress messages a second (`step_aside`), so the UI draws each one
   without competing: about 5% of the search's time.
4. A courteous stop. The app marks each input event on a `UiActivity`; the search's
   stop event is a `CourteousStop`, which every engine polls many times a second and
   which naps (off the GIL) while the UI is busy. A key costs the search a few tens of
   milliseconds; the user gets the whole processor for the redraw. A set stop never
   waits.

The command line runs no UI thread and uses none of this but the choice in 2.
"""

from __future__ import annotations

import ctypes
import sys
import threading
import time

SWITCH_INTERVAL = 0.0005  # seconds between GIL hand-overs while the app runs (1.)
UI_SHARE = 0.005  # seconds the search sleeps after each progress message (3.)
BUSY_WINDOW = 0.04  # seconds a key or click keeps the UI "busy": its handling and redraw
NAP = 0.004  # seconds the search sleeps at a time while the UI is busy (4.)


class QuickSwitching:
    """The short switch interval while the app runs, the previous one restored after."""

    def __init__(self, interval: float = SWITCH_INTERVAL) -> None:
        self.interval = interval
        self._previous: float | None = None

    def start(self) -> None:
        if self._previous is None:
            self._previous = sys.getswitchinterval()
            sys.setswitchinterval(self.interval)

    def stop(self) -> None:
        if self._previous is not None:
            sys.setswitchinterval(self._previous)
            self._previous = None

    def __enter__(self) -> QuickSwitching:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def long_calls(path: str) -> ctypes.CDLL:
    """A C library whose calls release the GIL while they run (2.)."""
    return ctypes.CDLL(path)


def short_calls(path: str) -> ctypes.PyDLL:
    """A C library whose calls keep the GIL (2.): for calls of microseconds."""
    return ctypes.PyDLL(path)


def step_aside() -> None:
    """Leave the GIL to the UI while it draws the progress just posted (3.)."""
    time.sleep(UI_SHARE)


class UiActivity:
    """When the UI last saw input; read from search threads, written from the UI (4.)."""

    def __init__(self, window: float = BUSY_WINDOW) -> None:
        self.window = window
        self._busy_until = 0.0

    def touch(self) -> None:
        """The user just acted: keep the UI busy for the next `window` seconds."""
        self._busy_until = time.perf_counter() + self.window

    def busy(self) -> bool:
        return time.perf_counter() < self._busy_until

    def idle_for(self) -> float:
        """Seconds since the user last acted (since long ago before any input)."""
        return time.perf_counter() - (self._busy_until - self.window)


class CourteousStop(threading.Event):
    """A stop event whose polling waits while the UI is busy (a set stop never waits)."""

    def __init__(self, activity: UiActivity) -> None:
        super().__init__()
        self._activity = activity

    def is_set(self) -> bool:
        while not super().is_set() and self._activity.busy():
            # wait() rather than sleep(): setting the event ends the nap at once.
            self.wait(NAP)
        return super().is_set()
