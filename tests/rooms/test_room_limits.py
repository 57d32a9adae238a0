"""Rooms per player and per address: one machine cannot fill the server's rooms."""

from __future__ import annotations

import pytest

from tests.rooms.support import login, next_of, room_where, running


@pytest.fixture
async def tight(tmp_path):
    limits = {"rooms_per_player": 2, "rooms_per_address": 3, "ai_seconds": 0.3}
    async with running(tmp_path / "state", **limits) as service:
        yield service


async def test_one_player_has_a_seat_in_so_many_rooms_at_most(tight):
    ann = await login(tight, "ann")
    for made in (1, 2):  # games under way, stepped out of: their seats are held
        await ann.send("create", ai="random", second=True)
        await room_where(ann, lambda m, n=made: m["room"] == n and len(m["moves"]) == 1)
    await ann.send("create", ai="random", second=True)
    reason = (await next_of(ann, "refused"))["reason"]
    assert "seat in 2 rooms" in reason
    await ann.close()


async def test_making_a_room_again_from_an_empty_one_is_not_refused(tight):
    ann = await login(tight, "ann")
    for _ in range(4):  # each new room leaves the last one, which had no game: it goes
        await ann.send("create")
        await room_where(ann, lambda m: m["seat"] == 0)
    await ann.send("lobby")
    assert len((await next_of(ann, "lobby"))["rooms"]) == 1
    await ann.close()


async def test_one_address_makes_so_many_rooms_at_most(tight):
    people = [await login(tight, name) for name in ("ann", "bob", "cat", "dan")]
    for person in people[:3]:
        await person.send("create")
        await room_where(person, lambda m: m["seat"] == 0)
    await people[3].send("create")
    assert "from your address" in (await next_of(people[3], "refused"))["reason"]
    for person in people:
        await person.close()
