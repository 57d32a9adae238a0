"""Solver speed on the six Pons test sets, next to the published C++ figures.

For each set, a seeded sample of positions is solved exactly, each from an empty
transposition table (as the C++ benchmark does); the table gives our mean time, mean
nodes, the published C++ mean time, and our time divided by it. The C++ solver uses
no opening book; ours uses the BitBully books on 7x6, which answer 12-ply positions
at once, so the "Begin" sets are shown split into the plies the book covers and the
ones past it.

`--analyze N` also times `analyze` (every column exact, one shared table as in the
CLI) on N random positions of 0 to 32 plies and prints the median, 95th percentile
and maximum. Absolute times depend on the machine and its load (the script prints a
pure-Python yardstick measured in the same run, to compare runs); compare ratios.

    uv run python benchmarks/solver_testsets.py [--per-set 20] [--sets L2_R2,L1_R1]
        [--max-seconds 60] [--analyze 100] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from c4tui.engine.board.geometry import geometry
from c4tui.engine.board.position import Position
from c4tui.engine.solver import Solver

TESTSETS = Path(__file__).resolve().parents[2] / "shared" / "testsets" / "pons"
# name -> (label, published C++ mean seconds per position, mean positions explored)
PUBLISHED = {
    "Test_L3_R1": ("End-Easy", 4.6e-6, 51),
    "Test_L2_R1": ("Middle-Easy", 37e-6, 450),
    "Test_L2_R2": ("Middle-Medium", 3.2e-3, 39_900),
    "Test_L1_R1": ("Begin-Easy", 0.25e-3, 3_298),
    "Test_L1_R2": ("Begin-Medium", 97e-3, 1_200_000),
    "Test_L1_R3": ("Begin-Hard", 5.5, 65_900_000),
}
BOOK_PLY = 12


def read_set(name: str) -> list[tuple[str, int]]:
    pairs = []
    for line in (TESTSETS / name).read_text().splitlines():
        if line.strip():
            moves, score = line.split()
            pairs.append((moves, int(score)))
    return pairs


def yardstick() -> float:
    """Millions of simple Python bit operations per second, to compare loaded runs."""
    start = time.perf_counter()
    x = 0
    for i in range(1_000_000):
        x = (x ^ i) & 0xFFFF
    return 1.0 / (time.perf_counter() - start)


def time_set(solver: Solver, pairs: list[tuple[str, int]], budget: float) -> dict:
    times, nodes, wrong = [], [], 0
    spent = 0.0
    for moves, score in pairs:
        if spent > budget:
            break
        solver.reset()
        before = solver.nodes
        start = time.perf_counter()
        got = solver.solve(Position.from_moves(moves))
        elapsed = time.perf_counter() - start
        spent += elapsed
        times.append(elapsed)
        nodes.append(solver.nodes - before)
        wrong += got != score
    return {"times": times, "nodes": nodes, "wrong": wrong}


def report_sets(args: argparse.Namespace) -> None:
    solver = Solver(geometry(7, 6, 4))
    print(
        f"{'set':<24} {'n':>4} {'mean s':>9} {'max s':>8} {'nodes':>10} "
        f"{'C++ s':>9} {'ratio':>8} wrong"
    )
    for name in args.sets:
        label, cpp_time, _cpp_nodes = PUBLISHED[name]
        pairs = read_set(name)
        sample = random.Random(f"{args.seed} {name}").sample(pairs, min(args.per_set, len(pairs)))
        groups = {"": sample}
        if name.startswith("Test_L1"):
            groups = {
                f" <={BOOK_PLY} plies": [p for p in sample if len(p[0]) <= BOOK_PLY],
                f" >{BOOK_PLY} plies": [p for p in sample if len(p[0]) > BOOK_PLY],
            }
        for suffix, group in groups.items():
            if not group:
                continue
            result = time_set(solver, group, args.max_seconds)
            times = result["times"]
            mean = statistics.fmean(times)
            print(
                f"{label + suffix:<24} {len(times):>4} {mean:>9.4f} {max(times):>8.3f} "
                f"{statistics.fmean(result['nodes']):>10,.0f} {cpp_time:>9.2g} "
                f"{mean / cpp_time:>8.1f} {result['wrong']}",
                flush=True,
            )


def random_position(rng: random.Random) -> Position:
    while True:
        position = Position.start()
        for _ in range(rng.randrange(33)):
            position = position.play(rng.choice(position.legal_moves()))
            if position.is_over():
                break
        if not position.is_over():
            return position


def report_analyze(args: argparse.Namespace) -> None:
    solver = Solver(geometry(7, 6, 4))
    rng = random.Random(args.seed)
    times = []
    by_ply: dict[int, list[float]] = {}
    for _ in range(args.analyze):
        position = random_position(rng)
        start = time.perf_counter()
        solver.analyze(position)
        elapsed = time.perf_counter() - start
        times.append(elapsed)
        by_ply.setdefault(position.moves, []).append(elapsed)
        if elapsed > 5:
            print(f"  slow: {position.to_moves()!r} ({position.moves} plies) {elapsed:.1f} s")
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(
        f"analyze on {len(times)} random positions (0-32 plies): median "
        f"{statistics.median(times):.3f} s, p95 {p95:.3f} s, max {times[-1]:.3f} s"
    )
    for low in range(0, 33, 4):
        group = [t for ply, ts in by_ply.items() if low <= ply < low + 4 for t in ts]
        if group:
            print(
                f"  plies {low:>2}-{low + 3:<2}: n={len(group):>3} "
                f"mean {statistics.fmean(group):.3f} "
                f"max {max(group):.3f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-set", type=int, default=20)
    parser.add_argument("--sets", default=",".join(PUBLISHED), help="comma-separated set names")
    parser.add_argument(
        "--max-seconds",
        type=float,
        default=60.0,
        help="stop a set (group) after this much solving time",
    )
    parser.add_argument("--analyze", type=int, default=0, metavar="N")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    args.sets = [s if s.startswith("Test_") else f"Test_{s}" for s in args.sets.split(",") if s]
    print(f"yardstick: {yardstick():.2f} M simple Python operations/s")
    if args.per_set > 0:
        report_sets(args)
    if args.analyze:
        report_analyze(args)


if __name__ == "__main__":
    main()
