"""The store: the one database of a community server, behind one small interface.

Everything the server keeps (players and their names, rooms, games and their moves,
ratings, clocks, tournaments, bot tokens) is a table in one database: SQLite in WAL
mode on one machine (sqlite_store.py), PostgreSQL for several servers (issue 36). Both
run the same SQL, written once:

    store = open_store(state_dir)                 # opened, migrated (migrate.py)
    with store.transaction():                     # all or nothing; nests (joins the outer)
        store.execute("INSERT INTO names (folded, name, player, claimed) VALUES (?, ?, ?, ?)"
                      " ON CONFLICT (folded) DO NOTHING", (folded, name, player, now))
        player = store.value("SELECT player FROM names WHERE folded = ?", (folded,))
    rows = store.rows("SELECT name FROM names WHERE player = ?", (player,))

The SQL both engines understand, and so the only SQL written here:
- placeholders are `?`, always (the PostgreSQL store turns them into its own);
- `INSERT ... ON CONFLICT (columns) DO UPDATE SET x = excluded.x` (or `DO NOTHING`)
  for upserts, `RETURNING` for a new row's id;
- plain types: INTEGER, BIGINT, TEXT, REAL (8 bytes on both), booleans as INTEGER 0/1;
- an id the database numbers itself is written `{id}` in a migration's CREATE TABLE
  (the one word the two engines spell differently; migrate.py fills it in).

The interface is synchronous, and a Store is one connection used by one caller at a
time: the room service's event loop for what it reads and its rare writes, and the
writers (writer.py), threads with connections of their own, for its rooms' changes, so
that no commit holds the loop.

Each domain keeps its SQL in a part of its own, a small class over a Store in its own
module (room_records.py, game_records.py, player_records.py; ratings, clocks,
tournaments and bots add theirs), with its tables in its own numbered migrations.

Failures are a StoreError with a message of one line, for the log and the player:
StoreFull (the disk is full: nothing of the change was kept), StoreDamaged (the file is
not a database or is corrupt), StoreTooNew (a database a newer c4tui made),
StoreBusy (another program holds the lock), StoreGone (the file was removed, emptied
or replaced while open: the store calls its `on_gone` once, and the server stops), and
StoreError itself for anything else the database refuses.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, Literal

Dialect = Literal["sqlite", "postgresql"]
Params = Sequence[Any]
Row = tuple[Any, ...]
DATABASE_NAME = "community.sqlite3"  # in the state directory


def now() -> str:
    """The time as the store keeps it: ISO 8601, UTC, whole seconds (sorts as it reads)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


class StoreError(Exception):
    """The database refused or failed; the message is one line saying what and where."""


class StoreFull(StoreError):
    """No room left on the disk (or the database's size limit): the change was not kept."""


class StoreDamaged(StoreError):
    """The database file is not a database, or its pages are corrupt."""


class StoreTooNew(StoreError):
    """The database was made by a newer c4tui (a schema version this code does not know)."""


class StoreBusy(StoreError):
    """Another program holds the database's lock: nothing of the change was kept."""


class StoreGone(StoreError):
    """The database file was removed, emptied or replaced under the server: nothing it
    is told from now on would be kept, so the server stops rather than answer players."""


class Store(ABC):
    """One connection to the community's database (see the module docstring).

    Not thread-safe: one caller at a time (the room service's event loop).
    """

    dialect: Dialect
    where: str  # the file or the server, for messages (never a password)
    url: str | None = None  # how another connection reaches this database (PostgreSQL's)

    def __init__(self) -> None:
        self._depth = 0  # transactions open: only the outermost begins and commits
        # Told once when the database is found gone (StoreGone): the server stops.
        self.on_gone: Callable[[StoreGone], None] | None = None

    # ---- what the parts call --------------------------------------------------------

    def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; the number of rows it changed."""
        return self._run(sql, params, fetch=False)[0]

    def rows(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row a query returns."""
        return self._run(sql, params, fetch=True)[1]

    def row(self, sql: str, params: Params = ()) -> Row | None:
        """The first row a query returns, None when there is none."""
        found = self.rows(sql, params)
        return found[0] if found else None

    def value(self, sql: str, params: Params = ()) -> Any:
        """The first column of the first row, None when there is no row."""
        found = self.row(sql, params)
        return None if found is None else found[0]

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Everything inside is kept together or not at all (an exception rolls it back
        and goes on up). A transaction inside another is part of the outer one."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self._begin()
        self._depth = 1
        try:
            yield
        except BaseException:
            self._depth = 0
            self._rollback()
            raise
        self._depth = 0
        self._commit()

    @property
    def in_transaction(self) -> bool:
        return self._depth > 0

    @property
    def away(self) -> str | None:
        """Why the database cannot be reached now (every statement would fail at once),
        None while it can: only a database over the network goes away (PostgreSQL's)."""
        return None

    # ---- what each engine provides --------------------------------------------------

    @abstractmethod
    def _run(self, sql: str, params: Params, *, fetch: bool) -> tuple[int, list[Row]]:
        """Run one statement (`?` placeholders); (rows changed, rows returned if `fetch`).
        Errors come out as StoreError and its kinds."""

    @abstractmethod
    def _begin(self) -> None: ...

    def _commit(self) -> None:
        try:
            self._run("COMMIT", (), fetch=False)
        except StoreError:
            # A commit that fails (a full disk) leaves the transaction open: end it, so
            # the next change starts clean and nothing half-done is ever committed.
            self._rollback()
            raise

    @abstractmethod
    def _rollback(self) -> None: ...

    @abstractmethod
    def another(self) -> Store:
        """A new connection to the same database (already migrated), for a writer of
        its own (writer.py)."""

    @abstractmethod
    def close(self) -> None:
        """Close the connection (what was committed is kept)."""

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
