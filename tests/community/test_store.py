"""The store: migrations, transactions, and what a full disk or a damaged file says."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from c4tui.server.store import migrate
from c4tui.server.store.migrate import Migration, migrations
from c4tui.server.store.opening import open_store
from c4tui.server.store.store import (
    DATABASE_NAME,
    StoreBusy,
    StoreDamaged,
    StoreError,
    StoreFull,
    StoreGone,
    StoreTooNew,
)


def test_every_migration_is_applied_once_and_recorded(tmp_path):
    known = [m.version for m in migrations()]
    assert known[:5] == [1, 2, 3, 4, 5] and len(set(known)) == len(known)
    with open_store(tmp_path) as store:
        assert [v for (v,) in store.rows("SELECT version FROM schema_version")] == known
    with open_store(tmp_path) as again:  # nothing left to apply
        assert migrate.migrate(again) == []


def test_a_migration_written_below_one_applied_still_applies(tmp_path, monkeypatch):
    with open_store(tmp_path) as store:
        store.execute("DELETE FROM schema_version WHERE version = 5")
        store.execute("DROP TABLE imports")
        applied = migrate.migrate(store)
        assert [m.version for m in applied] == [5]
        assert store.value("SELECT count(*) FROM imports") == 0


def test_a_database_of_a_newer_c4tui_is_refused_in_one_line_and_left_alone(tmp_path):
    with open_store(tmp_path) as store:
        store.execute(
            "INSERT INTO schema_version (version, name, applied) VALUES (999, 'future', 'x')"
        )
    with pytest.raises(StoreTooNew) as refused:
        open_store(tmp_path)
    words = str(refused.value)
    assert "\n" not in words and "newer c4tui" in words and "999 future" in words


def test_a_newer_schema_is_refused_with_advice_for_its_kind_of_store(store):
    store.execute("INSERT INTO schema_version (version, name, applied) VALUES (998, 'f', 'x')")
    try:
        with pytest.raises(StoreTooNew) as refused:
            migrate.migrate(store)
    finally:
        store.execute("DELETE FROM schema_version WHERE version = 998")
    words = str(refused.value)
    assert ("another state directory" in words) == (store.dialect == "sqlite")
    assert ("another database (--store)" in words) == (store.dialect == "postgresql")


def test_a_migration_of_a_database_in_use_is_one_log_line(store, caplog):
    caplog.set_level(logging.INFO, logger="c4tui.community")
    store.execute("DELETE FROM schema_version WHERE version = 5")
    store.execute("DROP TABLE imports")  # as if 005 were new to this database
    assert [m.version for m in migrate.migrate(store)] == [5]
    (line,) = [r.getMessage() for r in caplog.records if "migrated" in r.getMessage()]
    assert "005_imports" in line
    if store.dialect == "postgresql":
        assert "every server sharing it must run this c4tui" in line


def test_a_migration_that_fails_leaves_the_database_as_it_was(tmp_path, monkeypatch):
    broken = Migration(
        9, "broken", "CREATE TABLE fine (x INTEGER); CREATE TABLE players (x INTEGER)"
    )
    monkeypatch.setattr(migrate, "migrations", lambda: [*migrations(), broken])
    with pytest.raises(StoreError, match="migration 009_broken"):
        open_store(tmp_path)
    monkeypatch.undo()
    with open_store(tmp_path) as store:
        tables = {n for (n,) in store.rows("SELECT name FROM sqlite_master WHERE type='table'")}
        assert "fine" not in tables and "players" in tables


def test_a_transaction_is_kept_whole_or_not_at_all_and_nests(store):
    with pytest.raises(RuntimeError), store.transaction():
        store.execute("INSERT INTO players (name, created) VALUES ('ann', 'now')")
        with store.transaction():  # part of the outer one
            store.execute("INSERT INTO players (name, created) VALUES ('bob', 'now')")
        raise RuntimeError("the change fails half-way")
    assert store.value("SELECT count(*) FROM players") == 0
    with store.transaction():
        store.execute("INSERT INTO players (name, created) VALUES ('ann', 'now')")
    assert store.value("SELECT count(*) FROM players") == 1


@pytest.fixture
def sqlite(tmp_path):
    with open_store(tmp_path) as store:
        yield store


def test_the_settings_that_keep_a_commit_through_a_kill(sqlite):
    store = sqlite
    assert store.value("PRAGMA journal_mode") == "wal"
    assert store.value("PRAGMA synchronous") == 1  # NORMAL
    assert store.value("PRAGMA foreign_keys") == 1
    assert store.value("PRAGMA busy_timeout") > 0
    assert oct(store.path.stat().st_mode & 0o777) == "0o600"


def test_a_full_disk_is_store_full_and_keeps_nothing_of_the_change(sqlite):
    store = sqlite
    pages = store.value("PRAGMA page_count")
    store.value(f"PRAGMA max_page_count={pages}")  # as if the disk had no room left
    with pytest.raises(StoreFull, match="the disk is full"), store.transaction():
        for _ in range(200):
            store.execute("INSERT INTO players (name, created) VALUES (?, 'now')", ("x" * 500,))
    assert store.value("SELECT count(*) FROM players") == 0
    store.execute("INSERT INTO players (name, created) VALUES ('ann', 'now')")  # small: fits


def _emptied(path):
    path.write_bytes(b"")


def _wal_removed(path):
    path.with_name(path.name + "-wal").unlink()


def _replaced(path):
    copy = path.with_name("copy")
    copy.write_bytes(path.read_bytes())
    copy.replace(path)


@pytest.mark.parametrize(
    "loss", [_emptied, _wal_removed, _replaced], ids=["emptied", "wal-removed", "replaced"]
)
def test_a_database_lost_while_open_is_store_gone_and_told_once(sqlite, loss):
    store = sqlite
    told = []
    store.on_gone = told.append
    with store.transaction():
        store.execute("INSERT INTO players (name, created) VALUES ('ann', 'now')")
    loss(store.path)
    for _ in range(2):  # never answered as kept, and the server told only once
        with pytest.raises(StoreGone), store.transaction():
            store.execute("INSERT INTO players (name, created) VALUES ('bob', 'now')")
    with pytest.raises(StoreGone):
        store.value("SELECT count(*) FROM players")
    assert len(told) == 1 and "removed, emptied or replaced" in str(told[0])
    assert "\n" not in str(told[0])


def test_an_emptied_database_is_refused_at_opening_not_started_afresh(tmp_path):
    with open_store(tmp_path) as store:
        store.execute("INSERT INTO players (name, created) VALUES ('ann', 'now')")
    path = tmp_path / DATABASE_NAME
    path.write_bytes(b"")
    path.with_name(path.name + "-wal").unlink(missing_ok=True)
    with pytest.raises(StoreGone, match="empty"):
        open_store(tmp_path)
    assert path.stat().st_size == 0  # left as found, for the operator


def test_a_lock_held_by_another_program_refuses_changes_then_rests(sqlite, monkeypatch):
    store = sqlite
    other = sqlite3.connect(store.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # an operator's shell in the middle of a change
    with pytest.raises(StoreBusy, match="lock"), store.transaction():
        store.execute("INSERT INTO players (name, created) VALUES ('ann', 'now')")
    waited = []
    connection = store.connection
    monkeypatch.setattr(store, "connection", Spy(connection, waited))
    # Within the rest, the next change is refused without asking SQLite (so not waited).
    with pytest.raises(StoreBusy), store.transaction():
        store.execute("INSERT INTO players (name, created) VALUES ('ann', 'now')")
    assert waited == []
    assert store.value("SELECT count(*) FROM players") == 0  # readers are never kept waiting
    other.execute("ROLLBACK")
    other.close()
    store._busy_until = 0.0  # as BUSY_REST seconds later
    with store.transaction():
        store.execute("INSERT INTO players (name, created) VALUES ('ann', 'now')")
    assert store.value("SELECT count(*) FROM players") == 1


class Spy:
    """A connection that notes each statement it is asked to run."""

    def __init__(self, connection, ran: list[str]) -> None:
        self._connection, self._ran = connection, ran

    def execute(self, sql, *args):
        if sql.startswith("BEGIN"):
            self._ran.append(sql)
        return self._connection.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self._connection, name)


@pytest.mark.parametrize(
    "damage",
    [
        lambda path: path.write_bytes(b"this is not a database at all, just some text\n" * 100),
        lambda path: path.write_bytes(path.read_bytes()[:100] + b"\xff" * 5000),
    ],
    ids=["not-a-database", "torn-pages"],
)
def test_a_damaged_database_says_so_in_one_line(tmp_path, damage):
    with open_store(tmp_path) as store:
        store.execute("INSERT INTO players (name, created) VALUES ('ann', 'now')")
        store.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    damage(tmp_path / DATABASE_NAME)
    with pytest.raises(StoreDamaged) as said:
        open_store(tmp_path)
    words = str(said.value)
    assert "\n" not in words and "damaged" in words and DATABASE_NAME in words


def test_every_file_among_the_migrations_is_one_and_ships_in_the_wheel():
    import tomllib
    from pathlib import Path

    folder = Path(migrate.__file__).parent / "migrations"
    names = sorted(p.name for p in folder.iterdir() if p.name != "__pycache__")
    assert all(migrate.FILE_NAME.fullmatch(name) for name in names), names
    project = tomllib.loads((Path(migrate.__file__).parents[3] / "pyproject.toml").read_text())
    assert "migrations/*.sql" in project["tool"]["setuptools"]["package-data"]["c4tui.server.store"]


@pytest.fixture
def tiny_disk(tmp_path):
    """A 512 KB tmpfs (when this user may mount one; else the test is skipped)."""
    import subprocess

    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(disk)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def test_a_disk_that_fills_up_keeps_every_commit_before_it(tiny_disk):
    kept = 0
    with open_store(tiny_disk) as store, pytest.raises(StoreFull):
        while True:
            with store.transaction():
                store.execute("INSERT INTO players (name, created) VALUES (?, 'now')", ("x" * 500,))
            kept += 1
    assert kept > 0
    with open_store(tiny_disk) as store:  # reopened on the full disk: everything committed
        assert store.value("SELECT count(*) FROM players") == kept


def test_the_sql_written_once_is_psycopgs_where_it_must_be():
    from c4tui.server.store.postgres_store import driver_sql, shown

    assert driver_sql("SELECT ? WHERE name LIKE 'a%?' AND x = ? AND y LIKE '%'") == (
        "SELECT %s WHERE name LIKE 'a%?' AND x = %s AND y LIKE '%'"
    )
    assert driver_sql("SELECT 5 % ?") == "SELECT 5 %% %s"
    assert (
        shown("postgresql://ann:secret@db.example:5433/c4") == "postgresql://ann@db.example:5433/c4"
    )


def test_a_postgresql_that_cannot_be_reached_says_where_and_never_the_password(postgres):
    from c4tui.server.store.postgres_store import PostgresStore
    from tests.community.postgres import free_port

    with pytest.raises(StoreError) as said:
        PostgresStore(f"postgresql://ann:secret@127.0.0.1:{free_port()}/c4")
    words = str(said.value)
    assert "\n" not in words and "127.0.0.1" in words and "secret" not in words


def test_every_migration_applies_on_postgresql_as_on_sqlite(store):
    known = [m.version for m in migrations()]
    assert [
        v for (v,) in store.rows("SELECT version FROM schema_version ORDER BY version")
    ] == known
    assert migrate.migrate(store) == []
    # A migration's REAL keeps what a float holds, on both (Unix seconds to the ms).
    for statement in Migration(999, "floats", "CREATE TABLE floats (x REAL)").statements(
        store.dialect
    ):
        store.execute(statement)
    store.execute("INSERT INTO floats (x) VALUES (?)", (1795000000.123,))
    assert store.value("SELECT x FROM floats") == 1795000000.123
    store.execute("DROP TABLE floats")
