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
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

import psycopg
from psycopg import conninfo, errors

from c4tui.server.store.store import Params, Row, Store, StoreDamaged, StoreError, StoreFull

CONNECT_SECONDS = 10
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

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self.where = shown(url)
        try:
            self.connection = psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_SECONDS)
        except psycopg.Error as error:
            raise self._failure(error) from None

    def _run(self, sql: str, params: Params, *, fetch: bool) -> tuple[int, list[Row]]:
        try:
            cursor = self.connection.execute(driver_sql(sql), tuple(params))
            found: list[Any] = cursor.fetchall() if fetch and cursor.description else []
            return cursor.rowcount, found
        except psycopg.Error as error:
            raise self._failure(error) from None

    def _begin(self) -> None:
        self._run("BEGIN", (), fetch=False)

    def _rollback(self) -> None:
        with contextlib.suppress(psycopg.Error):
            self.connection.execute("ROLLBACK")

    def close(self) -> None:
        self.connection.close()

    def _failure(self, error: psycopg.Error) -> StoreError:
        text = " ".join(str(error).split()) or type(error).__name__
        if isinstance(error, errors.DiskFull):
            return StoreFull(f"{self.where}: the disk is full ({text})")
        if isinstance(error, (errors.DataCorrupted, errors.IndexCorrupted)):
            return StoreDamaged(f"{self.where}: the database is damaged ({text})")
        return StoreError(f"{self.where}: {text}")
