"""A dead server's room taken over by a live one seats its players who reached the live
server first, as a balancer sends them there at once (and its spectators watch on, on
whichever server they came back to): while the dead server's lease
still ran (relayed to it, server/rooms/relay.py) and in the moment after it ran out, when no
server held the room and they were sent to the lobby (found by
tests/serve/test_two_servers.py's kill, one run in four: they waited in the lobby beside
their own game)."""

from __future__ import annotations

import pytest

from tests.community.two_servers import a_game, killed, play, two_servers
from tests.rooms.support import Time, login, next_of, room_where


@pytest.mark.parametrize("arrives", ["before the lease ran out", "after it ran out"])
async def test_a_player_waiting_on_the_live_server_sits_down_when_the_room_is_taken_over(
    postgres, tmp_path, arrives
):
    wall = Time(2_000_000_000.0)  # both servers' Unix seconds, moved by hand
    async with two_servers(tmp_path, postgres.fresh_url(), wall) as (first, second):
        ann, bob, _ = await a_game(first, first)
        await play("445", (ann, bob), ann)
        await killed(first)
        if arrives == "after it ran out":  # and before the second looked at the leases
            wall.moved(second.host.limits.lease_seconds + 1)
        bob2 = await login(second, "bob")
        await next_of(bob2, "lobby")
        wall.moved(second.host.limits.lease_seconds + 1)
        await second.host.leasing.see_to()
        back = await room_where(bob2, lambda m: m["seat"] == 1)
        assert back["moves"] == "445"
        await bob2.send("drop", column=4, ply=3)
        await room_where(bob2, lambda m: m["moves"] == "4455")
        for client in (ann, bob, bob2):
            await client.close()


@pytest.mark.parametrize("arrives", ["before the room is taken over", "after it is"])
async def test_a_spectator_of_a_dead_servers_room_watches_on_through_the_live_server(
    postgres, tmp_path, arrives
):
    wall = Time(2_000_000_000.0)
    async with two_servers(tmp_path, postgres.fresh_url(), wall) as (first, second):
        ann, bob, shown = await a_game(first, first)
        carol = await login(first, "carol")
        await carol.send("watch", room=shown["room"])
        await play("445", (ann, bob), ann, bob, carol)
        await killed(first)  # her connection with it, as a balancer sends her elsewhere
        if arrives == "after it is":
            wall.moved(second.host.limits.lease_seconds + 1)
            await second.host.leasing.see_to()
        carol2 = await login(second, "carol")
        if arrives == "before the room is taken over":
            await next_of(carol2, "lobby")
            wall.moved(second.host.limits.lease_seconds + 1)
            await second.host.leasing.see_to()
        watching = await room_where(carol2, lambda m: m["moves"] == "445")
        assert watching["seat"] is None and watching["room"] == shown["room"]
        bob2 = await login(second, "bob")
        await room_where(bob2, lambda m: m["seat"] == 1)
        await bob2.send("drop", column=4, ply=3)
        await room_where(carol2, lambda m: m["moves"] == "4455")
        for client in (ann, bob, carol, bob2, carol2):
            await client.close()
