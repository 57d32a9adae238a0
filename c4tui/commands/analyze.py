"""`c4tui analyze`: the exact score of every column of a position."""

from __future__ import annotations

import argparse
import functools
import json
import time
from contextlib import suppress
from typing import Any

from rich.console import Console

from c4tui.argparse_internals import Subcommands
from c4tui.commands.common import (
    PositionBatch,
    add_board_options,
    add_give_up_option,
    add_position_argument,
    board_of,
    disc,
    output_console,
    plain_table,
)
from c4tui.engine.board.geometry import Geometry
from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import (
    best_columns,
    best_score,
    describe_score,
    proven_of,
    result_class,
    win_score,
)
from c4tui.engine.solver import ColumnBounds, SearchStopped, Solver, exact_scores, shared_solver

# Enough for any 7x6 position (the book answers the openings) and for the smaller
# boards; larger empty boards can take hours, so the answer says what it knows by then.
DEFAULT_SECONDS = 60.0


def register(commands: Subcommands) -> None:
    parser = commands.add_parser(
        "analyze",
        help="the exact score of every column of a position",
        description=(
            "Solve every column exactly. Scores are from the side to move: a win is "
            "22 - the winner's stones (7x6), a loss its negative, a draw 0. Columns are "
            "1-based; ● moves first, ○ second. A column not solved within --time is "
            "given as what is known of it, never as a guess."
        ),
    )
    add_position_argument(parser)
    add_give_up_option(parser, DEFAULT_SECONDS)
    add_board_options(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object per position")
    parser.add_argument(
        "--no-book",
        action="store_true",
        help="search without the 7x6 opening book (as every other board size does)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        choices=(1, 2),
        help="threads of the search (default: 2 while a core is idle, else 1)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    console = output_console()
    batch = PositionBatch(
        args.position, command="analyze", json_errors=args.json, board=board_of(args)
    )
    for text, position in batch:
        start = time.perf_counter()
        solver = solver_for(position.geometry, args.no_book, args.threads)
        columns = column_bounds(solver, position, args.time)
        elapsed = time.perf_counter() - start
        if args.json:
            print(json.dumps(analysis_json(text, columns, elapsed)), flush=True)
        else:
            print_analysis(console, text, position, columns, elapsed, args.time)
    return batch.status


@functools.cache
def solver_for(g: Geometry, no_book: bool, threads: int | None) -> Solver:
    """The process's solver, or one of this run's own for --no-book or --threads."""
    if not no_book and threads is None:
        return shared_solver(g)
    return Solver(g, book=not no_book, threads=threads)


def column_bounds(solver: Solver, position: Position, limit: float) -> list[ColumnBounds | None]:
    """What `solver` proves of every column within `limit` seconds (mover's view);
    None for a full column. A column solved in time has low == high."""
    columns: list[ColumnBounds | None] = [None] * position.width
    with suppress(SearchStopped):  # `columns` holds what was proven by then
        solver.analyze(position, deadline=time.perf_counter() + limit, columns=columns)
    for col in range(position.width):
        if columns[col] is None and position.can_play(col):
            columns[col] = unknown(position)
    return columns


def unknown(position: Position) -> ColumnBounds:
    """Nothing known of a column: every score the game after it could end with, from
    losing to the opponent's next stone to winning with our stone after it."""
    cells, moves = position.geometry.cells, position.moves
    return ColumnBounds(-win_score(cells, moves + 1), win_score(cells, moves + 2))


def is_solved(columns: list[ColumnBounds | None]) -> bool:
    return all(bounds is None or bounds.exact for bounds in columns)


def analysis_json(text: str, columns: list[ColumnBounds | None], elapsed: float) -> dict[str, Any]:
    """Solved: the scores, the best columns and the result. Given up: `"solved": false`,
    the scores of the columns solved (null for the others and for full columns) and
    every open column's [low, high] bounds."""
    answer: dict[str, Any] = {"position": text}
    if is_solved(columns):
        scores = exact_scores(columns)
        best = best_columns(scores)
        answer |= {"scores": scores, "best": [col + 1 for col in best]}
        answer["result"] = proven_of(best_score(scores))
    else:
        answer["solved"] = False
        answer["scores"] = [b.low if b is not None and b.exact else None for b in columns]
        answer["bounds"] = [None if b is None else [b.low, b.high] for b in columns]
    answer["elapsed"] = round(elapsed, 4)
    return answer


def print_analysis(
    console: Console,
    text: str,
    position: Position,
    columns: list[ColumnBounds | None],
    elapsed: float,
    limit: float,
) -> None:
    """One row per column (it stays readable at 80 columns on a 10-column board)."""
    where = repr(text) if text else "the empty board"
    solved = is_solved(columns)
    best = best_columns(exact_scores(columns)) if solved else []
    if solved:
        verdict = describe_score(position, columns[best[0]].low)  # type: ignore[union-attr]  # solved: every playable column is exact
        console.print(f"{where}: {disc(position)} to move, {verdict} with perfect play")
    else:
        done = sum(1 for bounds in columns if bounds is not None and bounds.exact)
        playable = sum(1 for bounds in columns if bounds is not None)
        console.print(
            f"{where}: {disc(position)} to move; gave up after {limit:g} s with "
            f"{done} of {playable} columns solved"
        )
    table = plain_table()
    table.add_column("column", justify="right")
    table.add_column("score", justify="right")
    table.add_column("result")
    for col, bounds in enumerate(columns):
        name = f"{col + 1}{' *' if col in best else '  '}"
        if bounds is None:
            table.add_row(name, "full", "")
        elif bounds.exact:
            table.add_row(name, str(bounds.low), describe_score(position, bounds.low))
        else:
            table.add_row(name, f"{bounds.low}..{bounds.high}", bounds_words(bounds))
    console.print(table)
    if solved:
        console.print(f"* best; solved in {elapsed:.3f} s")
    else:
        console.print("a range: the score is proven to lie in it; try a longer --time")


def bounds_words(bounds: ColumnBounds) -> str:
    """What a range of scores proves of a column's result."""
    low, high = result_class(bounds.low), result_class(bounds.high)
    if low == high:
        return {1: "a win", 0: "a draw", -1: "a loss"}[low] + " (length unknown)"
    if low == 0:
        return "a draw or a win"
    if high == 0:
        return "a draw or a loss"
    return "not solved"
