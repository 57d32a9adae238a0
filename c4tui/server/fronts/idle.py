"""The idle timeout: an ssh session or a web tab without a key press is ended, with a message."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Collection
from typing import Protocol

from c4tui.server.fronts.session_limits import Gate

log = logging.getLogger("c4tui.server")


class Session(Protocol):
    """What the idle watch needs of an ssh session or a web tab."""

    address: str
    last_input: float  # time.monotonic() of the last key
    ending: str | None  # why the server is ending it, once it is

    async def end(self, message: str) -> None: ...


def idle_message(timeout: float) -> str:
    span = f"{timeout / 60:g} minutes" if timeout >= 60 else f"{timeout:g} s"
    return f"closed after {span} without a key press"


async def end_idle_sessions(gate: Gate, sessions: Collection[Session], front: str) -> None:
    """Forever: end each session of `sessions` that had no key for the idle timeout."""
    ending: set[asyncio.Task[None]] = set()
    while True:
        timeout = gate.limits.idle_timeout
        await asyncio.sleep(max(0.2, min(timeout / 4, 30.0)))
        now = time.monotonic()
        for session in list(sessions):
            if session.ending is None and now - session.last_input >= timeout:
                log.info("%s %s: no key for %g s, closed", front, session.address, timeout)
                task = asyncio.create_task(session.end(idle_message(timeout)))
                ending.add(task)
                task.add_done_callback(ending.discard)
