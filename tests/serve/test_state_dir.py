"""`--state DIR`: made private when new, taken when ours or empty, refused when it holds
someone else's files; what the server did not make is never changed or deleted."""

from __future__ import annotations

import asyncio
import stat

import pytest

from c4tui.cli import main
from c4tui.server.fronts.ssh_keys import HOST_KEY_NAME
from c4tui.server.serving import ServeConfig, Server, StateDirError, claim_state_dir
from c4tui.server.store.store import StoreGone


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_directory_of_the_users_is_refused_and_left_as_it_was(tmp_path, capsys):
    mine = tmp_path / "mine"
    (mine / "clients").mkdir(parents=True)
    (mine / "clients" / "todo.txt").write_text("buy milk")
    (mine / "notes.md").write_text("notes")
    mine.chmod(0o755)
    assert main(["serve", "--state", str(mine), "--ssh", "0", "--no-web"]) == 2
    error = capsys.readouterr().err
    assert "is not empty and not a state directory of c4tui serve (it holds notes.md)" in error
    assert error.count("\n") == 1
    assert (mine / "clients" / "todo.txt").read_text() == "buy milk"
    assert mode(mine) == 0o755
    assert sorted(p.name for p in mine.iterdir()) == ["clients", "notes.md"]


def test_a_directory_of_only_the_users_clients_is_refused(tmp_path):
    (tmp_path / "clients").mkdir()
    (tmp_path / "clients" / "todo.txt").write_text("buy milk")
    with pytest.raises(StateDirError, match=r"it holds clients\)"):
        claim_state_dir(tmp_path)
    assert (tmp_path / "clients" / "todo.txt").read_text() == "buy milk"


def test_a_file_is_not_a_state_directory(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(StateDirError, match="is not a directory"):
        claim_state_dir(tmp_path / "file")


def test_a_new_directory_is_private_and_an_empty_one_keeps_its_mode(tmp_path):
    claim_state_dir(tmp_path / "new" / "state")
    assert mode(tmp_path / "new" / "state") == 0o700
    empty = tmp_path / "empty"
    empty.mkdir(mode=0o750)
    empty.chmod(0o750)
    claim_state_dir(empty)
    assert mode(empty) == 0o750
    claim_state_dir(empty)  # ours now: taken again


def test_a_state_directory_of_an_earlier_version_is_taken(tmp_path):
    for made in ("rooms", "players", "clients"):
        (tmp_path / made).mkdir()
    (tmp_path / HOST_KEY_NAME).write_text("key")
    claim_state_dir(tmp_path)


def test_a_new_directory_holding_only_a_copied_host_key_is_taken_with_that_key(tmp_path):
    (tmp_path / HOST_KEY_NAME).write_text("the key another server made")
    claim_state_dir(tmp_path)
    assert (tmp_path / HOST_KEY_NAME).read_text() == "the key another server made"


async def test_only_the_servers_own_client_directories_are_swept(tmp_path):
    state = tmp_path / "state"
    claim_state_dir(state)
    (state / "clients" / "client-left-by-a-kill" / "home").mkdir(parents=True)
    (state / "clients" / "todo.txt").write_text("someone's")
    server = Server(ServeConfig(state, ssh_port=None, web_port=None))
    await server.start()
    await server.stop()
    assert [p.name for p in (state / "clients").iterdir()] == ["todo.txt"]


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        (b"SQLite format 3\x00" + b"\xff" * 4000, "the database is damaged"),
        (b"these are not the pages of a database\n" * 200, "the database is damaged"),
    ],
)
def test_a_damaged_database_stops_the_server_in_one_line_and_is_left_as_it_is(
    tmp_path, capsys, damage, words
):
    claim_state_dir(tmp_path)
    database = tmp_path / "community.sqlite3"
    database.write_bytes(damage)
    assert main(["serve", "--state", str(tmp_path), "--ssh", "0", "--no-web"]) == 2
    error = capsys.readouterr().err
    assert words in error and "does not start over it" in error and str(database) in error
    assert error.count("\n") == 1
    assert database.read_bytes() == damage


def test_a_store_that_is_not_postgresql_is_refused_in_one_line(tmp_path, capsys):
    argv = ["serve", "--state", str(tmp_path), "--store", "mysql://ann@db/c4", "--no-web"]
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert "--store 'mysql://ann@db/c4': a postgresql://... URL" in error
    assert error.count("\n") == 1


def test_a_lease_under_a_second_is_refused_in_one_line(tmp_path, capsys):
    argv = ["serve", "--state", str(tmp_path), "--lease-seconds", "0", "--no-web"]
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert "--lease-seconds 0: at least 1 second" in error and error.count("\n") == 1


async def test_a_second_server_on_one_state_directory_is_refused_while_the_first_runs(tmp_path):
    state = tmp_path / "state"
    first = Server(ServeConfig(state, ssh_port=None, web_port=None))
    await first.start()
    try:
        second = Server(ServeConfig(state, ssh_port=None, web_port=None))
        with pytest.raises(StateDirError, match="in use by another c4tui serve"):
            await second.start()
    finally:
        await first.stop()
    await second.start()  # the first has stopped: the directory is free again
    await second.stop()


def test_a_state_directory_that_lost_its_database_is_not_started_afresh(tmp_path, capsys):
    state = tmp_path / "state"

    async def first_start() -> None:
        server = Server(ServeConfig(state, ssh_port=None, web_port=None))
        await server.start()
        server.rooms.host.store.execute("INSERT INTO players (name, created) VALUES ('ann', 'x')")
        await server.stop()

    asyncio.run(first_start())
    for name in ("community.sqlite3", "community.sqlite3-wal", "community.sqlite3-shm"):
        (state / name).unlink(missing_ok=True)
    assert main(["serve", "--state", str(state), "--ssh", "0", "--no-web"]) == 2
    error = capsys.readouterr().err
    assert "the database is gone" in error and "put the database back" in error
    assert error.count("\n") == 1
    assert not (state / "community.sqlite3").exists()


async def test_a_database_emptied_under_the_running_server_stops_it_loudly(tmp_path, caplog):
    state = tmp_path / "state"
    server = Server(ServeConfig(state, ssh_port=None, web_port=None))
    await server.start()
    told: list[str] = []
    server.on_broken = told.append
    store = server.rooms.host.store
    (state / "community.sqlite3").write_bytes(b"")  # someone's `> community.sqlite3`
    with pytest.raises(StoreGone), store.transaction():
        store.execute("INSERT INTO players (name, created) VALUES ('ann', 'now')")
    assert len(told) == 1 and "removed, emptied or replaced" in told[0]
    assert server.broken
    assert [r.message for r in caplog.records if r.levelname == "CRITICAL"] == [
        f"STOPPING: {told[0]}"
    ]
    await server.stop()
