"""The solver's slowest positions: how the benchmark set was found, and its times.

`sample` draws positions of 8-20 plies, half from random play and half from games
between levels (two levels 1-8 picked at random, each with its own seed; `--random-only`:
all from random play, as a check of the kept set on fresh positions), drops the
finished ones and the repeats (a position and its mirror image are one), and analyses
each as `c4tui analyze --threads 1` does: every column, one thread, from an empty
table. Each position's CPU seconds and nodes go to a TSV file (one line a position,
written as it goes), and the slowest `--keep` by CPU time become the benchmark set,
one move string a line, slowest first:

    nice uv run python benchmarks/solver_tail.py sample --count 10000 --seed 1 \\
        --log /tmp/tail.tsv --keep 100 --set benchmarks/positions/solver_tail.txt

`time` analyses a set's positions the same way and prints the distribution of the
CPU seconds (p50, p99, max), the nodes, and, when BitBully is installed (benchmark
only: `uv run --with bitbully ...`), BitBully's `score_all_moves` times on the same
positions from its empty table, with the two programs' scores compared:

    uv run --with bitbully python benchmarks/solver_tail.py time \\
        --set benchmarks/positions/solver_tail.txt [--repeat 3] [--slowest 10]

Times are the process's CPU seconds (`time.process_time`): the machine is shared, and
one-thread searches are compared fairly that way; the load average is printed too.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

from c4tui.engine.board.geometry import geometry
from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import Limits
from c4tui.engine.players.levels import LEVELS
from c4tui.engine.players.specs import make_engine
from c4tui.engine.solver import Solver

try:
    import bitbully
except ImportError:
    bitbully = None

SHORTEST, LONGEST = 8, 20  # plies of the sampled positions
PER_LEVEL_GAME = 3  # positions taken from one level game (distinct plies)


def mirrored(moves: str, width: int = 7) -> str:
    return "".join(str(width + 1 - int(c)) for c in moves)


def canonical(moves: str) -> str:
    """One name for a move string and its mirror image (transpositions stay apart)."""
    return min(moves, mirrored(moves))


def random_play(rng: random.Random) -> str | None:
    """A random game cut at a random ply of 8-20; None when it ended first."""
    plies = rng.randint(SHORTEST, LONGEST)
    position = Position.start()
    for _ in range(plies):
        position = position.play(rng.choice(position.legal_moves()))
        if position.is_over():
            return None
    return position.to_moves()


def level_game(rng: random.Random) -> list[str]:
    """Positions of 8-20 plies from one game between two random levels."""
    players = [
        make_engine(LEVELS[rng.randint(1, 8)], seed=rng.randrange(1 << 30)) for _ in range(2)
    ]
    position = Position.start()
    seen = []
    while position.moves < LONGEST and not position.is_over():
        move = players[position.moves % 2].search(position, Limits()).move
        position = position.play(move)
        if position.moves >= SHORTEST and not position.is_over():
            seen.append(position.to_moves())
    return rng.sample(seen, min(PER_LEVEL_GAME, len(seen)))


def positions(count: int, seed: int, random_only: bool = False) -> list[tuple[str, str]]:
    """`count` distinct positions (source, moves): half random play, half level games
    (`random_only`: all from random play)."""
    rng = random.Random(seed)
    found: dict[str, tuple[str, str]] = {}
    while len(found) < count:
        if random_only or len(found) % 2 == 0:
            batch = [("random", m) for m in [random_play(rng)] if m is not None]
        else:
            batch = [("levels", m) for m in level_game(rng)]
        for source, moves in batch:
            found.setdefault(canonical(moves), (source, moves))
    return list(found.values())[:count]


def analyse(solver: Solver, moves: str) -> tuple[float, int, list[int | None]]:
    """CPU seconds, nodes and column scores of one analysis from an empty table."""
    solver.reset()
    position = Position.from_moves(moves)
    nodes = solver.nodes
    start = time.process_time()
    columns = solver.analyze(position)
    seconds = time.process_time() - start
    return seconds, solver.nodes - nodes, [None if b is None else b.low for b in columns]


def sample(args: argparse.Namespace) -> None:
    drawn = positions(args.count, args.seed, args.random_only)
    print(f"{len(drawn)} positions drawn (seed {args.seed}); load {os.getloadavg()[0]:.1f}")
    solver = Solver(geometry(7, 6, 4), threads=1)
    rows = []
    with args.log.open("w") as log:
        for i, (source, moves) in enumerate(drawn):
            seconds, nodes, _ = analyse(solver, moves)
            rows.append((seconds, nodes, source, moves))
            log.write(f"{moves}\t{source}\t{seconds:.5f}\t{nodes}\n")
            if (i + 1) % 500 == 0:
                log.flush()
                print(f"{i + 1} analysed; load {os.getloadavg()[0]:.1f}", flush=True)
    report("all sampled", [r[0] for r in rows], [r[1] for r in rows])
    rows.sort(key=lambda r: -r[0])
    kept = rows[: args.keep]
    args.set.parent.mkdir(parents=True, exist_ok=True)
    header = (
        f"# The {args.keep} slowest of {len(rows)} positions (8-20 plies; random play"
        f"{'' if args.random_only else ' and level games'}), by CPU seconds of a one-thread"
        f" analysis:\n"
        f"# benchmarks/solver_tail.py sample --count {args.count} --seed {args.seed}"
        f"{' --random-only' if args.random_only else ''} --keep {args.keep}\n"
    )
    args.set.write_text(header + "".join(f"{r[3]}\n" for r in kept))
    print(f"the slowest {len(kept)} written to {args.set}")


def percentile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(name: str, seconds: list[float], nodes: list[int] | None = None) -> None:
    ordered = sorted(seconds)
    line = (
        f"{name:<10} n {len(ordered)}  p50 {percentile(ordered, 0.5):.4f}"
        f"  p99 {percentile(ordered, 0.99):.4f}  max {ordered[-1]:.4f}"
        f"  mean {statistics.fmean(ordered):.4f} s"
    )
    if nodes:
        line += f"  nodes p50 {int(statistics.median(nodes)):,} max {max(nodes):,}"
    print(line, flush=True)


def read_set(path: Path) -> list[str]:
    lines = [line.strip() for line in path.read_text().splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def their_time(solver, moves: str) -> tuple[float, list[int | None]]:
    board = bitbully.Board.from_moves([int(c) - 1 for c in moves])
    solver.reset_transposition_table()
    start = time.process_time()
    scores = solver.score_all_moves(board)
    return time.process_time() - start, [scores.get(col) for col in range(7)]


def time_set(args: argparse.Namespace) -> None:
    moves_list = read_set(args.set)
    solver = Solver(geometry(7, 6, 4), threads=1)
    theirs = bitbully.BitBully("12-ply-dist") if bitbully is not None else None
    search = "C" if solver.uses_native else "Python"
    other = "installed" if theirs else "not installed"
    print(
        f"{len(moves_list)} positions of {args.set}; c4tui {search} search, one thread;"
        f" BitBully {other};"
        f" CPU seconds, best of {args.repeat}; load {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    rows = []
    for moves in moves_list:
        ours = their = float("inf")
        for _ in range(args.repeat):
            seconds, nodes, our_scores = analyse(solver, moves)
            ours = min(ours, seconds)
            if theirs is not None:
                seconds, their_scores = their_time(theirs, moves)
                their = min(their, seconds)
        agree = theirs is None or our_scores == their_scores
        rows.append((moves, ours, nodes, their if theirs else None, agree))
    report("c4tui", [r[1] for r in rows], [r[2] for r in rows])
    if theirs is not None:
        report("BitBully", [r[3] for r in rows])
        print(f"disagreements {sum(not r[4] for r in rows)}")
    print(f"load {os.getloadavg()[0]:.1f}")
    print(f"{'position':<22} {'c4tui s':>8} {'nodes':>10} {'BitBully s':>10}")
    for moves, ours, nodes, their, _ in sorted(rows, key=lambda r: -r[1])[: args.slowest]:
        other = "-" if their is None else f"{their:.4f}"
        print(f"{moves:<22} {ours:>8.4f} {nodes:>10,} {other:>10}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    draw = sub.add_parser("sample", help="draw, analyse, keep the slowest")
    draw.add_argument("--count", type=int, default=10_000)
    draw.add_argument("--seed", type=int, default=1)
    draw.add_argument(
        "--random-only", action="store_true", help="every position from random play, no level games"
    )
    draw.add_argument("--keep", type=int, default=100)
    draw.add_argument("--log", type=Path, required=True, help="every position's figures (TSV)")
    draw.add_argument("--set", type=Path, required=True, help="where the slowest go")
    timing = sub.add_parser("time", help="time a set of positions")
    timing.add_argument("--set", type=Path, required=True)
    timing.add_argument("--repeat", type=int, default=1)
    timing.add_argument("--slowest", type=int, default=10)
    args = parser.parse_args()
    if args.command == "sample":
        sample(args)
    else:
        time_set(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
