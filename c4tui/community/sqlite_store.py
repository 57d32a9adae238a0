"""SqliteStore: the store in one SQLite file (the standard library's sqlite3), in WAL mode.

The settings, and why:
- journal_mode=WAL: a commit appends to the write-ahead log instead of rewriting pages,
  readers never wait on the writer, and a crash mid-commit leaves the last commit whole.
- synchronous=NORMAL: a commit is written to the log (the operating system has it) but
  not fsynced; the log is fsynced at each checkpoint. A killed server (SIGKILL, a crash,
  the OOM killer) loses nothing committed: the kernel still writes what it was given.
  Only a power cut or a kernel crash may lose the last commits before a checkpoint
  (never the database's consistency). synchronous=FULL would fsync every commit, so
  every move, costing one disk flush (a few ms on an SSD, 10-30 ms on a spinning disk or
  a cloud volume) on the event loop for a guarantee against power loss that a game
  server does not need more than its players need the speed.
- foreign_keys=ON: SQLite leaves them off unless asked, per connection.
- busy_timeout: another process holding the write lock (a backup, an operator's sqlite3
  shell) is waited for a few seconds rather than failing at once.
- The file is made 0600: it holds seat codes and identities.

The connection is in autocommit mode (isolation_level=None): a statement outside
`transaction()` is its own transaction, and `transaction()` says BEGIN IMMEDIATE and
COMMIT itself, so the sqlite3 module never opens or commits one behind our back.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

from c4tui.community.store import Params, Row, Store, StoreDamaged, StoreError, StoreFull

BUSY_TIMEOUT_MS = 5000
# SQLite's primary result codes (the low byte of an extended code).
SQLITE_CORRUPT, SQLITE_FULL, SQLITE_NOTADB = 11, 13, 26


class SqliteStore(Store):
    """The store in the SQLite file at `path` (made when missing)."""

    dialect = "sqlite"

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = Path(path)
        self.where = str(self.path)
        try:
            if not self.path.exists():
                with contextlib.suppress(FileExistsError):
                    os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except OSError as error:
            raise StoreError(f"{self.where}: {error.strerror or error}") from None
        try:
            self.connection = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as error:
            raise self._failure(error) from None
        try:
            self._settle()
        except BaseException:
            self.connection.close()
            raise

    def _settle(self) -> None:
        """The connection's settings (see the module docstring), then a look at every
        page: a damaged file is found now, at start, not in the middle of a game."""
        mode = self.value("PRAGMA journal_mode=WAL")
        if mode != "wal":
            raise StoreError(f"{self.where}: cannot use WAL mode here (journal mode {mode})")
        self.execute("PRAGMA synchronous=NORMAL")
        self.execute("PRAGMA foreign_keys=ON")
        self.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        verdict = self.rows("PRAGMA quick_check")
        if verdict != [("ok",)]:
            first = str(verdict[0][0]) if verdict else "no answer"
            raise StoreDamaged(f"{self.where}: the database is damaged ({first})")

    def _run(self, sql: str, params: Params, *, fetch: bool) -> tuple[int, list[Row]]:
        try:
            cursor = self.connection.execute(sql, tuple(params))
            found = cursor.fetchall() if fetch else []
            return cursor.rowcount, found
        except sqlite3.Error as error:
            raise self._failure(error) from None

    def _begin(self) -> None:
        # IMMEDIATE: take the write lock now, so a busy database is waited for here and
        # not found half-way through the change.
        self._run("BEGIN IMMEDIATE", (), fetch=False)

    def _rollback(self) -> None:
        if self.connection.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self.connection.execute("ROLLBACK")

    def close(self) -> None:
        self.connection.close()

    def _failure(self, error: sqlite3.Error) -> StoreError:
        """The StoreError kind that says what went wrong, in one line."""
        code = getattr(error, "sqlite_errorcode", 0) & 0xFF
        text = " ".join(str(error).split())
        if code == SQLITE_FULL:
            return StoreFull(f"{self.where}: the disk is full ({text})")
        if code in (SQLITE_CORRUPT, SQLITE_NOTADB):
            return StoreDamaged(f"{self.where}: the database is damaged ({text})")
        return StoreError(f"{self.where}: {text}")
