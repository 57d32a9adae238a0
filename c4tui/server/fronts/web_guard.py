"""The web port's guard: a request's head must arrive in time, and one address may hold
only so many connections open.

aiohttp waits as long as a client likes for a request's head, and takes any number of
connections: 3,000 half-sent requests from one address stayed open for 81 s (3,020 file
descriptors). So each connection is watched from its first byte (HeadGuard, between the
socket and aiohttp's own protocol, which it hands everything on to): its first request's
head (up to the empty line) must arrive within `--request-timeout`, or the connection is
closed; an address with `--max-connections-per-address` open has its next one closed at
once. After the head, aiohttp's own limits hold (keep-alive timeout, body sizes), and a
websocket or a bot's stream lives as long as it is used. Each refusal is one log line
(summarised under a flood: refusal_log.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable
from typing import Any

log = logging.getLogger("c4tui.server")
END_OF_HEAD = b"\r\n\r\n"


class OpenConnections:
    """The web port's open connections per address, within their limits."""

    def __init__(self, per_address: int, head_seconds: float) -> None:
        self.per_address, self.head_seconds = per_address, head_seconds
        self.open: Counter[str] = Counter()


class HeadGuard(asyncio.Protocol):
    """One connection: counted, timed until its request's head is in, then aiohttp's."""

    def __init__(self, inner: asyncio.Protocol, watch: OpenConnections) -> None:
        self.inner, self.watch = inner, watch
        self.address = "?"
        self.transport: asyncio.Transport | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.tail = b""  # the last bytes before the head's end was found
        self.admitted = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        if self.watch.open[self.address] >= self.watch.per_address:
            log.warning(
                "web %s: refused a connection: %d open from this address already",
                self.address,
                self.watch.per_address,
            )
            transport.abort()
            return
        self.admitted = True
        self.watch.open[self.address] += 1
        loop = asyncio.get_running_loop()
        self.timer = loop.call_later(self.watch.head_seconds, self._too_slow)
        self.inner.connection_made(transport)

    def _too_slow(self) -> None:
        log.warning(
            "web %s: closed a connection: no whole request within %g s",
            self.address,
            self.watch.head_seconds,
        )
        if self.transport is not None:
            self.transport.abort()

    def data_received(self, data: bytes) -> None:
        if not self.admitted:
            return
        if self.timer is not None:
            seen = self.tail + data
            if END_OF_HEAD in seen:
                self.timer.cancel()
                self.timer = None
                self.tail = b""
            else:
                self.tail = seen[-3:]
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.admitted else None

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.admitted:
            return
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.watch.open[self.address] -= 1
        if self.watch.open[self.address] <= 0:
            del self.watch.open[self.address]
        self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()


def guarded(factory: Callable[[], Any], watch: OpenConnections) -> Callable[[], HeadGuard]:
    """A protocol factory for loop.create_server: aiohttp's `factory`, each guarded."""
    return lambda: HeadGuard(factory(), watch)
