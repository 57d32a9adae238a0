"""A search thread that steps aside while the person at the keyboard is acting.

Python runs one thread at a time (the GIL). With two busy threads, CPython hands the GIL
back and forth every switch interval, so while the AI searches, the UI thread gets about
half the processor and every key takes about twice as long to reach the screen. The app
marks each input event on a `UiActivity`; the search's stop event is a `CourteousStop`,
which every engine polls many times a second, and which sleeps (off the GIL) for as long
as the UI is busy. A key costs the search a few tens of milliseconds; the user gets the
whole processor for the redraw.
"""

from __future__ import annotations

import threading
import time

BUSY_WINDOW = 0.04  # seconds a key or click keeps the UI "busy": its handling and redraw
NAP = 0.004  # seconds the search sleeps at a time while the UI is busy


class UiActivity:
    """When the UI last saw input; read from search threads, written from the UI."""

    def __init__(self, window: float = BUSY_WINDOW) -> None:
        self.window = window
        self._busy_until = 0.0

    def touch(self) -> None:
        """The user just acted: keep the UI busy for the next `window` seconds."""
        self._busy_until = time.perf_counter() + self.window

    def busy(self) -> bool:
        return time.perf_counter() < self._busy_until


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
