"""PostgresStore: the store in a PostgreSQL database (psycopg 3), for several servers.

The same SQL as SQLite's (store.py says which): `?` placeholders become psycopg's `%s`
here, and a literal `%` is doubled, so no part ever writes a driver's own syntax.

The connection is in autocommit mode: a statement outside `transaction()` is its own
transaction, and `transaction()` says BEGIN and COMMIT itself, as the SQLite store
does. Transactions are READ COMMITTED (PostgreSQL's default); a part that reads and
then writes what it read under a race (two servers) takes a row lock (SELECT ... FOR
UPDATE) or writes with an upsert.

A commit is durable when PostgreSQL says so (its own fsync of the WAL), so a killed
c4tui loses nothing committed, and neither does a power cut on the database's host.

The database may go away and come back (restarted, its host rebooted, or frozen). Then
no statement may hold the server: each has `statement_seconds` (PostgreSQL's own
statement_timeout, and a watchdog here that cuts the connection's socket, for a database
too frozen to keep its own timeout); a connection that failed is given up, and from then
on every statement fails at once ("the database is away") while a thread opens a new
connection, once a RETRY_SECONDS, until one opens. The server refuses what it cannot
keep meanwhile (a move is undone and its player told), and carries on by itself when
the database is back: one log line when it goes, one when it is back.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import select
import socket
import threading
import time
from typing import Any

import psycopg
from psycopg import conninfo, errors

from c4tui.server.store.store import Params, Row, Store, StoreDamaged, StoreError, StoreFull

CONNECT_SECONDS = 10
STATEMENT_SECONDS = 5.0  # c4tui serve --store-timeout: the longest a statement may take
RETRY_SECONDS = 1.0  # between tries to reach a database that went away
log = logging.getLogger("c4tui.server")
# A `?` outside a string literal is a placeholder; a `%` is psycopg's and must be doubled.
_SQL_PARTS = re.compile(r"'(?:[^']|'')*'|\?|%")


def driver_sql(sql: str) -> str:
    """`sql` with `?` placeholders as psycopg writes them (`%s`), `%` doubled."""

    def part(match: re.Match[str]) -> str:
        text = match[0]
        return {"?": "%s", "%": "%%"}.get(text, text)

    return _SQL_PARTS.sub(part, sql)


def shown(url: str) -> str:
    """A connection string without its password, for messages and logs."""
    try:
        parts = conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "the PostgreSQL database given"
    host, port, name = parts.get("host", ""), parts.get("port", ""), parts.get("dbname", "")
    return f"postgresql://{parts.get('user', '')}@{host}{':' if port else ''}{port}/{name}"


class PostgresStore(Store):
    """The store in the PostgreSQL database at `url` (postgresql://user@host:port/name)."""

    dialect = "postgresql"

    def __init__(self, url: str, statement_seconds: float | None = None) -> None:
        super().__init__()
        self.url = self._address = url
        self.where = shown(url)
        self.statement_seconds = statement_seconds or STATEMENT_SECONDS
        self._away: str | None = None  # why the database is away, None while it is here
        self._closed = threading.Event()
        self._lock = threading.Lock()  # the connection, swapped by the reconnecting thread
        self._watchdog = Watchdog()
        self.connection = self._connect()  # at the start a database away is a StoreError

    def _connect(self) -> psycopg.Connection[Any]:
        try:
            connection = psycopg.connect(
                self._address,
                autocommit=True,
                connect_timeout=CONNECT_SECONDS,
                keepalives=1,
                keepalives_idle=5,
                keepalives_interval=2,
                keepalives_count=3,
            )
            millis = round(self.statement_seconds * 1000)
            connection.execute(f"SET statement_timeout = {millis}")
        except psycopg.Error as error:
            raise self._failure(error) from None
        return connection

    def _run(self, sql: str, params: Params, *, fetch: bool) -> tuple[int, list[Row]]:
        with self._lock:
            away, connection = self._away, self.connection
        if away is not None:
            raise StoreError(f"{self.where}: the database is away ({away}); trying again")
        if not self.in_transaction:
            connection = self._fresh(connection)
        # A database frozen (SIGSTOP, a hung host) keeps no timeout of its own: the
        # watchdog cuts the socket, so the statement fails instead of holding the server.
        self._watchdog.watch(connection, self.statement_seconds + 1.0)
        try:
            cursor = connection.execute(driver_sql(sql), tuple(params))
            found: list[Any] = cursor.fetchall() if fetch and cursor.description else []
            return cursor.rowcount, found
        except psycopg.Error as error:
            failure = self._failure(error)
            if connection.broken or connection.closed or isinstance(error, errors.QueryCanceled):
                self._went_away(connection, str(failure))
            raise failure from None
        finally:
            self._watchdog.done()

    def _fresh(self, connection: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
        """`connection`, or a new one when the database closed it while it was idle (it
        restarted since the last statement): an idle connection has nothing to read
        (this store never listens), so a socket with something to read was closed.
        Without this, the first change after a restart would be refused, once on
        every connection, with the database already back."""
        try:
            closed = bool(select.select([connection.pgconn.socket], [], [], 0)[0])
        except (OSError, ValueError, psycopg.Error):
            closed = True
        if not closed:
            return connection
        with contextlib.suppress(Exception):
            connection.close()
        try:
            fresh = self._connect()
        except StoreError as error:
            self._went_away(connection, str(error))
            raise
        with self._lock:
            if self.connection is connection:
                self.connection = fresh
        log.warning("the database closed an idle connection: a new one to %s", self.where)
        return fresh

    @property
    def away(self) -> str | None:
        with self._lock:
            return self._away

    def _went_away(self, connection: psycopg.Connection[Any], why: str) -> None:
        """The connection failed: give it up, and reconnect in a thread meanwhile."""
        with self._lock:
            if self._away is not None or connection is not self.connection:
                return
            self._away = why.removeprefix(f"{self.where}: ")
        log.warning("the database went away: %s; reconnecting", why)
        with contextlib.suppress(Exception):
            connection.close()
        threading.Thread(target=self._reconnect, name="c4tui-store-reconnect", daemon=True).start()

    def _reconnect(self) -> None:
        while not self._closed.wait(RETRY_SECONDS):
            try:
                connection = self._connect()
            except StoreError:
                continue
            with self._lock:
                self.connection, self._away = connection, None
            log.warning("the database is back: %s", self.where)
            return

    def _begin(self) -> None:
        self._run("BEGIN", (), fetch=False)

    def _rollback(self) -> None:
        with contextlib.suppress(psycopg.Error):
            self.connection.execute("ROLLBACK")

    def another(self) -> PostgresStore:
        return PostgresStore(self._address, self.statement_seconds)

    def close(self) -> None:
        self._closed.set()
        with self._lock:
            connection = self.connection
        connection.close()

    def _failure(self, error: psycopg.Error) -> StoreError:
        text = " ".join(str(error).split()) or type(error).__name__
        if isinstance(error, errors.DiskFull):
            return StoreFull(f"{self.where}: the disk is full ({text})")
        if isinstance(error, (errors.DataCorrupted, errors.IndexCorrupted)):
            return StoreDamaged(f"{self.where}: the database is damaged ({text})")
        return StoreError(f"{self.where}: {text}")


class Watchdog:
    """One thread a store that cuts the socket of a statement running past its time (a
    thread a statement would cost more than the statement on a quick database)."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._watched: tuple[psycopg.Connection[Any], float] | None = None
        self._thread: threading.Thread | None = None

    def watch(self, connection: psycopg.Connection[Any], seconds: float) -> None:
        with self._changed:
            self._watched = (connection, time.monotonic() + seconds)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="c4tui-store-watchdog", daemon=True
                )
                self._thread.start()
            self._changed.notify()

    def done(self) -> None:
        with self._changed:
            self._watched = None

    def _run(self) -> None:
        with self._changed:
            while True:
                if self._watched is None:
                    self._changed.wait()
                    continue
                connection, deadline = self._watched
                left = deadline - time.monotonic()
                if left > 0:
                    self._changed.wait(left)
                    continue
                self._watched = None
                _cut(connection)


def _cut(connection: psycopg.Connection[Any]) -> None:
    """Shut the connection's socket down, from the watchdog's thread: the statement
    waiting on it fails at once (the connection is broken after, and given up)."""
    with contextlib.suppress(OSError, psycopg.Error):
        fd = connection.pgconn.socket
        cut = socket.socket(fileno=os.dup(fd))
        try:
            cut.shutdown(socket.SHUT_RDWR)
        finally:
            cut.close()
