"""`c4tui bench`: speed figures of the engines on fixed positions.

Figures are absolute counts per second on this machine, so they only compare runs on
the same machine; every figure carries the Python version it was measured with.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

from rich.console import Console
from rich.table import Table

from c4tui.commands.common import CommandError
from c4tui.engine.position import Position
from c4tui.engine.search import Limits
from c4tui.engine.specs import make_engine

# A quiet middle game (16 stones, no winning spot for either side yet), so the engines
# search a position with real choices instead of the empty board's symmetric one.
MIDDLE_GAME = "3176241316173157"
POSITIONS = {"empty board": "", "middle game": MIDDLE_GAME}

# Positions with their exact scores (solver convention, side to move). They come from
# random play (balanced: no winning spot for either side), were solved with c4tui's
# solver and checked for consistency (each score is the best of its children's). Each
# takes a fraction of a second to a second or so from an empty transposition table.
SOLVER_SAMPLE: tuple[tuple[str, int], ...] = (
    ("5666147776754", 4),
    ("177222456151365", -4),
    ("23635723456233713", 3),
    ("57771765766662111", 2),
    ("2225617666774157117", 5),
    ("122211177761776634132", 1),
    ("53656712333173521637465", 2),
)

ENGINES = ("mcts", "flat", "negamax", "solver")


@dataclass
class Figure:
    """One measured figure, or why there is none."""

    engine: str
    position: str
    measure: str  # what `value` counts, e.g. "iterations/s"
    value: float | None = None
    depth: float | None = None
    count: int | None = None  # iterations, nodes or positions behind the figure
    seconds: float | None = None
    status: str = "ok"  # "ok", "unavailable", or a short failure reason
    python: str = platform.python_version()


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "bench",
        help="speed figures of the engines on fixed positions",
        description=(
            "MCTS iterations/s and flat playouts/s from the empty board and a middle game, "
            "NegaMax nodes/s and depth, and the solver's mean time on a built-in sample."
        ),
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--time",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="search time of each timed measurement (default 1)",
    )
    parser.add_argument(
        "--only",
        action="append",
        choices=ENGINES,
        metavar="ENGINE",
        help=f"measure only this engine (repeatable; one of {', '.join(ENGINES)})",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not 0 < args.time <= 60:
        raise CommandError(f"--time must be more than 0 and at most 60 seconds, not {args.time}")
    wanted = args.only or list(ENGINES)
    figures: list[Figure] = []
    for engine in ENGINES:
        if engine in wanted:
            figures.extend(MEASURES[engine](args.time))
    machine = {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
    }
    if args.json:
        print(json.dumps({**machine, "figures": [asdict(f) for f in figures]}))
    else:
        print_table(figures, machine)
    return 0


def timed_search(engine_name: str, measure: str, count_field: str, seconds: float) -> list[Figure]:
    """One search of `seconds` per benchmark position; the rate of `count_field`."""
    figures = []
    for label, moves in POSITIONS.items():
        figure = Figure(engine_name, label, measure)
        try:
            engine = make_engine(engine_name, seed=1)
        except ImportError:
            figure.status = "unavailable"
            figures.append(figure)
            continue
        position = Position.from_moves(moves)
        start = time.perf_counter()
        info = engine.search(position, Limits(time=seconds)).info
        elapsed = time.perf_counter() - start
        count = getattr(info, count_field)
        figure.seconds = round(elapsed, 4)
        figure.count = count
        figure.depth = info.depth
        if count is None:
            figure.status = f"reported no {count_field}"
        else:
            figure.value = round(count / elapsed, 1)
        figures.append(figure)
    return figures


def measure_solver(_seconds: float) -> list[Figure]:
    """Mean time to solve the sample exactly, each position from an empty table."""
    figure = Figure("solver", f"{len(SOLVER_SAMPLE)} positions", "s/position")
    try:
        from c4tui.engine.solver import Solver
    except ImportError:
        figure.status = "unavailable"
        return [figure]
    first = Position.from_moves(SOLVER_SAMPLE[0][0])
    solver = Solver(first.geometry)  # built (and its book loaded) before the clock starts
    total = 0.0
    wrong = []
    nodes_before = solver.nodes
    for moves, known in SOLVER_SAMPLE:
        solver.reset()
        position = Position.from_moves(moves)
        start = time.perf_counter()
        score = solver.solve(position)
        total += time.perf_counter() - start
        if score != known:
            wrong.append(moves)
    figure.value = round(total / len(SOLVER_SAMPLE), 4)
    figure.seconds = round(total, 4)
    figure.count = solver.nodes - nodes_before
    if wrong:
        figure.status = f"wrong score for {', '.join(wrong)}"
    return [figure]


MEASURES: dict[str, Callable[[float], list[Figure]]] = {
    "mcts": lambda s: timed_search("mcts", "iterations/s", "iterations", s),
    "flat": lambda s: timed_search("flat", "playouts/s", "iterations", s),
    "negamax": lambda s: timed_search("negamax", "nodes/s", "nodes", s),
    "solver": measure_solver,
}


def print_table(figures: list[Figure], machine: dict) -> None:
    console = Console(file=sys.stdout, highlight=False)
    console.print(
        f"Python {machine['python']} ({machine['implementation']}), {machine['platform']}"
    )
    table = Table()
    for name in ("engine", "position", "measure", "value", "depth", "count", "seconds"):
        table.add_column(
            name, justify="left" if name in ("engine", "position", "measure") else "right"
        )
    for f in figures:
        if f.status != "ok":
            table.add_row(f.engine, f.position, f.measure, f.status, "", "", "")
            continue
        table.add_row(
            f.engine,
            f.position,
            f.measure,
            f"{f.value:,.0f}" if f.value is not None and f.value >= 100 else f"{f.value}",
            "" if f.depth is None else f"{f.depth:g}",
            "" if f.count is None else f"{f.count:,}",
            "" if f.seconds is None else f"{f.seconds:.3f}",
        )
    console.print(table)
