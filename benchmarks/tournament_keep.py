"""How long the store takes to keep and to read a big tournament (64 players, 15 rounds,
480 boards): every change of a tournament (an entry, a result, a pairing) is read and
kept whole under the tournaments' lock, on the room service's event loop. Prints
wall-clock and process (CPU) time per keep and per read, for SQLite in a temporary
directory (or PostgreSQL with --store URL, into a schema of its own that it drops after):

    uv run python benchmarks/tournament_keep.py [--times 20]
    uv run python benchmarks/tournament_keep.py --store postgresql://USER@127.0.0.1:PORT/postgres
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from c4tui.community.tournament import Tournament
from c4tui.server.store.opening import open_store
from c4tui.server.store.tournament_records import TournamentRecords

PLAYERS, ROUNDS = 64, 15


def big_tournament() -> Tournament:
    """A finished Swiss of PLAYERS over ROUNDS, every board with a room and a result."""
    tournament = Tournament(1, "Big Swiss", "ann", "5+3", ROUNDS, 0.0)
    for index in range(PLAYERS):
        tournament.join(f"ssh-name:p{index}", f"p{index}", 1500.0 + index)
    results = random.Random(1)
    current = tournament.begin()
    while current is not None:
        for index, board in enumerate(current.boards):
            board.room = 100 * current.number + index
            board.points, board.how = results.choice((1.0, 0.5, 0.0)), "four in a row"
        current = tournament.advance()
    return tournament


def timed(times: int, work) -> tuple[float, float]:
    """The median wall-clock and CPU seconds of `work()` over `times` runs."""
    walls, cpus = [], []
    for _ in range(times):
        wall, cpu = time.perf_counter(), time.process_time()
        work()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, default=20)
    parser.add_argument("--store", metavar="URL", help="a PostgreSQL database instead")
    args = parser.parse_args()
    schema = f"bench_{os.getpid()}"
    url = args.store and f"{args.store}?options=-csearch_path%3D{schema}"
    if args.store:
        open_store(Path("."), args.store).execute(f"CREATE SCHEMA {schema}")
    tournament = big_tournament()
    boards = sum(len(done.boards) for done in tournament.rounds)
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_DIR")) as folder:
        store = open_store(Path(folder), url)
        records = TournamentRecords(store)
        records.keep(tournament)
        keep = timed(args.times, lambda: records.keep(tournament))
        read = timed(args.times, lambda: records.load(1))
        assert records.load(1) == [tournament]
        if args.store:
            store.execute(f"DROP SCHEMA {schema} CASCADE")
        store.close()
    print(f"{store.dialect}: {PLAYERS} players, {len(tournament.rounds)} rounds, {boards} boards")
    for what, (wall, cpu) in (("keep", keep), ("read", read)):
        print(
            f"  {what}: {wall * 1000:.1f} ms wall, {cpu * 1000:.1f} ms CPU (median of {args.times})"
        )


if __name__ == "__main__":
    main()
