"""The room service on PostgreSQL (`c4tui serve --store URL`): a game kept move by move
comes back after a restart; two servers on one database share its rooms by leases, and a
server that stops renewing them loses its rooms to the other, move for move."""

from __future__ import annotations

import asyncio

from c4tui.rooms.host import HostListener
from c4tui.rooms.service import RoomService
from tests.rooms.support import Time, login, next_of, room_where


async def test_a_game_on_postgresql_comes_back_after_a_restart(postgres, tmp_path):
    url = postgres.fresh_url()
    service = RoomService(tmp_path / "state", store_url=url)
    await service.start()
    try:
        ann, bob = await login(service, "ann"), await login(service, "bob")
        await ann.send("create")
        code = (await room_where(ann, lambda m: m["seat"] == 0))["code"]
        await bob.send("join", code=code)
        await room_where(bob, lambda m: m["seat"] == 1)
        for ply, col in enumerate("445"):
            await (ann, bob)[ply % 2].send("drop", column=int(col) - 1, ply=ply)
            await room_where(ann, lambda m, n=ply + 1: len(m["moves"]) == n)
        await ann.close()
        await bob.close()
    finally:
        await service.close()
    again = RoomService(tmp_path / "state", store_url=url)
    await again.start()
    try:
        ann = await login(again, "ann")
        back = await room_where(ann, lambda m: m["seat"] == 0)
        assert back["moves"] == "445" and back["seats"][1]["name"] == "bob"
        await ann.close()
    finally:
        await again.close()


async def test_a_server_that_stops_renewing_loses_its_rooms_to_the_other(postgres, tmp_path):
    url = postgres.fresh_url()
    wall = Time(2_000_000_000.0)  # both servers' Unix seconds, moved by hand
    first = RoomService(tmp_path / "first", store_url=url)
    second = RoomService(tmp_path / "second", store_url=url)
    for service in (first, second):
        service.host.wall = wall
        await service.start()
    try:
        ann, bob = await login(first, "ann"), await login(first, "bob")
        await ann.send("create")
        code = (await room_where(ann, lambda m: m["seat"] == 0))["code"]
        await bob.send("join", code=code)
        await room_where(bob, lambda m: m["seat"] == 1)
        for ply, col in enumerate("445"):
            await (ann, bob)[ply % 2].send("drop", column=int(col) - 1, ply=ply)
            await room_where(ann, lambda m, n=ply + 1: len(m["moves"]) == n)
        (number,) = first.host.rooms
        second.host.see_to_leases()  # the first renews: the room stays there
        assert second.host.rooms == {}
        first.host._tick.cancel()  # the first stops renewing, as a killed server does
        wall.moved(second.host.limits.lease_seconds + 1)
        second.host.see_to_leases()
        assert list(second.host.rooms) == [number]
        # A move on the first server now is refused there: the room is not its own.
        await bob.send("drop", column=4, ply=3)
        assert "another server" in (await next_of(bob, "notice"))["text"]
        assert first.host.rooms == {}
        bob2 = await login(second, "bob")  # bob comes back through the live server
        back = await room_where(bob2, lambda m: m["seat"] == 1)
        assert back["moves"] == "445"
        await bob2.send("drop", column=4, ply=3)
        await room_where(bob2, lambda m: m["moves"] == "4455")
        for client in (ann, bob, bob2):
            await client.close()
    finally:
        await first.close()
        await second.close()


async def test_servers_know_each_other_and_a_summons_reaches_every_one(postgres, tmp_path):
    url = postgres.fresh_url()
    first = RoomService(tmp_path / "first", store_url=url)
    second = RoomService(tmp_path / "second", store_url=url)
    gone = asyncio.Queue()

    class Follower(HostListener):
        def server_gone(self, server: str) -> None:
            gone.put_nowait(server)

    second.host.listeners.append(Follower())
    await first.start()
    await second.start()
    try:
        both = sorted([first.host.server, second.host.server])
        assert second.host.servers() == both
        first.host.see_to_leases()  # its next heartbeat finds the second
        assert first.host.servers() == both
        bob, ann = await login(second, "bob"), await login(second, "ann")
        await bob.send("create")
        number = (await room_where(bob, lambda m: m["seat"] == 0))["room"]
        await next_of(ann, "lobby")
        first.host.summon("ssh-name:ann", number)  # from the other server, over the bus
        watching = await room_where(ann, lambda m: m["room"] == number)
        assert watching["seat"] is None
        await ann.close()
        await bob.close()
    finally:
        await first.close()
        assert await asyncio.wait_for(gone.get(), 30) == first.host.server
        assert second.host.servers() == [second.host.server]
        await second.close()
