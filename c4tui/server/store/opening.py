"""Opening the community's store: SQLite in the state directory, or PostgreSQL at a URL,
migrated to this code's schema. Apart from store.py, so the interface does not import
its own implementations (they import it).
"""

from __future__ import annotations

from pathlib import Path

from c4tui.server.store.migrate import migrate
from c4tui.server.store.store import DATABASE_NAME, Store, StoreError


def open_store(
    state_dir: Path, url: str | None = None, statement_seconds: float | None = None
) -> Store:
    """The community's store, opened and migrated to this code's schema: SQLite in
    `<state_dir>/community.sqlite3`, or the PostgreSQL database at `url`
    (postgresql://user:password@host:port/name). StoreError says why not."""
    store: Store
    if url is not None:
        from c4tui.server.store.postgres_store import PostgresStore

        store = PostgresStore(url, statement_seconds)
    else:
        from c4tui.server.store.sqlite_store import SqliteStore

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
