"""PostgresBus: the servers' bus on PostgreSQL's LISTEN/NOTIFY (bus.py says what a bus is).

Why LISTEN/NOTIFY: the servers share the database already, so it is the one thing they
must all reach; a notification is delivered to every listening connection once its
transaction commits, in commit order, with nothing else to run or keep.

Two connections of the bus's own, both asynchronous (psycopg's AsyncConnection, on the
room service's event loop, so nothing here blocks it): one only listens, the other sends
(`pg_notify`) and reads long messages. The store's connection is left alone: a
notification sent inside its transaction would wait for the commit, and its statements
are on the loop's critical path.

Channels are per community: named from the database and the schema (several
communities, or the tests' schemas, on one PostgreSQL never hear each other), one
channel for every server (`broadcast`) and one per server (`send`), named from a hash
of the server's name (channel names are identifiers of at most 63 bytes).

A notification is one or more messages, one a line: its JSON (kind, sender, body), and
when it carries a protocol line ("r" in its JSON), that line next, as it is (a protocol
line is JSON with no newline in it but its last). So a room's view relayed to a player
on another server is neither escaped into a JSON string nor read on its way.

A payload must be under 8000 bytes. A longer message (a room with a long chat, a big
tournament) is not refused: it is written to `bus_letters` and only its id is
notified; the receiver reads the row before delivering anything after it, so messages
keep their order. Refusing would lose exactly the messages players notice (a room's
view), and a row costs one more round trip only for the rare long one. Rows are deleted
a minute after they were sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any

import psycopg
from psycopg import sql

from c4tui.server.cluster.bus import Bus
from c4tui.server.store.postgres_store import shown
from c4tui.server.store.store import StoreError

log = logging.getLogger("c4tui.bus")
NOTIFY_MOST = 7900  # bytes of a payload sent as it is (PostgreSQL's limit: under 8000)
LETTER_KEEP = 60.0  # seconds a long message's row is kept for its readers
CONNECT_SECONDS = 10
RETRY_SECONDS = 1.0  # between tries to connect again after the database went away


def channel(prefix: str, server: str) -> str:
    """The channel of one server (a hash: a server's name may be any text)."""
    return f"{prefix}_{hashlib.sha256(server.encode()).hexdigest()[:16]}"


def _line(error: Exception) -> str:
    """An error in one line, for the log (psycopg's span several)."""
    return " ".join(str(error).split()) or type(error).__name__


class PostgresBus(Bus):
    """The bus over the PostgreSQL database at `url` (see the module docstring)."""

    def __init__(self, url: str, server: str, clock: Callable[[], float] = time.time) -> None:
        super().__init__(server)
        self.url, self.clock = url, clock
        # (channel, message as its line(s), its length in bytes); None: stop
        self._out: asyncio.Queue[tuple[str, str, int] | None] = asyncio.Queue()
        self._in: asyncio.Queue[tuple[str, str]] = asyncio.Queue()  # (channel, payload)
        self._talk: psycopg.AsyncConnection[Any] | None = None
        self._ears: psycopg.AsyncConnection[Any] | None = None  # the listening connection
        self._tasks: list[asyncio.Task[None]] = []
        self._cleaned = 0.0
        self.prefix = self.everyone = ""  # the channels' names, known at start

    async def start(self) -> None:
        """Connect and listen; StoreError (one line) when the database refuses."""
        try:
            self._talk = await self._connect()
            cursor = await self._talk.execute("SELECT current_database(), current_schema()")
            row = await cursor.fetchone()
            where = f"{row[0] if row else ''}/{row[1] if row else ''}"
            self.prefix = f"c4tui_{hashlib.sha256(where.encode()).hexdigest()[:12]}"
            self.everyone = f"{self.prefix}_all"
            listening = await self._listening()
        except psycopg.Error as error:
            raise StoreError(f"{shown(self.url)}: the servers' bus: {_line(error)}") from None
        self._tasks = [
            asyncio.create_task(self._hear(listening)),
            asyncio.create_task(self._read()),
            asyncio.create_task(self._write()),
        ]

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        return await psycopg.AsyncConnection.connect(
            self.url, autocommit=True, connect_timeout=CONNECT_SECONDS
        )

    async def _listening(self) -> psycopg.AsyncConnection[Any]:
        """A new connection listening on this server's channels."""
        listening = await self._connect()
        for name in (self.everyone, channel(self.prefix, self.server)):
            await listening.execute(sql.SQL("LISTEN {}").format(sql.Identifier(name)))
        self._ears = listening
        return listening

    def broadcast(self, kind: str, body: dict[str, Any]) -> None:
        self._put(self.everyone, kind, body)

    def send(self, server: str, kind: str, body: dict[str, Any], line: bytes = b"") -> None:
        self._put(channel(self.prefix, server), kind, body, line)

    def _put(self, to: str, kind: str, body: dict[str, Any], line: bytes = b"") -> None:
        if not self._tasks:
            log.warning("bus: %s not sent: the bus has not started or has stopped", kind)
            return
        # json.dumps writes ASCII only: its length is its size in bytes.
        message = json.dumps({"k": kind, "f": self.server, "b": body, **({"r": 1} if line else {})})
        size = len(message)
        if line:  # the line next, as it is (the module): text, as a notification is
            message, size = f"{message}\n{line[:-1].decode()}", size + len(line)
        self._out.put_nowait((to, message, size))

    async def close(self) -> None:
        """Send what is waiting (a few seconds at most), then stop listening."""
        if not self._tasks:
            return
        hear, read, write = self._tasks
        self._tasks = []
        self._out.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(write, 3.0)
        for task in (hear, read, write):
            task.cancel()
        await asyncio.gather(hear, read, write, return_exceptions=True)
        if self._talk is not None:
            with contextlib.suppress(psycopg.Error):
                await self._talk.close()

    # ---- the three tasks --------------------------------------------------------

    async def _hear(self, listening: psycopg.AsyncConnection[Any]) -> None:
        """Every notification, into the reader's queue; the connection again if it fails."""
        while True:
            try:
                async for notify in listening.notifies():
                    self._in.put_nowait((notify.channel, notify.payload))
            except psycopg.Error as error:
                log.warning("bus: stopped hearing the other servers (%s): again", _line(error))
            finally:
                with contextlib.suppress(psycopg.Error):
                    await listening.close()
            while True:
                await asyncio.sleep(RETRY_SECONDS)
                try:
                    listening = await self._listening()
                    break
                except psycopg.Error as error:
                    log.warning("bus: cannot listen (%s)", _line(error))

    async def _read(self) -> None:
        """Each message in order, to its handlers (a long one read from its row first)."""
        while True:
            heard_on, payload = await self._in.get()
            try:
                if payload.startswith('{"l":'):
                    payload = await self._letter(int(json.loads(payload)["l"]))
                read = _messages(payload)
            except (ValueError, KeyError, TypeError, psycopg.Error) as error:
                log.warning("bus: a message could not be read (%s)", _line(error))
                continue
            for kind, sender, body in read:
                if sender != self.server or heard_on != self.everyone:  # not its own broadcast
                    self.deliver(kind, body, sender)

    async def _letter(self, number: int) -> str:
        cursor = await (await self._talking()).execute(
            "SELECT body FROM bus_letters WHERE id = %s", (number,)
        )
        row = await cursor.fetchone()
        if row is None:
            raise KeyError(f"letter {number} is gone")
        return str(row[0])

    async def _write(self) -> None:
        """Each message out, in the order sent; one that cannot go is logged and dropped.
        Messages waiting for one channel go together in one notification (a line after
        another), as many as fit: a change shown to several relayed players costs one
        NOTIFY."""
        item = await self._out.get()
        while item is not None:
            to, payload, size = item
            together = [payload]
            taken, following = False, None  # the next item, when taken out already
            while not self._out.empty():
                following = self._out.get_nowait()
                if following is None or following[0] != to or size + following[2] + 3 > NOTIFY_MOST:
                    taken = True
                    break
                together.append(following[1])
                size += following[2] + 1
            await self._notify(to, "\n".join(together), size)
            item = following if taken else await self._out.get()

    async def _notify(self, to: str, payload: str, size: int) -> None:
        """One notification (a long message as a letter, see the module docstring). On
        a connection that fails, once more on a new one: the database may have closed
        the old one while it was idle (it restarted), and is back; a message that fails
        on a new connection too is dropped."""
        for last in (False, True):
            fresh = self._talk is None or self._talk.closed
            try:
                talk = await self._talking()
                sent = payload
                if size > NOTIFY_MOST:
                    cursor = await talk.execute(
                        "INSERT INTO bus_letters (body, sent) VALUES (%s, %s) RETURNING id",
                        (payload, self.clock()),
                    )
                    row = await cursor.fetchone()
                    sent = json.dumps({"l": row[0] if row else 0})
                    await self._clean(talk)
                await talk.execute("SELECT pg_notify(%s, %s)", (to, sent))
                return
            except psycopg.Error as error:
                if self._talk is not None:
                    with contextlib.suppress(psycopg.Error):
                        await self._talk.close()
                self._talk = None
                if fresh or last:
                    log.warning("bus: a message was not sent (%s)", _line(error))
                    return

    async def _talking(self) -> psycopg.AsyncConnection[Any]:
        if self._talk is None or self._talk.closed:
            self._talk = await self._connect()
        return self._talk

    async def _clean(self, talk: psycopg.AsyncConnection[Any]) -> None:
        now = self.clock()
        if now - self._cleaned > LETTER_KEEP / 4:
            self._cleaned = now
            await talk.execute("DELETE FROM bus_letters WHERE sent < %s", (now - LETTER_KEEP,))


def _messages(payload: str) -> list[tuple[str, str, Any]]:
    """The messages of a notification (the module): (kind, sender, body), a protocol
    line carried with one in its body's "line", as bytes. ValueError, KeyError or
    TypeError for one that does not read."""
    lines = iter(payload.split("\n"))
    read = []
    for text in lines:
        message = json.loads(text)
        body = message["b"]
        if message.get("r"):
            line = next(lines, None)
            if line is None:
                raise ValueError("a message's protocol line is missing")
            body["line"] = line.encode() + b"\n"
        read.append((str(message["k"]), str(message["f"]), body))
    return read
