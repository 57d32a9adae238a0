"""`c4tui analyze`: the exact score of every column of a position."""

from __future__ import annotations

import argparse
import json
import time

from rich.console import Console

from c4tui.commands.common import PositionBatch, output_console, plain_table
from c4tui.engine.position import Position
from c4tui.engine.scores import describe_score, proven_of
from c4tui.engine.solver import shared_solver


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "analyze",
        help="the exact score of every column of a position",
        description=(
            "Solve every column exactly. Scores are from the side to move: a win is "
            "22 - the winner's stones (7x6), a loss its negative, a draw 0. Columns are 1-based."
        ),
    )
    parser.add_argument(
        "position",
        nargs="?",
        default="",
        help="moves played so far, e.g. 4453 (empty: the start); - reads stdin lines",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per position")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    console = output_console()
    batch = PositionBatch(args.position, command="analyze", json_errors=args.json)
    for text, position in batch:
        start = time.perf_counter()
        scores = column_scores(position)
        elapsed = time.perf_counter() - start
        if args.json:
            print(json.dumps(analysis_json(text, scores, elapsed)), flush=True)
        else:
            print_analysis(console, text, position, scores, elapsed)
    return batch.status


def column_scores(position: Position) -> list[int | None]:
    """Every column's exact score from the mover's side; None for a full column."""
    columns = shared_solver(position.geometry).analyze(position)
    return [None if bounds is None else bounds.low for bounds in columns]


def best_columns(scores: list[int | None]) -> list[int]:
    best = max(score for score in scores if score is not None)
    return [col for col, score in enumerate(scores) if score == best]


def analysis_json(text: str, scores: list[int | None], elapsed: float) -> dict:
    best = best_columns(scores)
    return {
        "position": text,
        "scores": scores,
        "best": [col + 1 for col in best],
        "result": proven_of(scores[best[0]]),
        "elapsed": round(elapsed, 4),
    }


def print_analysis(
    console: Console, text: str, position: Position, scores: list[int | None], elapsed: float
) -> None:
    best = best_columns(scores)
    where = repr(text) if text else "the empty board"
    mover = "first" if position.to_move == 0 else "second"
    verdict = describe_score(position, scores[best[0]])
    console.print(f"{where}: {mover} player to move, {verdict} with perfect play")
    table = plain_table()
    table.add_column("column")
    for col in range(position.width):
        marker = "*" if col in best else ""
        table.add_column(f"{col + 1}{marker}", justify="center", no_wrap=True)
    table.add_row("score", *("full" if s is None else str(s) for s in scores))
    table.add_row("result", *("" if s is None else describe_score(position, s) for s in scores))
    console.print(table)
    console.print(f"* best; solved in {elapsed:.3f} s")
