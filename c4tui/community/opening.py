"""Opening the community's store (SQLite in the state directory, or PostgreSQL at a URL,
migrated to this code's schema) and its bus. Apart from store.py and bus.py, so the
interfaces do not import their own implementations (they import them).
"""

from __future__ import annotations

from pathlib import Path

from c4tui.community.bus import Bus, LocalBus
from c4tui.community.migrate import migrate
from c4tui.community.store import DATABASE_NAME, Store, StoreError


def open_store(state_dir: Path, url: str | None = None) -> Store:
    """The community's store, opened and migrated to this code's schema: SQLite in
    `<state_dir>/community.sqlite3`, or the PostgreSQL database at `url`
    (postgresql://user:password@host:port/name). StoreError says why not."""
    store: Store
    if url is not None:
        from c4tui.community.postgres_store import PostgresStore

        store = PostgresStore(url)
    else:
        from c4tui.community.sqlite_store import SqliteStore

        try:
            state_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(f"{state_dir}: {error.strerror or error}") from None
        store = SqliteStore(state_dir / DATABASE_NAME)
    try:
        migrate(store)
    except BaseException:
        store.close()
        raise
    return store


def open_bus(server: str, url: str | None) -> Bus:
    """The bus of the server `server`: over the PostgreSQL database at `url`, or alone
    (None: a SQLite store). It starts hearing at `start`."""
    if url is None:
        return LocalBus(server)
    from c4tui.community.bus_postgres import PostgresBus

    return PostgresBus(url, server)
