"""The store for each test: SQLite in a temporary directory, and the same test again on
PostgreSQL (the `postgres` fixture of tests/conftest.py) where its binaries are
installed."""

from __future__ import annotations

import pytest

from c4tui.server.store.opening import open_store


@pytest.fixture(scope="session")
def postgres_url(postgres):
    """A schema of this test process's, migrated once."""
    from c4tui.server.store.migrate import migrate
    from c4tui.server.store.postgres_store import PostgresStore

    url = postgres.fresh_url()
    with PostgresStore(url) as store:
        migrate(store)
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path):
    if request.param == "sqlite":
        with open_store(tmp_path) as store:
            yield store
        return
    from c4tui.server.store.postgres_store import PostgresStore

    with PostgresStore(request.getfixturevalue("postgres_url")) as store:
        request.getfixturevalue("postgres").emptied(store)
        yield store
