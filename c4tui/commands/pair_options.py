"""The options arena, rate and sprt share about how their games are played: the openings
the pairs start from, and solver adjudication."""

from __future__ import annotations

import argparse

from c4tui.commands.common import CommandError
from c4tui.tournament.openings import OpeningsError, OpeningSuite, load_openings, suite_names

# The solver ends a game once this many cells are empty: on 7x6 it answers in
# milliseconds there (games.adjudicated_winner; figures in docs/engine-testing.md).
DEFAULT_ADJUDICATE = 20
MAX_CELLS = 42


def add_adjudicate_options(parser: argparse.ArgumentParser, default: int) -> None:
    """--adjudicate CELLS and --no-adjudicate."""
    parser.add_argument(
        "--adjudicate",
        type=int,
        default=default,
        metavar="CELLS",
        help="the exact solver ends a game with its result once CELLS cells are empty "
        f"(default {default or 'off'})",
    )
    parser.add_argument(
        "--no-adjudicate",
        dest="adjudicate",
        action="store_const",
        const=0,
        help="play every game to its end",
    )


def check_adjudicate(cells: int) -> int:
    if not 0 <= cells <= MAX_CELLS:
        raise CommandError(f"--adjudicate must be 0..{MAX_CELLS} empty cells, not {cells}")
    return cells


def suite_help() -> str:
    return f"{', '.join(suite_names())} or a file of move strings, one opening a line"


def opening_suite(name: str, seed: int) -> OpeningSuite:
    """The suite (built in, or a file) named by --openings, dealt by `seed`."""
    try:
        return OpeningSuite(load_openings(name), seed)
    except OpeningsError as error:
        raise CommandError(f"--openings: {error}") from None
