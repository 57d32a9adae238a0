"""`c4tui bench`: speed figures of the engines on fixed positions.

Raw figures are counts per second on this machine under its current load, so every
run also measures a yardstick in the same process: random games per second on a naive
list-of-columns board (`reference_rate`, the way the seed notebooks play out). Each
figure's `relative` value is a rate divided by the yardstick's (for the solver: its
time multiplied by it, the naive games that fit in one solve), which compares across
runs and machines far better. Every figure carries the Python version.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from c4tui.argparse_internals import Subcommands
from c4tui.commands.common import CommandError, output_console, plain_table
from c4tui.engine.board.position import Position
from c4tui.engine.kernels.library import kernels
from c4tui.engine.players.contract import Limits
from c4tui.engine.players.specs import make_engine

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
    relative: float | None = None  # against the yardstick measured in the same run
    status: str = "ok"  # or a short failure reason
    python: str = platform.python_version()


def register(commands: Subcommands) -> None:
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
    jobs = steps(wanted, args.time)
    reference_runs: list[float] = []
    figures: list[Figure] = []
    # The bar (on a terminal only) says which figure is being measured: without it the
    # command is silent for several seconds per engine.
    with make_progress(Console(stderr=True)) as progress:
        bar = progress.add_task("measuring", total=len(jobs))
        for label, measure in jobs:
            progress.update(bar, description=label)
            result = measure()
            if isinstance(result, float):
                reference_runs.append(result)
            else:
                figures.extend(result)
            progress.advance(bar)
    reference = sum(reference_runs) / len(reference_runs)
    for figure in figures:
        if figure.value is not None:
            solver = figure.engine == "solver"
            ratio = figure.value * reference if solver else figure.value / reference
            figure.relative = round(ratio, 3)
    machine = {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "kernels": kernels(),
        "reference": {
            "measure": "naive random games/s",
            "value": round(reference, 1),
            "runs": [round(r, 1) for r in reference_runs],
        },
    }
    if args.json:
        print(json.dumps({**machine, "figures": [asdict(f) for f in figures]}))
    else:
        print_table(figures, machine)
    return 0


# A progress label and the measurement: the yardstick's rate or an engine's figures.
Step = tuple[str, Callable[[], float | list[Figure]]]


def steps(wanted: list[str], seconds: float) -> list[Step]:
    """The measurements in order, each with the label the progress bar shows.

    The yardstick runs first and last, so a load change during the run shows up as a
    gap between its two figures and is averaged out of the ratios.
    """
    reference: Step = ("reference", lambda: reference_rate(seconds))
    jobs = [reference]
    for engine in ENGINES:
        if engine not in wanted:
            continue
        if engine == "solver":
            jobs.append((f"solver, {len(SOLVER_SAMPLE)} positions", measure_solver))
            continue
        for label, moves in POSITIONS.items():
            jobs.append(
                (f"{engine}, {label}", partial(timed_search, engine, label, moves, seconds))
            )
    jobs.append(reference)
    return jobs


def make_progress(console: Console) -> Progress:
    return Progress(
        TextColumn("{task.description:<24}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("measurements"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )


def reference_rate(seconds: float, seed: int = 1) -> float:
    """Random games per second on a naive board: a yardstick of this Python's speed.

    The board is a list of columns and each move is followed by a scan around the new
    stone in the four directions, the way the seed notebooks play out a game.
    """
    rng = random.Random(seed)
    games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        columns: list[list[int]] = [[] for _ in range(7)]
        player = 0
        for _ in range(42):
            col = rng.choice([c for c in range(7) if len(columns[c]) < 6])
            columns[col].append(player)
            if _connects_four(columns, col, player):
                break
            player ^= 1
        games += 1
    return games / (time.perf_counter() - start)


def _connects_four(columns: list[list[int]], col: int, player: int) -> bool:
    """True when the stone just dropped in `col` makes four in a row for `player`."""
    row = len(columns[col]) - 1
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            c, r = col + sign * dc, row + sign * dr
            while 0 <= c < 7 and 0 <= r < len(columns[c]) and columns[c][r] == player:
                run += 1
                c, r = c + sign * dc, r + sign * dr
        if run >= 4:
            return True
    return False


def timed_search(engine_name: str, label: str, moves: str, seconds: float) -> list[Figure]:
    """One search of `seconds` from `moves`: the rate of what the engine counts (TIMED)."""
    measure, count_field = TIMED[engine_name]
    figure = Figure(engine_name, label, measure)
    engine = make_engine(engine_name, seed=1)
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
    return [figure]


def measure_solver() -> list[Figure]:
    """Mean time to solve the sample exactly, each position from an empty table."""
    figure = Figure("solver", f"{len(SOLVER_SAMPLE)} positions", "s/position")
    from c4tui.engine.solver import Solver

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


# What each timed engine's rate counts, and the SearchInfo field it is read from.
TIMED = {
    "mcts": ("iterations/s", "iterations"),
    "flat": ("playouts/s", "iterations"),
    "negamax": ("nodes/s", "nodes"),
}


def print_table(figures: list[Figure], machine: dict[str, Any]) -> None:
    console = output_console()
    python = f"Python {machine['python']} ({machine['implementation']})"
    reference = machine["reference"]
    # Lines a reader may copy or a script read: never wrapped at the console's width
    # (the kernels' path is as long as the folder the project is in), nor read as markup.
    for line in (f"{python}, {machine['platform']}", f"kernels: {machine['kernels']}"):
        console.print(line, soft_wrap=True, markup=False, highlight=False)
    console.print(f"reference: {reference['value']:,.0f} {reference['measure']}")
    table = plain_table()
    names = ("engine", "position", "measure", "value", "relative", "depth", "count", "seconds")
    for name in names:
        left = name in ("engine", "position", "measure")
        table.add_column(name, justify="left" if left else "right")
    for f in figures:
        if f.status != "ok":
            table.add_row(f.engine, f.position, f.measure, f.status)
            continue
        table.add_row(
            f.engine,
            f.position,
            f.measure,
            value_text(f.value),
            "" if f.relative is None else f"{f.relative:,.1f}",
            "" if f.depth is None else f"{f.depth:g}",
            "" if f.count is None else f"{f.count:,}",
            "" if f.seconds is None else f"{f.seconds:.3f}",
        )
    console.print(table)
    console.print("relative: rate / reference rate; for the solver, naive games played per solve.")


def value_text(value: float | None) -> str:
    """Rates as whole numbers with separators; the solver's seconds to 3 significant digits."""
    if value is None:
        return ""
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"
