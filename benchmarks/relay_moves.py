"""What a move costs when it crosses servers (issue 36): two room services on one
PostgreSQL, in this process, and pairs of players playing the same 40 plies. Prints, per
move, the wall-clock time from a player's `drop` to the opponent seeing it, and this
process's CPU time (both services and all clients), for two pairs:

- both players on the room's server (no relay);
- the room on the first server, its second player on the second (every other move
  goes out through the relay, and every view comes back through it);

    uv run python benchmarks/relay_moves.py --store postgresql://USER@127.0.0.1:PORT/postgres
    [--games 5]

It makes a schema of its own in that database and drops it after.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path

import psycopg
from store_moves import GAME  # the 40 plies that end nothing on 7x6

from c4tui.server.service.service import Identity, RoomLimits, RoomService
from c4tui.server.wire.room_client import RoomClient


async def login(service: RoomService, name: str) -> RoomClient:
    identity = Identity(f"ssh-name:{name}", name, "127.0.0.1")
    return await RoomClient.connect(service.socket_path, token=service.issue_token(identity))


async def room(client: RoomClient, where) -> dict:
    """The next room view for which `where` holds (other messages are passed over)."""
    while True:
        message = await client.receive()
        if message is None:
            raise ConnectionError("the connection ended")
        if message.kind == "room" and where(message):
            return message


async def game(ann: RoomClient, bob: RoomClient, walls: list[float], cpus: list[float]) -> None:
    await ann.send("create")
    code = (await room(ann, lambda m: m.seat == 0)).code
    await bob.send("join", code=code)
    await room(bob, lambda m: m.seat == 1)
    await room(ann, lambda m: not m.seats[1].open)
    for ply, column in enumerate(GAME):
        mover, other = (ann, bob) if ply % 2 == 0 else (bob, ann)
        wall, cpu = time.perf_counter(), time.process_time()
        await mover.send("drop", column=int(column) - 1, ply=ply)
        await room(other, lambda m, n=ply + 1: len(m.moves) == n)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        await room(mover, lambda m, n=ply + 1: len(m.moves) == n)
    await ann.send("leave")
    await bob.send("leave")


async def measure(url: str, games: int) -> None:
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_DIR")) as folder:
        limits = RoomLimits(ai_workers=1)
        first = RoomService(Path(folder) / "first", limits, store_url=url)
        second = RoomService(Path(folder) / "second", limits, store_url=url)
        await first.start()
        await second.start()
        try:
            pairs = {
                "both on the room's server": (first, first),
                "the second player on the other server": (first, second),
            }
            for pair, (what, (home, away)) in enumerate(pairs.items()):
                walls: list[float] = []
                cpus: list[float] = []
                for number in range(games):
                    ann = await login(home, f"ann{pair}.{number}")  # new people: no seats held
                    bob = await login(away, f"bob{pair}.{number}")
                    await game(ann, bob, walls, cpus)
                    await ann.close()
                    await bob.close()
                walls.sort()
                print(f"{what}: {len(walls)} moves")
                print(
                    f"  drop to the opponent's view: wall median "
                    f"{statistics.median(walls) * 1e3:.1f} ms, p95 "
                    f"{walls[int(len(walls) * 0.95)] * 1e3:.1f} ms; "
                    f"CPU (this process) mean {statistics.fmean(cpus) * 1e3:.2f} ms"
                )
        finally:
            await first.close()
            await second.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", metavar="URL", required=True, help="a PostgreSQL database")
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    schema = f"bench_relay_{os.getpid()}"
    with psycopg.connect(args.store, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    try:
        asyncio.run(measure(f"{args.store}?options=-csearch_path%3D{schema}", args.games))
    finally:
        with psycopg.connect(args.store, autocommit=True) as admin:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")
    print(f"  load: {os.getloadavg()[0]:.2f} (1 min)")


if __name__ == "__main__":
    main()
