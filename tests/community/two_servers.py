"""Two room services on one PostgreSQL database, for the tests of several servers."""

from __future__ import annotations

import contextlib

from c4tui.server.service.service import RoomLimits, RoomService
from tests.rooms.support import login, room_where


@contextlib.asynccontextmanager
async def two_servers(tmp_path, url, wall=None, names=("first", "second"), now=None, limits=None):
    """Room services on one database, two unless more `names` are given (with the Unix
    seconds `wall` of their leases and tournaments, the clocks' time `now` and the
    `limits`, when given), started in order and closed after."""
    limits = limits or RoomLimits(ai_workers=1, ai_seconds=0.3)
    services = [RoomService(tmp_path / name, limits, now=now, store_url=url) for name in names]
    try:
        for service in services:
            if wall is not None:
                service.host.wall = wall
                service.tournaments.clock = wall
            await service.start()
        yield services
    finally:
        for service in services:
            await service.close()


async def play(moves: str, players, *everyone, start: int = 0) -> None:
    """The players take turns (the first of `players` at ply `start`); each move is
    waited for on every client in `everyone`."""
    for ply, col in enumerate(moves, start):
        await players[(ply - start) % 2].send("drop", column=int(col) - 1, ply=ply)
        for client in everyone:
            await room_where(client, lambda m, n=ply + 1: len(m["moves"]) == n)


async def a_game(ann_at, bob_at, **settings):
    """ann, logged in to the service `ann_at`, makes a room (with these settings); bob,
    logged in to `bob_at`, sits in it by its code: (ann, bob, the room as ann was shown
    it first)."""
    ann, bob = await login(ann_at, "ann"), await login(bob_at, "bob")
    await ann.send("create", **settings)
    shown = await room_where(ann, lambda m: m["seat"] == 0)
    await bob.send("join", code=shown["code"])
    await room_where(bob, lambda m: m["seat"] == 1)
    return ann, bob, shown


async def killed(service) -> None:
    """The service dies as SIGKILL leaves it to the others: it renews nothing and says
    nothing more (its clients' connections stay open, unanswered by anyone else)."""
    service.host._tick.cancel()
    await service.host.bus.close()
