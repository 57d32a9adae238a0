"""c4tui's `analyze` next to BitBully's, per Pons test set and on random positions.

Both programs score every column of the same positions, each from an empty table
(c4tui's `Solver.reset`, BitBully's `reset_transposition_table`, outside the timed
call) and each with its opening book (BitBully's "12-ply-dist", the same data c4tui
reads through `bitbully-databases`). Their answers are compared with each other and
with the set's score (the best column's); a disagreement is counted as wrong.

Per set it prints mean / p95 / max seconds for each and the ratio of the means
(c4tui / BitBully: below 1 means c4tui is faster). `--random N` also times N random
positions of 0 to 32 plies and prints the slowest: each solver's `--tail` slowest
positions with both times and the ratio, position by position. The two run alternately
in one process, so machine load affects both alike; compare ratios, not absolute times.

`--cpu` times the process's CPU seconds instead of the wall clock (fairer on a busy
machine, for one thread each). `--no-book` takes both books away (BitBully's
`opening_book=None`, c4tui's `book=False`): the raw search, as every board size but
7x6 has it. Positions given on
the command line (or one per line in `--file`) are each solved for the exact score of
the position itself (c4tui's `Solver.solve` against BitBully's `mtdf`), alternately,
each from an empty table, and the ratio is printed per position and for the total,
with the nodes each searched and its nodes per second.

BitBully is a benchmark-only comparison (`uv pip install bitbully`); without it,
c4tui's times are printed alone.

    uv run python benchmarks/solver_bitbully.py [--per-set 50]
        [--sets L2_R2,L1_R3] [--random 400] [--seed 1] [--tail 10] [--threads 1] [--repeat 3]
    uv run python benchmarks/solver_bitbully.py --no-book --threads 1 --per-set 0 4444 44 ""
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from pathlib import Path

from c4tui.engine.board.geometry import geometry
from c4tui.engine.board.position import Position
from c4tui.engine.solver import Solver

try:
    import bitbully
except ImportError:
    bitbully = None

# Wall-clock seconds, or with --cpu the process's CPU seconds: on a machine busy with
# other work, CPU time is the fairer measure of two one-thread searches.
clock = time.perf_counter
TESTSETS = Path(__file__).resolve().parents[2] / "shared" / "testsets" / "pons"
SETS = {
    "Test_L3_R1": "End-Easy",
    "Test_L2_R1": "Middle-Easy",
    "Test_L2_R2": "Middle-Medium",
    "Test_L1_R1": "Begin-Easy",
    "Test_L1_R2": "Begin-Medium",
    "Test_L1_R3": "Begin-Hard",
}


class Contest:
    """Both solvers, timed on one position after another."""

    def __init__(self, threads: int | None = None, repeat: int = 1, book: bool = True) -> None:
        self.ours = Solver(geometry(7, 6, 4), threads=threads, book=book)
        self.repeat = repeat
        if bitbully is None:
            self.theirs = None
        else:
            self.theirs = bitbully.BitBully("12-ply-dist" if book else None)

    def solve(self, moves: str) -> tuple[float, float | None, int, int | None, int, int | None]:
        """Seconds, the position's exact score and the nodes searched: c4tui's solve,
        BitBully's mtdf."""
        position = Position.from_moves(moves)
        self.ours.reset()
        nodes = self.ours.nodes
        start = clock()
        ours = self.ours.solve(position)
        our_seconds = clock() - start
        our_nodes = self.ours.nodes - nodes
        if self.theirs is None:
            return our_seconds, None, ours, None, our_nodes, None
        board = bitbully.Board.from_moves([int(c) - 1 for c in moves])
        self.theirs.reset_transposition_table()
        self.theirs.reset_node_counter()
        start = clock()
        theirs = self.theirs.mtdf(board)
        their_seconds = clock() - start
        return our_seconds, their_seconds, ours, theirs, our_nodes, self.theirs.get_node_counter()

    def ours_time(self, moves: str) -> tuple[float, list[int | None]]:
        position = Position.from_moves(moves)
        self.ours.reset()
        start = clock()
        columns = self.ours.analyze(position)
        elapsed = clock() - start
        return elapsed, [None if b is None else b.low for b in columns]

    def theirs_time(self, moves: str) -> tuple[float, list[int | None]]:
        board = bitbully.Board.from_moves([int(c) - 1 for c in moves])
        self.theirs.reset_transposition_table()
        start = clock()
        scores = self.theirs.score_all_moves(board)
        elapsed = clock() - start
        return elapsed, [scores.get(col) for col in range(7)]

    def run(self, moves: str, expected: int | None = None) -> tuple[float, float | None, bool]:
        """Seconds for c4tui, for BitBully (None without it), and whether all agree.

        With `repeat` > 1 each is timed that many times, alternately, each time from an
        empty table, and keeps its fastest: one preemption of a few milliseconds on a
        busy machine otherwise outweighs fifty positions of a tenth of a millisecond.
        """
        ours = theirs = float("inf")
        for _ in range(self.repeat):
            seconds, our_columns = self.ours_time(moves)
            ours = min(ours, seconds)
            if self.theirs is not None:
                seconds, their_columns = self.theirs_time(moves)
                theirs = min(theirs, seconds)
        right = expected is None or max(s for s in our_columns if s is not None) == expected
        if self.theirs is None:
            return ours, None, right
        return ours, theirs, right and our_columns == their_columns


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"{statistics.fmean(ordered):>8.5f} {p95:>8.5f} {ordered[-1]:>8.4f}"


def read_set(name: str) -> list[tuple[str, int]]:
    pairs = []
    for line in (TESTSETS / name).read_text().splitlines():
        if line.strip():
            moves, score = line.split()
            pairs.append((moves, int(score)))
    return pairs


def report_sets(contest: Contest, names: list[str], per_set: int, seed: int) -> None:
    print(
        f"{'set':<14} {'n':>3} | {'c4tui mean':>10} {'p95':>8} {'max':>8} | "
        f"{'BitBully mean':>13} {'p95':>8} {'max':>8} | {'ratio':>5} wrong"
    )
    for name in names:
        if not (TESTSETS / name).exists():
            print(f"{SETS[name]:<14} skipped: {TESTSETS / name} is absent")
            continue
        pairs = read_set(name)
        sample = random.Random(f"{seed} {name}").sample(pairs, min(per_set, len(pairs)))
        ours, theirs, wrong = [], [], 0
        for moves, score in sample:
            mine, other, right = contest.run(moves, score)
            ours.append(mine)
            if other is not None:
                theirs.append(other)
            wrong += not right
        line = f"{SETS[name]:<14} {len(ours):>3} | {'':>2}{summary(ours)} | "
        if theirs:
            ratio = statistics.fmean(ours) / statistics.fmean(theirs)
            line += f"{'':>5}{summary(theirs)} | {ratio:>5.2f} {wrong}"
        else:
            line += f"{'(BitBully not installed)':>31} | {'':>5} {wrong}"
        print(line, flush=True)


def random_moves(rng: random.Random) -> str:
    """A game of 0-32 random plies that is not over (1-based columns)."""
    while True:
        position = Position.start()
        for _ in range(rng.randrange(33)):
            position = position.play(rng.choice(position.legal_moves()))
            if position.is_over():
                break
        if not position.is_over():
            return position.to_moves()


def report_random(contest: Contest, count: int, seed: int, tail: int) -> None:
    rng = random.Random(seed)
    runs = []
    for _ in range(count):
        moves = random_moves(rng)
        runs.append((moves, *contest.run(moves)))
    ours = [r[1] for r in runs]
    slowest = max(runs, key=lambda r: r[1])
    wrong = sum(not r[3] for r in runs)
    print(
        f"{count} random positions (0-32 plies): c4tui mean / p95 / max {summary(ours)} s; "
        f"slowest {slowest[0]!r} ({len(slowest[0])} plies); disagreements {wrong}"
    )
    theirs = [r[2] for r in runs if r[2] is not None]
    if theirs:
        print(
            f"{'':>45}BitBully {summary(theirs)} s; "
            f"ratio of means {statistics.fmean(ours) / statistics.fmean(theirs):.2f}"
        )
    if tail > 0:
        report_tail(runs, tail)


def report_tail(runs: list[tuple[str, float, float | None, bool]], tail: int) -> None:
    """The slowest positions, c4tui's and BitBully's (the union of each one's `tail`
    slowest), each with both times and their ratio: the tail judged position by position."""
    by_ours = sorted(runs, key=lambda r: -r[1])[:tail]
    timed = [r for r in runs if r[2] is not None]
    by_theirs = sorted(timed, key=lambda r: -r[2])[:tail]
    chosen = {r[0]: r for r in by_ours + by_theirs}
    rows = sorted(chosen.values(), key=lambda r: -r[1])
    print(f"the slowest ({tail} of each):")
    print(f"{'position':<20} {'plies':>5} {'c4tui s':>9} {'BitBully s':>10} {'ratio':>6}")
    for moves, ours, theirs, _ in rows:
        if theirs is None:
            print(f"{moves:<20} {len(moves):>5} {ours:>9.4f} {'-':>10} {'-':>6}")
        else:
            print(f"{moves:<20} {len(moves):>5} {ours:>9.4f} {theirs:>10.4f} {ours / theirs:>6.2f}")
    if all(r[2] is not None for r in rows):
        ours_sum = sum(r[1] for r in rows)
        theirs_sum = sum(r[2] for r in rows)
        worst = max(rows, key=lambda r: r[1] / r[2])
        print(
            f"{'the tail':<26} {ours_sum:>9.4f} {theirs_sum:>10.4f} {ours_sum / theirs_sum:>6.2f}"
            f"  (worst ratio {worst[1] / worst[2]:.2f}, {worst[0]!r})"
        )


def report_solves(contest: Contest, positions: list[str]) -> None:
    print(
        f"{'position':<16} {'c4tui s':>9} {'BitBully s':>10} {'ratio':>6} "
        f"{'c4tui nodes':>12} {'M/s':>6} {'BitBully nodes':>14} {'M/s':>6}  scores  load"
    )
    ours_total = theirs_total = 0.0
    for moves in positions:
        ours, theirs, our_score, their_score, our_nodes, their_nodes = contest.solve(moves)
        load = os.getloadavg()[0]
        name = repr(moves) if moves else "empty board"
        rate = f"{our_nodes:>12,} {our_nodes / max(ours, 1e-9) / 1e6:>6.2f}"
        if theirs is None:
            print(f"{name:<16} {ours:>9.3f} {'-':>10} {'-':>6} {rate}  {our_score}  {load:.1f}")
            continue
        ours_total += ours
        theirs_total += theirs
        agree = "" if our_score == their_score else f" DIFFER (BitBully {their_score})"
        print(
            f"{name:<16} {ours:>9.3f} {theirs:>10.3f} {ours / theirs:>6.2f} {rate} "
            f"{their_nodes:>14,} {their_nodes / max(theirs, 1e-9) / 1e6:>6.2f}  "
            f"{our_score}{agree}  {load:.1f}",
            flush=True,
        )
    if theirs_total:
        print(
            f"{'total':<16} {ours_total:>9.3f} {theirs_total:>10.3f} "
            f"{ours_total / theirs_total:>6.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-set", type=int, default=50)
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated set names")
    parser.add_argument("--random", type=int, default=0, metavar="N")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--tail",
        type=int,
        default=10,
        metavar="N",
        help="with --random: the N slowest positions of each, with both times",
    )
    parser.add_argument(
        "--threads", type=int, default=None, help="c4tui's threads (default: its own choice)"
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="time each position N times, keep the fastest"
    )
    parser.add_argument("--no-book", action="store_true", help="both solvers without a book")
    parser.add_argument(
        "--cpu", action="store_true", help="time CPU seconds of the process, not the wall clock"
    )
    parser.add_argument("positions", nargs="*", help="positions to solve (move strings)")
    parser.add_argument("--file", type=Path, help="positions to solve, one per line")
    args = parser.parse_args()
    if args.cpu:
        global clock
        clock = time.process_time
    names = [s if s.startswith("Test_") else f"Test_{s}" for s in args.sets.split(",") if s]
    unknown = [n for n in names if n not in SETS]
    if unknown:
        parser.error(f"unknown set {unknown[0]!r}; known: {', '.join(SETS)}")
    contest = Contest(args.threads, max(1, args.repeat), book=not args.no_book)
    native = "C search" if contest.ours.uses_native else "pure-Python search"
    threads = contest.ours.threads
    native += f", {threads} thread(s)" if threads else ", two threads while a core is idle"
    if args.positions or args.file:
        # Solving one position's score is MTD(f) on one thread; the threads serve the
        # analysis of every column (the sets and the random positions below).
        native += "; the positions' solves on one thread"
    books = "no book" if args.no_book else "with the book"
    print(f"c4tui: {native}; BitBully: {'installed' if bitbully else 'not installed'}; {books}")
    positions = list(args.positions)
    if args.file is not None:
        positions += [line.strip() for line in args.file.read_text().splitlines()]
    if positions:
        report_solves(contest, positions)
    if args.per_set > 0:
        report_sets(contest, names, args.per_set, args.seed)
    if args.random:
        report_random(contest, args.random, args.seed, args.tail)


if __name__ == "__main__":
    main()
