"""A player who comes back is seated from the index of seats by person (lobby.py's,
RoomHost.seats_of), never by asking every room: right after a leave and a reconnect, and
right after a takeover, before any move there."""

from __future__ import annotations

import pytest

from c4tui.server.rooms.room import Room
from tests.community.two_servers import a_game, killed, play, two_servers
from tests.rooms.support import Time, login, room_where


async def test_a_newcomer_is_not_looked_for_in_every_room_and_a_player_comes_back_to_hers(
    service, monkeypatch
):
    ann, bob, _ = await a_game(service, service)
    await play("4", (ann, bob), ann, bob)
    asked: list[tuple[int, str]] = []
    seat_of = Room.seat_of
    monkeypatch.setattr(
        Room, "seat_of", lambda room, key: asked.append((room.number, key)) or seat_of(room, key)
    )
    cat = await login(service, "cat")
    await cat.receive()  # welcomed and sent the lobby: arrived
    assert [number for number, key in asked if key == "ssh-name:cat"] == []
    await ann.close()  # her seat is held, then she is back in it
    ann = await login(service, "ann")
    back = await room_where(ann, lambda m: m["seat"] == 0)
    assert back["moves"] == "4"
    for client in (ann, bob, cat):
        await client.close()


@pytest.mark.slow  # two servers on PostgreSQL
async def test_a_player_arriving_right_after_a_takeover_is_seated_there(postgres, tmp_path):
    wall = Time(2_000_000_000.0)
    async with two_servers(tmp_path, postgres.fresh_url(), wall) as (first, second):
        ann, bob, _ = await a_game(first, first)
        await play("44", (ann, bob), ann, bob)
        await killed(first)
        wall.moved(second.host.limits.lease_seconds + 1)
        await second.host.leasing.see_to()  # taken over: no move, no lobby sent since
        (number,) = second.host.rooms
        assert [room.number for room in second.host.seats_of("ssh-name:ann")] == [number]
        ann_there = await login(second, "ann")
        back = await room_where(ann_there, lambda m: m["seat"] == 0)
        assert back["moves"] == "44"
        for client in (ann, bob, ann_there):
            await client.close()
