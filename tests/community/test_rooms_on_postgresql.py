"""The room service on PostgreSQL (`c4tui serve --store URL`): a game kept move by move
comes back after a restart; two servers on one database share its rooms by leases, and a
server that stops renewing them loses its rooms to the other, move for move."""

from __future__ import annotations

import asyncio

from c4tui.server.rooms.hooks import HostListener
from c4tui.server.service.service import RoomService
from tests.community.two_servers import a_game, killed, play, two_servers
from tests.rooms.support import Time, login, next_of, room_where


async def test_a_game_on_postgresql_comes_back_after_a_restart(postgres, tmp_path):
    url = postgres.fresh_url()
    service = RoomService(tmp_path / "state", store_url=url)
    await service.start()
    try:
        ann, bob, _ = await a_game(service, service)
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


async def test_a_server_that_stops_renewing_loses_its_rooms_to_the_other_its_players_following(
    postgres, tmp_path
):
    url = postgres.fresh_url()
    wall = Time(2_000_000_000.0)  # both servers' Unix seconds, moved by hand
    first = RoomService(tmp_path / "first", store_url=url)
    second = RoomService(tmp_path / "second", store_url=url)
    for service in (first, second):
        service.host.wall = wall
        await service.start()
    try:
        ann, bob, _ = await a_game(first, first)
        for ply, col in enumerate("445"):
            await (ann, bob)[ply % 2].send("drop", column=int(col) - 1, ply=ply)
            await room_where(ann, lambda m, n=ply + 1: len(m["moves"]) == n)
        (number,) = first.host.rooms
        await second.host.leasing.see_to()  # the first renews: the room stays there
        assert second.host.rooms == {}
        first.host._tick.cancel()  # the first stops renewing, as a killed server does
        wall.moved(second.host.limits.lease_seconds + 1)
        await second.host.leasing.see_to()
        assert list(second.host.rooms) == [number]
        # A move on the first server now is refused there: the room is not its own.
        await bob.send("drop", column=4, ply=3)
        assert "another server" in (await next_of(bob, "notice"))["text"]
        assert first.host.rooms == {}
        # Its players follow the room: relayed to the second, in their seats.
        back = await room_where(bob, lambda m: m["seat"] == 1)
        assert back["moves"] == "445"
        await bob.send("drop", column=4, ply=3)
        await room_where(ann, lambda m: m["seat"] == 0 and m["moves"] == "4455")
        bob2 = await login(second, "bob")  # and through the live server itself
        await room_where(bob2, lambda m: m["seat"] == 1 and m["moves"] == "4455")
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
        assert second.host.leasing.servers() == both
        await first.host.leasing.see_to()  # its next heartbeat finds the second
        assert first.host.leasing.servers() == both
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
        assert second.host.leasing.servers() == [second.host.server]
        await second.close()


async def test_a_player_on_each_server_plays_the_other_through_the_room(postgres, tmp_path):
    async with two_servers(tmp_path, postgres.fresh_url()) as (first, second):
        ann, dave = await login(first, "ann"), await login(first, "dave")
        bob, carol = await login(second, "bob"), await login(second, "carol")
        await ann.send("create")
        shown = await room_where(ann, lambda m: m["seat"] == 0)
        await bob.send("join", code=shown["code"])  # a room the other server holds
        seated = await room_where(bob, lambda m: m["seat"] == 1)
        assert seated["room"] == shown["room"] and seated["seats"][0]["name"] == "ann"
        await room_where(ann, lambda m: m["seats"][1]["name"] == "bob")
        await carol.send("watch", room=shown["room"])  # a spectator on either server
        await dave.send("watch", room=shown["room"])
        for client in (ann, bob, carol, dave):
            await room_where(client, lambda m: m["watchers"] == ["carol", "dave"])
        await play("4455", (ann, bob), ann, bob, carol, dave)
        await bob.send("say", text="well played")
        for client in (ann, carol, dave):
            assert (await next_of(client, "said"))["text"] == "well played"
        await bob.send("drop", column=0, ply=3)  # a stale move: refused as for anyone
        assert (await next_of(bob, "refused"))["of"] == "drop"
        await bob.send("leave")  # back to its own server's lobby, its seat held there
        await next_of(bob, "lobby")
        held = await room_where(ann, lambda m: m["seats"][1]["held"] is not None)
        assert held["moves"] == "4455"
        await bob.send("join", code=shown["code"])  # and back into it
        await room_where(bob, lambda m: m["seat"] == 1 and m["moves"] == "4455")
        await play("4", (ann, bob), ann, bob, start=4)
        for client in (ann, bob, carol, dave):
            await client.close()


async def test_a_dead_servers_room_goes_on_through_the_other_move_for_move(postgres, tmp_path):
    wall = Time(2_000_000_000.0)  # both servers' Unix seconds, moved by hand
    async with two_servers(tmp_path, postgres.fresh_url(), wall) as (first, second):
        ann, bob, shown = await a_game(first, second)
        carol = await login(second, "carol")
        await carol.send("watch", room=shown["room"])
        await room_where(carol, lambda m: m["seat"] is None)
        await play("445", (ann, bob), ann, bob, carol)
        # The first server dies: it renews nothing and says nothing more.
        await killed(first)
        wall.moved(second.host.limits.lease_seconds + 1)
        await second.host.leasing.see_to()
        assert list(second.host.rooms) == [shown["room"]]
        # Its relayed players are in the room on their own server now, in their seats.
        back = await room_where(bob, lambda m: m["seat"] == 1 and m["seats"][1]["here"])
        assert back["moves"] == "445" and back["seats"][0]["held"] is not None
        await room_where(carol, lambda m: m["seat"] is None and m["moves"] == "445")
        await play("5", (bob, ann), bob, carol, start=3)
        ann_again = await login(second, "ann")  # ann comes back through the live server
        await room_where(ann_again, lambda m: m["seat"] == 0 and m["moves"] == "4455")
        await play("3", (ann_again, bob), ann_again, bob, carol, start=4)
        for client in (ann, ann_again, bob, carol):
            await client.close()


async def test_a_dead_servers_players_are_gone_from_the_other_servers_rooms(postgres, tmp_path):
    wall = Time(2_000_000_000.0)
    async with two_servers(tmp_path, postgres.fresh_url(), wall) as (first, second):
        ann, bob, _ = await a_game(first, second)
        await room_where(ann, lambda m: m["seats"][1]["here"])
        await play("44", (ann, bob), ann, bob)
        await killed(second)  # the second dies, with bob on it
        wall.moved(first.host.limits.lease_seconds + 1)
        await first.host.leasing.see_to()
        held = await room_where(ann, lambda m: m["seats"][1]["held"] is not None)
        assert not held["seats"][1]["here"] and held["moves"] == "44"
        bob_again = await login(first, "bob")  # bob comes back to his seat on the first
        await room_where(bob_again, lambda m: m["seat"] == 1 and m["moves"] == "44")
        for client in (ann, bob, bob_again):
            await client.close()
