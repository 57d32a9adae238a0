"""Review speed: seconds per game with one table kept for the game, or a fresh one per position.

For 20 complete random games of 30 to 42 plies (seeded; `--levels`: complete games
between two levels 1-8 drawn at random, as players make them), each game is reviewed as
`c4tui review` does it (one solver table for the whole game, positions solved from the
last to the first), then the same positions are solved one by one, each from an empty
table, in the same run. The table shows both, per game and in total, and their ratio.
Then `c4tui review <moves> --json` is timed as a new process (start-up included) on the
longest games, the issue's target being 3 s or less for a 42-ply game.

Absolute times depend on the machine and its load: compare the ratios of one run.
`--cpu` times the process's CPU seconds instead (with `--threads 1`, a fair measure on
a busy machine), and `--where` prints, for the slowest game, the seconds and nodes of
each position, the most expensive first: where a long game's review spends its time.

    uv run python benchmarks/review_speed.py [--games 20] [--seed 1] [--processes 5]
        [--cpu] [--threads 1] [--where 8] [--levels]
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time

from c4tui.engine.board.geometry import geometry
from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import Limits
from c4tui.engine.players.levels import LEVELS
from c4tui.engine.players.specs import make_engine
from c4tui.engine.solver import Solver
from c4tui.engine.study.review import positions_of, review_game


def random_games(count: int, seed: int, shortest: int = 30, longest: int = 42) -> list[Position]:
    """Complete random games (won or drawn) of `shortest` to `longest` plies."""
    rng = random.Random(seed)
    games = []
    while len(games) < count:
        position = Position.start()
        while not position.is_over():
            position = position.play(rng.choice(position.legal_moves()))
        if shortest <= position.moves <= longest:
            games.append(position)
    return games


def level_games(count: int, seed: int) -> list[Position]:
    """Complete games between two levels (1-8) drawn at random, each with its own seed."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        players = [
            make_engine(LEVELS[rng.randint(1, 8)], seed=rng.randrange(1 << 30)) for _ in range(2)
        ]
        position = Position.start()
        while not position.is_over():
            position = position.play(players[position.moves % 2].search(position, Limits()).move)
        games.append(position)
    return games


def one_by_one(solver: Solver, game: Position) -> float:
    """Seconds to solve every position of the game, each from an empty table."""
    elapsed = 0.0
    for position, _ in positions_of(game):
        solver.reset()  # not timed: clearing 64 MB is not solving
        start = clock()
        solver.analyze(position)
        elapsed += clock() - start
    return elapsed


clock = time.perf_counter


def kept_table(solver: Solver, game: Position) -> float:
    solver.reset()
    start = clock()
    review_game(game, solver=solver)
    return clock() - start


def where(solver: Solver, game: Position, count: int) -> None:
    """The review of `game` position by position: seconds and nodes, the dearest first."""
    solver.reset()
    rows = []
    for position, _ in reversed(positions_of(game)):
        nodes, start = solver.nodes, clock()
        solver.analyze(position)
        rows.append((clock() - start, solver.nodes - nodes, position.moves))
    total = sum(r[0] for r in rows)
    print(f"the slowest game, {game.to_moves()} ({game.moves} plies): {total:.3f} s")
    for seconds, nodes, plies in sorted(rows, reverse=True)[:count]:
        print(
            f"  before ply {plies + 1:>2}: {seconds:.3f} s ({seconds / total:4.0%})"
            f" {nodes:>11,} nodes"
        )


def process_seconds(moves: str) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "c4tui", "review", moves, "--json"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=5, help="games timed as new processes")
    parser.add_argument("--cpu", action="store_true", help="CPU seconds, not the wall clock")
    parser.add_argument("--threads", type=int, default=None, help="the solver's threads")
    parser.add_argument(
        "--where", type=int, default=0, metavar="N", help="the slowest game's N dearest positions"
    )
    parser.add_argument("--levels", action="store_true", help="games between levels, not random")
    args = parser.parse_args()
    if args.cpu:
        global clock
        clock = time.process_time
    if args.levels:
        games = level_games(args.games, args.seed)
    else:
        games = random_games(args.games, args.seed)
    solver = Solver(geometry(7, 6, 4), threads=args.threads)
    slowest, slowest_seconds = None, -1.0
    print(f"{'game':>4}  {'plies':>5}  {'kept table s':>12}  {'fresh tables s':>14}  {'ratio':>5}")
    kept_total = fresh_total = 0.0
    for number, game in enumerate(games, start=1):
        kept = kept_table(solver, game)
        if kept > slowest_seconds:
            slowest, slowest_seconds = game, kept
        fresh = one_by_one(solver, game)
        kept_total += kept
        fresh_total += fresh
        ratio = fresh / kept if kept else float("nan")
        print(f"{number:>4}  {game.moves:>5}  {kept:>12.3f}  {fresh:>14.3f}  {ratio:>5.1f}")
    n = len(games)
    print(
        f"mean per game: kept table {kept_total / n:.3f} s, fresh tables {fresh_total / n:.3f} s "
        f"({fresh_total / kept_total:.1f}x); slowest game {slowest_seconds:.3f} s"
    )
    if args.where:
        where(solver, slowest, args.where)
    if args.processes < 1:
        return
    longest = sorted(games, key=lambda g: -g.moves)[: args.processes]
    times = [process_seconds(game.to_moves()) for game in longest]
    plies = ", ".join(str(game.moves) for game in longest)
    print(
        f"`c4tui review MOVES --json` as a new process, games of {plies} plies: "
        f"median {statistics.median(times):.2f} s, max {max(times):.2f} s"
    )


if __name__ == "__main__":
    main()
