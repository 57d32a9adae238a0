"""How long the store takes to keep a room after a move (the room service keeps it
before anyone is shown the move). Prints wall-clock p50/p95 and process (CPU) time per
kept move, for SQLite in a temporary directory, or PostgreSQL: `--store postgresql`
starts one in a temporary directory as the tests do (load_store.py) and keeps into a new
database; `--store URL` uses that database, in a schema of its own that it drops after.
Issue 46's goal: a kept move at most 2 ms p50 on PostgreSQL. `--writer`: each move kept
as the room service keeps it, by a store writer's thread (server/store/writer.py) that
the event loop hands it to and waits on: the wall time includes the hop there and back.

    uv run python benchmarks/store_moves.py [--games 50] [--synchronous NORMAL|FULL]
    uv run python benchmarks/store_moves.py --store postgresql [--writer]
    uv run python benchmarks/store_moves.py --store postgresql://USER@127.0.0.1:PORT/postgres
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path

from load_store import LoadStore

from c4tui.engine.board.game import Game
from c4tui.server.rooms.keeping import RoomKeeper, new_game_name, room_record
from c4tui.server.rooms.room import Room, Seat
from c4tui.server.store.opening import open_store
from c4tui.server.store.room_records import RoomRecord
from c4tui.server.store.store import Store
from c4tui.server.store.writer import StoreWriters
from c4tui.server.wire.identity import RoomLimits

GAME = "1234567123456712146671233457523556612344"  # 40 plies that end nothing on 7x6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--synchronous", default="NORMAL", choices=["NORMAL", "FULL"])
    parser.add_argument(
        "--store", default="sqlite", metavar="sqlite|postgresql|URL",
        help="postgresql: one started here; a URL: that PostgreSQL database",
    )  # fmt: skip
    parser.add_argument("--writer", action="store_true", help="through a store writer's thread")
    args = parser.parse_args()
    if args.store == "postgresql":
        with LoadStore("postgresql") as stores:
            keep_moves(args, stores.fresh(), None)
    elif args.store == "sqlite":
        keep_moves(args, None, None)
    else:
        keep_moves(args, args.store, f"bench_{os.getpid()}")


def keep_moves(args: argparse.Namespace, store_url: str | None, schema: str | None) -> None:
    """Keep every move of `args.games` rooms; `schema`: one of its own in that database."""
    url = store_url
    if schema is not None:
        url = f"{store_url}?options=-csearch_path%3D{schema}"
        open_store(Path("."), store_url).execute(f"CREATE SCHEMA {schema}")
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_DIR")) as folder:
        store = open_store(Path(folder), url)
        if url is None:
            store.execute(f"PRAGMA synchronous={args.synchronous}")
        walls: list[float] = []
        cpus: list[float] = []
        asyncio.run(play(args, store, walls, cpus))
        if schema is not None:
            store.execute(f"DROP SCHEMA {schema} CASCADE")
        store.close()
    walls.sort()
    what = "PostgreSQL" if url else f"SQLite, synchronous={args.synchronous}"
    what += ", through a writer's thread" if args.writer else ", on the caller's thread"
    print(f"{what}: {len(walls)} moves kept in {args.games} rooms")
    print(
        f"  per kept move: wall p50 {statistics.median(walls) * 1e3:.3f} ms, "
        f"p95 {walls[int(len(walls) * 0.95)] * 1e3:.3f} ms; "
        f"CPU mean {statistics.fmean(cpus) * 1e3:.3f} ms"
    )
    print(f"  load: {os.getloadavg()[0]:.2f} (1 min)")


async def play(
    args: argparse.Namespace, store: Store, walls: list[float], cpus: list[float]
) -> None:
    """Every game's moves, each kept on this thread or (`--writer`) by a writer's."""
    writers = StoreWriters(store, RoomLimits().store_writers) if args.writer else None

    async def kept(room: Room, last: RoomRecord | None) -> RoomRecord:
        if writers is None:
            return RoomKeeper(store).keep(room, last)
        record = room_record(room)
        await writers.submit(room.number, lambda s: RoomKeeper(s).write(record, last, False, None))
        return record

    for number in range(1, args.games + 1):
        seats = [Seat(f"ssh-name:a{number}", "ann"), Seat(f"ssh-name:b{number}", "bob")]
        room = Room(number, f"C{number}", Game.from_moves(""), seats, name=new_game_name(number))
        last = await kept(room, None)
        for ply, column in enumerate(GAME):
            if room.over:
                break
            assert room.drop(ply % 2, int(column) - 1, ply) is None
            wall, cpu = time.perf_counter(), time.process_time()
            last = await kept(room, last)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
    if writers is not None:
        writers.close()


if __name__ == "__main__":
    main()
