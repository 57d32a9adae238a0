"""The PostgreSQL store when its database goes away and comes back: restarted, or frozen
(every process of it stopped, as a hung host): no statement holds the server past its
limit, every statement meanwhile fails with a StoreError at once, and the store opens a
new connection by itself when the database is back (before, a restart left the store on
a closed connection until c4tui was restarted, and a freeze held the server forever)."""

from __future__ import annotations

import asyncio
import threading
import time

from c4tui.server.store.postgres_store import PostgresStore
from c4tui.server.store.store import StoreError

PATIENCE = 60.0  # seconds before the test calls a statement hung, or the store lost


def answered(store: PostgresStore) -> BaseException | int:
    """`SELECT 1` in a thread: its value, or the error it raised; a statement still
    waiting after PATIENCE fails the test (it would have held the server)."""
    result: list[BaseException | int] = []

    def ask() -> None:
        try:
            result.append(store.value("SELECT 1"))
        except BaseException as error:
            result.append(error)

    asking = threading.Thread(target=ask, daemon=True)
    asking.start()
    asking.join(PATIENCE)
    assert result, "a statement held on while the database was away"
    return result[0]


def back(store: PostgresStore) -> None:
    """Wait (PATIENCE at most) for the store to answer again by itself."""
    deadline = time.monotonic() + PATIENCE
    while not isinstance(answered(store), int):
        assert time.monotonic() < deadline, "the store never reconnected"
        time.sleep(0.2)


def test_a_restarted_database_is_reached_again_by_itself(own_postgres):
    store = PostgresStore(own_postgres.url, statement_seconds=1.0)
    try:
        assert answered(store) == 1
        own_postgres.halt()
        assert isinstance(answered(store), StoreError)
        assert isinstance(answered(store), StoreError)  # at once: the store knows it is away
        own_postgres.start_again()
        back(store)
        assert answered(store) == 1
    finally:
        store.close()


def test_a_frozen_database_holds_no_statement_and_is_reached_when_it_thaws(own_postgres):
    store = PostgresStore(own_postgres.url, statement_seconds=1.0)
    try:
        assert answered(store) == 1
        own_postgres.freeze()
        failed = answered(store)
        assert isinstance(failed, StoreError), failed
        assert isinstance(answered(store), StoreError)
        own_postgres.thaw()
        back(store)
    finally:
        store.close()


async def test_a_game_goes_on_by_itself_after_its_database_restarts(own_postgres, tmp_path):
    # Before, the server stayed on its closed connection: every move was refused until
    # c4tui itself was restarted.
    from c4tui.server.service.service import RoomService
    from c4tui.server.wire.identity import RoomLimits
    from tests.community.two_servers import a_game
    from tests.rooms.support import room_where

    url = own_postgres.url
    service = RoomService(tmp_path / "state", RoomLimits(store_timeout=1.0), store_url=url)
    await service.start()
    try:
        ann, bob, _ = await a_game(service, service)
        await ann.send("drop", column=3, ply=0)
        await room_where(bob, lambda m: m["moves"] == "4")
        own_postgres.halt()
        await bob.send("drop", column=3, ply=1)  # not kept: undone, and bob is told
        await room_where(bob, lambda m: m["moves"] == "4" and m["trouble"])
        own_postgres.start_again()
        # Back by itself: the room is kept again at a look, and the game goes on.
        deadline = asyncio.get_running_loop().time() + PATIENCE
        while True:
            service.host.look()
            if service.host.rooms and all(r.trouble is None for r in service.host.rooms.values()):
                break
            assert asyncio.get_running_loop().time() < deadline, "never kept again"
            await asyncio.sleep(0.2)
        await bob.send("drop", column=3, ply=1)
        moved = await room_where(ann, lambda m: m["moves"] == "44")
        assert moved["trouble"] is None
        await ann.close()
        await bob.close()
    finally:
        await service.close()


async def test_clocks_stop_while_the_database_is_away_and_run_when_it_is_back(
    own_postgres, tmp_path
):
    # Before, the clocks ran on while no move could be kept: a player whose move was
    # refused lost on time, the loss itself refused and tried again until it was kept.
    from c4tui.server.service.service import RoomService
    from c4tui.server.wire.identity import RoomLimits
    from tests.community.two_servers import a_game
    from tests.rooms.support import Time, room_where

    time = Time()
    limits = RoomLimits(store_timeout=1.0)
    service = RoomService(tmp_path / "state", limits, now=time, store_url=own_postgres.url)
    await service.start()
    try:
        ann, bob, _ = await a_game(service, service, clock="1+0")
        time.moved(5)
        await ann.send("drop", column=3, ply=0)
        await room_where(bob, lambda m: m["moves"] == "4")
        time.moved(10)  # bob thinks 10 s, then the database goes
        own_postgres.halt()
        service.host.look()  # the database is found away: bob's clock stops at 50 s
        stopped = await room_where(bob, lambda m: m["trouble"] and m["clock"]["running"] is None)
        assert stopped["clock"]["left"] == [55.0, 50.0]
        time.moved(120)  # far past bob's time: his flag does not fall meanwhile
        service.host.look()
        await bob.send("drop", column=3, ply=1)  # refused: not kept, and bob is told
        refused = await room_where(bob, lambda m: m["moves"] == "4" and m["trouble"])
        assert refused["clock"]["left"] == [55.0, 50.0] and refused["ended"] is None
        own_postgres.start_again()
        deadline = asyncio.get_running_loop().time() + PATIENCE
        while service.host.rooms[1].trouble is not None:
            service.host.look()
            assert asyncio.get_running_loop().time() < deadline, "never kept again"
            await asyncio.sleep(0.2)
        running = await room_where(bob, lambda m: m["trouble"] is None)
        assert running["clock"] == {**running["clock"], "left": [55.0, 50.0], "running": 1}
        time.moved(3)
        await bob.send("drop", column=3, ply=1)  # his clock ran again from its return
        moved = await room_where(ann, lambda m: m["moves"] == "44")
        assert moved["clock"]["left"] == [55.0, 47.0] and moved["ended"] is None
        await ann.close()
        await bob.close()
    finally:
        await service.close()
