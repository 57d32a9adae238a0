"""Signals that stop a tournament: Ctrl-C, SIGTERM and SIGHUP all end it the same way.

`timeout`, `kill` and CI cancellation send SIGTERM; closing the terminal sends SIGHUP.
Each becomes a KeyboardInterrupt, so the run stops its games, prints the summary of
those played and keeps every saved line whole, exactly as after Ctrl-C.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

STOP_SIGNALS: tuple[int, ...] = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)

Handler = Callable[[int, FrameType | None], object] | int | None


def _in_main_thread() -> bool:
    # Only the main thread may set signal handlers (and it is the one signals reach).
    return threading.current_thread() is threading.main_thread()


class StopSignals:
    """While entered, SIGTERM and SIGHUP raise KeyboardInterrupt, as Ctrl-C does.

    `received` is the signal that stopped the run (None if none did), and
    `exit_status` the shell's convention for it: 128 + the signal number.
    """

    def __init__(self) -> None:
        self.received: int | None = None
        self._previous: dict[int, Handler] = {}

    def __enter__(self) -> StopSignals:
        if _in_main_thread():
            for signum in STOP_SIGNALS:
                self._previous[signum] = signal.signal(signum, self._stop)
        return self

    def __exit__(self, *exc_info: object) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)
        self._previous.clear()

    def _stop(self, signum: int, _frame: FrameType | None) -> None:
        if self.received is None:
            self.received = signum
        raise KeyboardInterrupt

    @property
    def exit_status(self) -> int:
        return 128 + (self.received or signal.SIGINT)

    @property
    def name(self) -> str:
        return signal.Signals(self.received or signal.SIGINT).name


@contextmanager
def interrupts_held() -> Iterator[None]:
    """Hold stop signals back for a moment, so a game is saved and counted, or neither.

    A signal that arrives inside is delivered to the handler that was in place, on the
    way out.
    """
    if not _in_main_thread():
        yield
        return
    caught: list[int] = []
    previous = {
        signum: signal.signal(signum, lambda signum, frame: caught.append(signum))
        for signum in STOP_SIGNALS
    }
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if caught:
            handler = previous[caught[0]]
            if callable(handler):
                handler(caught[0], None)  # e.g. the default SIGINT handler raises
            elif handler == signal.SIG_DFL:
                signal.raise_signal(caught[0])  # the default action, now
