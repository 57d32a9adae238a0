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
  shell) is waited for briefly, not for seconds: the store is called on the event loop,
  so every player waits as long as it does. While the lock stays taken, statements
  fail at once (StoreBusy) for BUSY_REST seconds after each wait, so a lock held for
  a minute costs the players one short wait every few seconds, not one per change;
  a change refused so is undone and said, never answered as kept.
- The file is watched: before each commit (and each statement outside a transaction)
  the database and its -wal must still be the files opened, and the database not
  emptied. One removed, truncated or replaced under the server would take every change
  into a file nobody reads again, so it is StoreGone, told once to `on_gone`.
  At opening, an existing empty file is refused too: it was a database (SQLite writes
  its header at once), and starting afresh in it would hand every name to whoever
  logs in first.
- The file is made 0600: it holds seat codes and identities.

The connection is in autocommit mode (isolation_level=None): a statement outside
`transaction()` is its own transaction, and `transaction()` says BEGIN IMMEDIATE and
COMMIT itself, so the sqlite3 module never opens or commits one behind our back.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from pathlib import Path

from c4tui.server.store.store import (
    Params,
    Row,
    Store,
    StoreBusy,
    StoreDamaged,
    StoreError,
    StoreFull,
    StoreGone,
)

BUSY_TIMEOUT_MS = 200
BUSY_REST = 2.0  # seconds in which statements fail at once after a wait found it busy
HEADER = 100  # bytes of a SQLite file's header: a database is never shorter
# SQLite's primary result codes (the low byte of an extended code).
SQLITE_BUSY, SQLITE_LOCKED = 5, 6
SQLITE_CORRUPT, SQLITE_FULL, SQLITE_NOTADB = 11, 13, 26
FileId = tuple[int, int]  # (device, inode): which file a path names


class SqliteStore(Store):
    """The store in the SQLite file at `path` (made when missing)."""

    dialect = "sqlite"

    def __init__(self, path: Path, *, checked: bool = False) -> None:
        """`checked`: its pages were looked at by another connection just now (skip it)."""
        super().__init__()
        self._checked = checked
        self.path = Path(path)
        self.where = str(self.path)
        self._busy_until = 0.0  # time.monotonic() until which statements fail at once
        self._files: tuple[FileId, FileId | None] | None = None  # the database's, its -wal's
        self._gone = False
        try:
            if self.path.exists() and self.path.stat().st_size == 0:
                raise StoreGone(
                    f"{self.where}: the database file is empty (emptied or cut short): "
                    "the server does not start afresh in it"
                )
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
        verdict = [("ok",)] if self._checked else self.rows("PRAGMA quick_check")
        if verdict != [("ok",)]:
            first = str(verdict[0][0]) if verdict else "no answer"
            raise StoreDamaged(f"{self.where}: the database is damaged ({first})")
        # The files as opened (the quick check made the -wal), to notice them replaced.
        self._files = (_file_id(self.path), _wal_id(self.path))

    def _run(self, sql: str, params: Params, *, fetch: bool) -> tuple[int, list[Row]]:
        try:
            if not self.connection.in_transaction:
                self._still_here()
            cursor = self.connection.execute(sql, tuple(params))
            found = cursor.fetchall() if fetch else []
            return cursor.rowcount, found
        except sqlite3.Error as error:
            raise self._failure(error) from None

    def _begin(self) -> None:
        # IMMEDIATE: take the write lock now, so a busy database is waited for here and
        # not found half-way through the change (readers never wait in WAL mode).
        if time.monotonic() < self._busy_until:
            raise StoreBusy(f"{self.where}: another program holds the database's lock")
        self._run("BEGIN IMMEDIATE", (), fetch=False)

    def _commit(self) -> None:
        try:
            self._still_here()
        except StoreGone:
            self._rollback()
            raise
        super()._commit()

    def _still_here(self) -> None:
        """StoreGone (told once to `on_gone`) unless the database and its -wal are
        still the files opened and the database is not emptied."""
        if self._files is None:
            return  # still opening
        if not self._gone:
            database, wal = self._files
            try:
                stat = self.path.stat()
                here = (stat.st_dev, stat.st_ino) == database and stat.st_size >= HEADER
            except OSError:
                here = False
            if here and wal is not None:
                here = _wal_id(self.path) == wal
            if here:
                return
            self._gone = True
            if self.on_gone is not None:
                self.on_gone(StoreGone(self._gone_words()))
        raise StoreGone(self._gone_words())

    def _gone_words(self) -> str:
        return (
            f"{self.where}: the database file was removed, emptied or replaced while "
            "open; nothing from now on would be kept"
        )

    def _rollback(self) -> None:
        if self.connection.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self.connection.execute("ROLLBACK")

    def another(self) -> SqliteStore:
        return SqliteStore(self.path, checked=True)

    def close(self) -> None:
        self.connection.close()

    def _failure(self, error: sqlite3.Error) -> StoreError:
        """The StoreError kind that says what went wrong, in one line."""
        code = getattr(error, "sqlite_errorcode", 0) & 0xFF
        text = " ".join(str(error).split())
        if code in (SQLITE_BUSY, SQLITE_LOCKED):
            self._busy_until = time.monotonic() + BUSY_REST
            return StoreBusy(f"{self.where}: another program holds the database's lock ({text})")
        if code == SQLITE_FULL:
            return StoreFull(f"{self.where}: the disk is full ({text})")
        if code in (SQLITE_CORRUPT, SQLITE_NOTADB):
            return StoreDamaged(f"{self.where}: the database is damaged ({text})")
        return StoreError(f"{self.where}: {text}")


def _file_id(path: Path) -> FileId:
    stat = path.stat()
    return stat.st_dev, stat.st_ino


def _wal_id(path: Path) -> FileId | None:
    """The -wal file's id; None when there is none (SQLite makes it at the first read)."""
    try:
        return _file_id(path.with_name(path.name + "-wal"))
    except OSError:
        return None
