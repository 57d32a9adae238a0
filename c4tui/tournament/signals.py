"""Signals that stop a tournament: Ctrl-C, SIGTERM and SIGHUP all end it the same way.

`timeout`, `kill` and CI cancellation send SIGTERM; closing the terminal sends SIGHUP.
The first of them stops the run: its games stop, the summary of those played is
printed and every saved line stays whole. Later ones (a second Ctrl-C, or TERM, INT and
HUP within milliseconds, as a process manager sends them) are only noted.

Nothing is raised inside the signal handler: an exception raised at an arbitrary
bytecode can land inside a lock's release or a pool's shutdown ("release unlocked lock",
a hung run). The handler only records the signal; Python's wakeup fd wakes a watcher
thread, which calls the stop callbacks (set events, wake a waiting loop) outside it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable
from types import FrameType

STOP_SIGNALS: tuple[int, ...] = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)

Handler = Callable[[int, FrameType | None], object] | int | None


def _in_main_thread() -> bool:
    # Only the main thread may set signal handlers (and it is the one signals reach).
    return threading.current_thread() is threading.main_thread()


class StopSignals:
    """While entered, the first stop signal calls every `on_stop` callback (from a thread
    of its own), and later ones are noted in `later`.

    `received` is the signal that stopped the run (None if none did), and
    `exit_status` the shell's convention for it: 128 + the signal number.
    """

    def __init__(self) -> None:
        self.received: int | None = None
        self.later: list[int] = []
        self.stopped = threading.Event()
        self._callbacks: list[Callable[[], None]] = []
        self._previous: dict[int, Handler] = {}
        self._previous_fd = -1
        self._pipe: tuple[int, int] | None = None
        self._watcher: threading.Thread | None = None

    def on_stop(self, callback: Callable[[], None]) -> None:
        """Call `callback()` when the first stop signal comes (at once if it came)."""
        self._callbacks.append(callback)
        if self.stopped.is_set():
            callback()

    def __enter__(self) -> StopSignals:
        if not _in_main_thread():
            return self
        read_end, write_end = os.pipe()
        os.set_blocking(write_end, False)
        self._pipe = (read_end, write_end)
        self._watcher = threading.Thread(target=self._watch, name="stop-signals", daemon=True)
        self._watcher.start()
        self._previous_fd = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
        for signum in STOP_SIGNALS:
            # The handler does nothing: the wakeup fd carries the signal to the watcher.
            self._previous[signum] = signal.signal(signum, _noted)
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._pipe is None:
            return
        for signum, handler in self._previous.items():
            # Once stopped, the process is ending: a signal of the same burst arriving
            # late must not kill it while it prints the summary or exits.
            signal.signal(signum, signal.SIG_IGN if self.stopped.is_set() else handler)
        self._previous.clear()
        signal.set_wakeup_fd(self._previous_fd)
        read_end, write_end = self._pipe
        # A zero byte (no signal's number) ends the watcher; not the pipe's end, since
        # forked workers may hold a copy of its write end.
        os.write(write_end, b"\0")
        if self._watcher is not None:
            self._watcher.join()
        os.close(write_end)
        os.close(read_end)
        self._pipe = None

    def _watch(self) -> None:
        assert self._pipe is not None  # started by __enter__, after the pipe
        read_end = self._pipe[0]
        while True:
            try:
                data = os.read(read_end, 64)
            except OSError:
                return
            for signum in data:
                if signum == 0:
                    return
                self._receive(signum)
            if not data:
                return

    def _receive(self, signum: int) -> None:
        if self.received is not None:
            self.later.append(signum)
            return
        self.received = signum
        self.stopped.set()
        for callback in self._callbacks:
            callback()

    @property
    def exit_status(self) -> int:
        return 128 + (self.received or signal.SIGINT)

    @property
    def name(self) -> str:
        return signal.Signals(self.received or signal.SIGINT).name

    def later_words(self) -> str:
        """' (then SIGINT, SIGHUP: ignored while stopping)', or '' when none came later."""
        if not self.later:
            return ""
        names = []
        for signum in self.later:
            with contextlib.suppress(ValueError):
                names.append(signal.Signals(signum).name)
        return f" (then {', '.join(names)}: ignored while stopping)"


def _noted(_signum: int, _frame: FrameType | None) -> None:
    """A stop signal's Python handler: nothing to do here (see the module docstring)."""
