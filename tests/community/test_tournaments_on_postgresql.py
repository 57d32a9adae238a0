"""Tournaments on several servers sharing one PostgreSQL database (issue 36)."""

from __future__ import annotations

import contextlib

from c4tui.community.player_records import PlayerRecords
from c4tui.community.rating_records import RatingRecords
from c4tui.rooms.service import RoomLimits, RoomService
from tests.rooms.support import Time, login, next_of, room_where
from tests.rooms.test_tournaments import FIRST_WINS, played, tournament_where


@contextlib.asynccontextmanager
async def two_servers(tmp_path, url, wall):
    """Two room services on one database, on the Unix seconds `wall`, no round pause."""
    limits = RoomLimits(ai_workers=1, round_pause=0.0)
    first = RoomService(tmp_path / "first", limits, store_url=url)
    second = RoomService(tmp_path / "second", limits, store_url=url)
    for service in (first, second):
        service.host.wall = wall
        service.tournaments.clock = wall
        await service.start()
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


def games_rated(service: RoomService, name: str) -> int:
    store = service.host.store
    player = PlayerRecords(store).player_of(f"ssh-name:{name}")
    return RatingRecords(store).standing(player, "blitz").games


async def test_a_tournament_game_taken_over_by_another_server_is_rated_once(postgres, tmp_path):
    wall = Time(2_000_000_000.0)
    async with two_servers(tmp_path, postgres.fresh_url(), wall) as (first, second):
        ann, bob = await login(first, "ann"), await login(first, "bob")
        await ann.send("make_tournament", name="Duel", control="3+2", rounds=1, minutes=60)
        number = (await tournament_where(ann, lambda m: True))["tournament"]["number"]
        await bob.send("enter_tournament", tournament=number)
        await tournament_where(ann, lambda m: m["tournament"]["players"] == 2)
        await ann.send("begin_tournament", tournament=number)
        seats, names = {}, {}
        for client, name in ((ann, "ann"), (bob, "bob")):
            seat = (await room_where(client, lambda m: m["seat"] is not None))["seat"]
            seats[seat], names[seat] = client, name
        await played(seats, FIRST_WINS[:3])
        # The first server dies (stops renewing): the second takes the room.
        first.host._tick.cancel()
        first.tournaments._tick.cancel()
        wall.moved(first.host.limits.lease_seconds + 1)
        second.host.see_to_leases()
        (room,) = second.host.rooms
        again = {seat: await login(second, names[seat]) for seat in seats}
        for client in again.values():
            await room_where(client, lambda m: m["room"] == room and m["moves"] == "121")
        await played(again, FIRST_WINS[3:], first_ply=3)
        told = await next_of(again[1], "notice", lambda m: m["text"].startswith("Ratings:"))
        assert f"{names[0]} 1662 (+162)" in told["text"]
        assert [games_rated(second, name) for name in ("ann", "bob")] == [1, 1]
        for client in (ann, bob, *again.values()):
            await client.close()
