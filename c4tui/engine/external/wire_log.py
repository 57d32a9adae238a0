"""The log of every line c4tui sends to an outside engine and reads from it (`--log FILE`).

Set by the commands that play games (arena, rate, sprt) through the environment
variable ENV, so worker processes, and the engines' hosts in them, inherit it. One line
a line of the protocol: the time, the process id of c4tui's side, the engine's title,
`>` for a line sent and `<` for one received, then the line. Each is one write on an
O_APPEND descriptor, so the lines of many engines in many processes never interleave
within a line. A log that cannot be written is given up on (noted once in c4tui's log),
never a failure of the game.
"""

from __future__ import annotations

import logging
import os
import time

ENV = "C4TUI_ENGINE_LOG"
log = logging.getLogger("c4tui.engine.external")


def open_log(path: str) -> int:
    """The log file at `path`, open to append (made if missing). O_NONBLOCK: a FIFO with
    no reader is refused at once (ENXIO) instead of waited on forever; one with a reader
    is fine, and its writes then wait as a file's do."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, 0o666)
    os.set_blocking(fd, True)
    return fd


class WireLog:
    """The open log of one outside engine's lines."""

    def __init__(self, path: str, title: str) -> None:
        self.path = path
        self.title = title
        self.fd: int | None = open_log(path)

    @classmethod
    def from_environment(cls, title: str) -> WireLog | None:
        path = os.environ.get(ENV)
        if not path:
            return None
        try:
            return cls(path, title)
        except OSError as error:
            log.info("engine log %s: %s; not logging %s", path, error.strerror, title)
            return None

    def note(self, direction: str, line: str) -> None:
        """Write one line: `>` sent to the engine, `<` received from it."""
        if self.fd is None:
            return
        stamp = time.strftime("%H:%M:%S") + f".{int(time.time() * 1000) % 1000:03d}"
        text = f"{stamp} {os.getpid()} {self.title} {direction} {line.rstrip(chr(10))}\n"
        try:
            os.write(self.fd, text.encode("utf-8", "replace"))
        except OSError as error:
            log.info("engine log %s: %s; no more lines logged", self.path, error.strerror)
            self.close()

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
