"""QuietDriver: Textual's Linux driver, whose input thread sleeps until a key comes.

Textual's input thread wakes ten times a second to look for keys, whether any came or
not, so that a lone Esc is told apart from the start of a longer sequence once the
escape delay has passed, and so that it sees when to stop. Each wake takes the
interpreter's lock from the event loop: a served client doing nothing spent 1.7 ms of
CPU a second that way (ten wakes, on a loaded machine), and a server holds dozens of
them. This thread instead waits on the terminal and on a pipe of its own, with no
timeout, except just after a key while the parser may still hold a part of one: then it
wakes once, when the escape delay has passed, to let the parser finish it. Stopping
writes a byte to the pipe.

It leans on the Linux driver's insides (its `exit_event`, `fileno`, the parser of
`textual._xterm_parser`), as textual_internals.py does elsewhere: an upgrade that moves
them breaks tests/app/test_quiet_driver.py loudly.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import threading
import time
from codecs import getincrementaldecoder
from typing import Any

from textual import constants
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver

# After the last bytes of input, how long the parser may wait for more before it says
# what it has (a lone Esc): Textual's escape delay, and a little to be sure it passed.
SETTLE = constants.ESCAPE_DELAY + 0.01
READ_SIZE = 4096


class WakingEvent(threading.Event):
    """An event whose setting also wakes the input thread's wait (a byte on its pipe)."""

    def __init__(self, wake: int) -> None:
        super().__init__()
        self.wake: int | None = wake  # None once the pipe is closed

    def set(self) -> None:
        super().set()
        if self.wake is None:
            return
        with contextlib.suppress(BlockingIOError):  # full: bytes already wait to wake it
            os.write(self.wake, b"\0")


class QuietDriver(LinuxDriver):
    """The Linux driver with an input thread that sleeps while no key comes."""

    def __init__(self, app: Any, **options: Any) -> None:
        super().__init__(app, **options)
        self._woken, wake = os.pipe()
        os.set_blocking(self._woken, False)
        os.set_blocking(wake, False)
        self.exit_event: WakingEvent = WakingEvent(wake)

    def run_input_thread(self) -> None:
        parser = XTermParser(self._debug)
        decode = getincrementaldecoder("utf-8")().decode
        with selectors.PollSelector() as selector:
            selector.register(self.fileno, selectors.EVENT_READ, "keys")
            selector.register(self._woken, selectors.EVENT_READ, "woken")
            last_input: float | None = None  # while the parser may hold part of a key
            while not self.exit_event.is_set():
                timeout = None if last_input is None else last_input + SETTLE - time.monotonic()
                for key, _mask in selector.select(None if timeout is None else max(0.0, timeout)):
                    if key.data == "woken":
                        self._drain_wakes()
                        continue
                    data = os.read(self.fileno, READ_SIZE)
                    if not data:  # the end of input (a pipe): nothing more to wait for
                        selector.unregister(self.fileno)
                        continue
                    last_input = time.monotonic()
                    for event in parser.feed(decode(data)):
                        self.process_message(event)
                for event in parser.tick():  # a lone Esc, once the delay has passed
                    self.process_message(event)
                if last_input is not None and time.monotonic() >= last_input + SETTLE:
                    last_input = None

    def _drain_wakes(self) -> None:
        with contextlib.suppress(BlockingIOError):  # drained
            while os.read(self._woken, 64):
                pass

    def close(self) -> None:
        super().close()
        wake, self.exit_event.wake = self.exit_event.wake, None
        if wake is not None:  # not closed before
            os.close(wake)
            os.close(self._woken)
