"""Two room services on one PostgreSQL database, for the tests of several servers."""

from __future__ import annotations

import contextlib

from c4tui.rooms.service import RoomLimits, RoomService
from tests.rooms.support import room_where


@contextlib.asynccontextmanager
async def two_servers(tmp_path, url, wall=None, names=("first", "second"), now=None):
    """Room services on one database, two unless more `names` are given (with the Unix
    seconds `wall` and the clocks' time `now`, when given), started in order and closed
    after."""
    limits = RoomLimits(ai_workers=1, ai_seconds=0.3)
    services = [RoomService(tmp_path / name, limits, now=now, store_url=url) for name in names]
    try:
        for service in services:
            if wall is not None:
                service.host.wall = wall
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
