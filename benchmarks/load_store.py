"""The store a load benchmark's servers keep their rooms in: SQLite (each server's own
file in its fresh state directory), or PostgreSQL, started by the benchmark in a
temporary directory as the tests start theirs (tests/community/postgres.py), with a
fresh, empty database for each size and stopped at the end."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path
from types import TracebackType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.community.postgres import Postgres, binaries  # noqa: E402

STORES = ("sqlite", "postgresql")


class LoadStore:
    """`with LoadStore(kind) as store:`, then `store.fresh()` before each size."""

    def __init__(self, kind: str) -> None:
        if kind not in STORES:
            raise ValueError(f"store {kind!r}: one of {', '.join(STORES)}")
        self.kind = kind
        self.postgres: Postgres | None = None
        self._numbers = itertools.count(1)

    def __enter__(self) -> LoadStore:
        if self.kind == "postgresql":
            found = binaries()
            if found is None:
                raise SystemExit("--store postgresql: no PostgreSQL (initdb, pg_ctl) installed")
            self.postgres = Postgres(found)
            self.postgres.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.postgres is not None:
            self.postgres.stop()

    def fresh(self) -> str | None:
        """A new, empty database's URL (None for SQLite: each state directory is new)."""
        if self.postgres is None:
            return None
        import psycopg

        name = f"load{next(self._numbers)}"
        with psycopg.connect(self.postgres.url, autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        return self.postgres.url.rsplit("/", 1)[0] + f"/{name}"
