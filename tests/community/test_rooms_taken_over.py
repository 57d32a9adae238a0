"""A dead server's room taken over by a live one seats its players who reached the live
server first, as a balancer sends them at once: while the dead server's lease still ran
(relayed to it, rooms/relay.py) and in the moment after it ran out, when no server held
the room and they were sent to the lobby (found by tests/serve/test_two_servers.py's
kill, one run in four: they waited in the lobby beside their own game)."""

from __future__ import annotations

from c4tui.rooms.service import RoomService
from tests.rooms.support import Time, login, next_of, room_where


async def test_a_player_waiting_in_the_lobby_sits_down_when_the_room_is_taken_over(
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
        ann, bob = await login(first, "ann"), await login(first, "bob")
        await ann.send("create")
        code = (await room_where(ann, lambda m: m["seat"] == 0))["code"]
        await bob.send("join", code=code)
        await room_where(bob, lambda m: m["seat"] == 1)
        for ply, col in enumerate("445"):
            await (ann, bob)[ply % 2].send("drop", column=int(col) - 1, ply=ply)
            await room_where(ann, lambda m, n=ply + 1: len(m["moves"]) == n)
        first.host._tick.cancel()  # the first dies: it renews nothing, says nothing more
        await first.host.bus.close()
        bob2 = await login(second, "bob")  # at once: the room is still the first's
        await next_of(bob2, "lobby")
        wall.moved(second.host.limits.lease_seconds + 1)
        second.host.see_to_leases()
        back = await room_where(bob2, lambda m: m["seat"] == 1)
        assert back["moves"] == "445"
        await bob2.send("drop", column=4, ply=3)
        await room_where(bob2, lambda m: m["moves"] == "4455")
        for client in (ann, bob, bob2):
            await client.close()
    finally:
        await first.close()
        await second.close()


async def test_a_player_who_comes_after_the_lease_ran_out_sits_down_at_the_takeover(
    postgres, tmp_path
):
    """Between a dead server's lease running out and the live server's next look at the
    leases (up to a third of a lease), no server holds the room: a player arriving then
    is sent to the lobby, and sits down when the live server takes the room."""
    url = postgres.fresh_url()
    wall = Time(2_000_000_000.0)
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
        first.host._tick.cancel()  # the first dies: it renews nothing, says nothing more
        await first.host.bus.close()
        wall.moved(second.host.limits.lease_seconds + 1)
        bob2 = await login(second, "bob")  # the lease ran out; the second has not looked
        await next_of(bob2, "lobby")
        second.host.see_to_leases()
        back = await room_where(bob2, lambda m: m["seat"] == 1)
        assert back["moves"] == "445"
        await bob2.send("drop", column=4, ply=3)
        await room_where(bob2, lambda m: m["moves"] == "4455")
        for client in (ann, bob, bob2):
            await client.close()
    finally:
        await first.close()
        await second.close()
