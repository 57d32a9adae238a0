"""How long a game waits when the server holding its room dies (issue 36): two room
services on one PostgreSQL in this process, ann on the first (the room's server), bob
on the second (relayed). The first is "killed" (it stops renewing its leases and stops
talking on the bus, as SIGKILL leaves it) at a random moment of its renewal cycle, and
the time until bob is shown the room by the second server, in his seat, is printed:

    uv run python benchmarks/takeover_time.py --store postgresql://USER@127.0.0.1:PORT/postgres
    [--lease-seconds 3] [--kills 5]

The bound the docs state: the lease (L) to run out, and at most L/3 until the live
server's next renewal: L + L/3. The figure is wall-clock on a loaded machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

import psycopg
from relay_moves import login, room

from c4tui.server.service.service import RoomLimits, RoomService


async def one_kill(url: str, lease: float, folder: Path) -> float:
    limits = RoomLimits(ai_workers=1, lease_seconds=lease)
    first = RoomService(folder / "first", limits, store_url=url)
    second = RoomService(folder / "second", limits, store_url=url)
    await first.start()
    await second.start()
    try:
        ann, bob = await login(first, "ann"), await login(second, "bob")
        await ann.send("create")
        code = (await room(ann, lambda m: m.seat == 0)).code
        await bob.send("join", code=code)
        await room(bob, lambda m: m.seat == 1)
        await ann.send("drop", column=3, ply=0)
        await room(bob, lambda m: m.moves == "4")
        await asyncio.sleep(random.uniform(0, lease / 3))  # anywhere in its renewal cycle
        assert first.host._tick is not None
        first.host._tick.cancel()  # killed: no renewal, no word on the bus
        await first.host.bus.close()
        killed = time.perf_counter()
        await room(bob, lambda m: m.seat == 1 and m.moves == "4" and m.seats[1].here)
        while second.host.rooms == {}:  # a view the first sent before it died: not yet
            await room(bob, lambda m: m.seat == 1)
        waited = time.perf_counter() - killed
        await ann.close()
        await bob.close()
        return waited
    finally:
        await first.close()
        await second.close()


async def measure(url: str, lease: float, kills: int) -> None:
    waits = []
    for kill in range(kills):
        schema = f"bench_takeover_{os.getpid()}_{kill}"
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as admin:
            await admin.execute(f"CREATE SCHEMA {schema}")
        try:
            with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_DIR")) as folder:
                at = f"{url}?options=-csearch_path%3D{schema}"
                waits.append(await one_kill(at, lease, Path(folder)))
        finally:
            async with await psycopg.AsyncConnection.connect(url, autocommit=True) as admin:
                await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        print(f"  kill {kill + 1}: the game on through the other server after {waits[-1]:.2f} s")
    bound = lease + lease / 3
    print(
        f"--lease-seconds {lease:g}: {kills} kills, waited min {min(waits):.2f} s, median "
        f"{statistics.median(waits):.2f} s, max {max(waits):.2f} s (bound L + L/3 = "
        f"{bound:.2f} s); load {os.getloadavg()[0]:.2f} (1 min)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", metavar="URL", required=True, help="a PostgreSQL database")
    parser.add_argument("--lease-seconds", type=float, default=3.0)
    parser.add_argument("--kills", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(measure(args.store, args.lease_seconds, args.kills))


if __name__ == "__main__":
    main()
