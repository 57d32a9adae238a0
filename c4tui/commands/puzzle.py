"""`c4tui puzzle`: positions where exactly one column keeps the best result."""

from __future__ import annotations

import argparse
import json

from c4tui.argparse_internals import Subcommands
from c4tui.commands.common import (
    STANDARD_BOARD,
    CommandError,
    add_board_options,
    board_of,
    disc,
    output_console,
    plain_table,
)
from c4tui.engine.study.puzzle_ratings import THEMES
from c4tui.engine.study.puzzles import DIFFICULTIES, find_puzzles
from c4tui.files import data_dir
from c4tui.records.trainer import Trainer

MAX_COUNT = 1000


def register(commands: Subcommands) -> None:
    parser = commands.add_parser(
        "puzzle",
        help="positions where exactly one column keeps the best result",
        description=(
            "Find positions (from plausible games, solved exactly) where one and only one "
            "column keeps the best result: a win, or a draw every other column loses. "
            "Columns are 1-based; distance is the mover's moves to the end with best play; "
            "rating is on the levels' Elo scale (README: puzzle ratings), and --json also "
            "gives your puzzle rating from the app's trainer (Glicko-2)."
        ),
    )
    parser.add_argument("--count", type=int, default=10, help="how many (default 10)")
    parser.add_argument("--seed", type=int, default=None, help="the same seed finds the same")
    parser.add_argument("--difficulty", choices=tuple(DIFFICULTIES), help="easy, medium or hard")
    parser.add_argument(
        "--theme", choices=THEMES, help="win (win in N), defend (block a threat), draw"
    )
    add_board_options(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object per puzzle")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.count <= MAX_COUNT:
        raise CommandError(f"--count {args.count}: must be from 1 to {MAX_COUNT}")
    board = board_of(args)
    puzzles = find_puzzles(args.count, args.seed, args.difficulty, board=board, theme=args.theme)
    if args.json:
        rating = Trainer(data_dir()).rating
        player = {
            "rating": round(rating.r),
            "deviation": round(rating.rd),
            "volatility": rating.sigma,
        }
        for puzzle in puzzles:
            print(json.dumps({**puzzle.to_json(), "player": player}), flush=True)
        return 0
    table = plain_table()
    for name in ("position", "to move", "solution", "result", "rating", "theme"):
        table.add_column(name, justify="left" if name == "position" else "right")
    shown = 0
    for puzzle in puzzles:
        table.add_row(
            puzzle.position.to_moves(),
            disc(puzzle.position),
            str(puzzle.solution + 1),
            f"{puzzle.result} in {puzzle.distance}" if puzzle.result == "win" else "draw",
            str(puzzle.rating),
            puzzle.theme,
        )
        shown += 1
    console = output_console()
    if board != STANDARD_BOARD:
        console.print(f"on a {board[0]}x{board[1]} board, connect {board[2]}")
    console.print(table)
    if shown < args.count:
        console.print(f"found {shown} of {args.count}: no more within the search's reach")
    return 0
