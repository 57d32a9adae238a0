"""Two or more builds of the C kernels timed side by side, in one process.

CPU time on a shared machine drifts by 10-15% from one minute to the next, more than
most changes to the search are worth; runs of two builds one after the other compare
the minutes as much as the builds. Here each build is loaded by its path (the kernels
are a ctypes library, so several load side by side), each gets its own solver, and
every position is analysed by each build in turn, every position from an empty table
on one thread, as `c4tui analyze --threads 1` does. A position's time is its least over
the rounds; the builds' order alternates from round to round.

    cp c4tui/engine/kernels/_kernels*.so /tmp/new.so    # after building a change
    uv run python benchmarks/solver_ab.py --set benchmarks/positions/solver_tail.txt \\
        --rounds 3 old=/tmp/old.so new=/tmp/new.so

Prints each build's total, p50 and max CPU seconds, nodes and nanoseconds a node, and
for short sets each position's time per build. Node counts differ only when the search
does; CPU figures are the process's (`time.process_time`).
"""

from __future__ import annotations

import argparse
import ctypes
import os
import time
from pathlib import Path

from c4tui.engine.board.geometry import geometry
from c4tui.engine.board.position import Position
from c4tui.engine.kernels import library
from c4tui.engine.solver import Solver


def solver_of(path: str) -> Solver:
    """A one-thread 7x6 solver on the kernels built at `path` (an older build may lack
    calls added since, which the solver does not make: they are left undeclared)."""
    present = ctypes.CDLL(path)
    every = dict(library.PROTOTYPES)
    library.PROTOTYPES.clear()
    library.PROTOTYPES.update({k: v for k, v in every.items() if hasattr(present, k)})
    library.module_path = lambda: path  # type: ignore[assignment]
    library.damage = lambda _path: None  # type: ignore[assignment]
    library._loaded.clear()
    try:
        solver = Solver(geometry(7, 6, 4), threads=1)
    finally:
        library.PROTOTYPES.update(every)
    assert solver.uses_native, f"{path}: the kernels did not load"
    return solver


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("builds", nargs="+", help="name=path of a built _kernels library")
    parser.add_argument("--set", type=Path, required=True, help="move strings, one a line")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    builds = [tuple(b.split("=", 1)) for b in args.builds]
    solvers = {name: solver_of(path) for name, path in builds}
    names = list(solvers)
    lines = [line.split()[0] for line in args.set.read_text().splitlines()]
    moves = [m for m in lines if m and not m.startswith("#")]
    best = {n: [float("inf")] * len(moves) for n in names}
    nodes = {n: [0] * len(moves) for n in names}
    for round_ in range(args.rounds):
        order = names if round_ % 2 == 0 else names[::-1]
        for i, m in enumerate(moves):
            position = Position.from_moves(m)
            for name in order:
                solver = solvers[name]
                solver.reset()
                before, start = solver.nodes, time.process_time()
                solver.analyze(position)
                best[name][i] = min(best[name][i], time.process_time() - start)
                nodes[name][i] = solver.nodes - before
    print(f"{len(moves)} positions, least of {args.rounds} rounds; load {os.getloadavg()[0]:.1f}")
    for name in names:
        times = sorted(best[name])
        total, count = sum(times), sum(nodes[name])
        print(
            f"{name:>10}: total {total:7.3f} s  p50 {times[len(times) // 2]:.3f} s  "
            f"max {times[-1]:.3f} s  nodes {count:,}  {1e9 * total / max(count, 1):.1f} ns/node"
        )
    if len(moves) <= 20:
        for i, m in enumerate(moves):
            print(f"{m:<22}" + "  ".join(f"{best[n][i]:.3f}" for n in names))


if __name__ == "__main__":
    main()
