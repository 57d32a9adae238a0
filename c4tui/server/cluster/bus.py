"""The bus: servers of one community telling each other things (several servers, issue 36).

    host.bus.on("tourney.paired", handler)          # handler(body: dict, sender: str)
    host.bus.broadcast("tourney.paired", {...})     # to every OTHER server
    host.bus.send(server, "relay.message", {...}, line)  # to one server (relays, relay.py)

A message is a kind (a short dotted name: the part that owns it, then what happened) and
a JSON-able dict; one sent to one server may carry a protocol line too (`line`, as
protocol.encode made it), which goes as it is, not encoded again inside the message's
JSON, and comes to the handler as bytes, in the body's "line" (relayed views).

Sending never blocks and never fails the sender: a message goes out in the order it was
sent, after the call returns; one that cannot go (the database is gone)
is logged and dropped, as the servers' heartbeats tell the others soon enough. A handler
runs on the event loop, one message at a time, in the order they were sent by each
server; a handler that raises is logged and the next message is delivered.

On SQLite (one machine, one server) there is no other server: `LocalBus` delivers
nothing. On PostgreSQL, `PostgresBus` (bus_postgres.py) carries messages by
LISTEN/NOTIFY.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

log = logging.getLogger("c4tui.bus")
Handler = Callable[[dict[str, Any], str], None]  # (body, the server that sent it)


class Bus(ABC):
    """The servers' messages (see the module docstring): this server is `server`."""

    def __init__(self, server: str) -> None:
        self.server = server
        self._handlers: dict[str, list[Handler]] = {}
        # Set by a server that is stopping: what comes now would change rooms whose last
        # changes are being written, with nothing left to write them; it is not handled.
        self.deaf = False

    def on(self, kind: str, handler: Handler) -> None:
        """Call `handler(body, sender)` with every message of `kind` from another server."""
        self._handlers.setdefault(kind, []).append(handler)

    @abstractmethod
    def broadcast(self, kind: str, body: dict[str, Any]) -> None:
        """`body` to every other server (JSON-able; never blocks)."""

    @abstractmethod
    def send(self, server: str, kind: str, body: dict[str, Any], line: bytes = b"") -> None:
        """`body` to the server `server` only (never blocks), with `line` when given: a
        protocol line (it ends with its only newline), handed over as body["line"]."""

    @abstractmethod
    async def start(self) -> None:
        """Start hearing the other servers (called by the host at its start)."""

    @abstractmethod
    async def close(self) -> None:
        """Stop; messages not yet sent are sent first, when they can be."""

    def deliver(self, kind: str, body: dict[str, Any], sender: str) -> None:
        """Hand a message that came in to its handlers (the bus's own transport calls it)."""
        if self.deaf:
            return
        for handler in self._handlers.get(kind, ()):
            try:
                handler(body, sender)
            except Exception:
                log.exception("bus: %s from %s could not be handled", kind, sender)


class LocalBus(Bus):
    """One server alone (SQLite): there is nobody to tell."""

    def broadcast(self, kind: str, body: dict[str, Any]) -> None:
        pass

    def send(self, server: str, kind: str, body: dict[str, Any], line: bytes = b"") -> None:
        if server != self.server:
            log.warning("bus: %s for %s, but this server is alone", kind, server)

    async def start(self) -> None:
        """Nothing to hear."""

    async def close(self) -> None:
        """Nothing to send."""
