"""The options arena, rate and sprt share about how their games are played: the openings
the pairs start from, solver adjudication, the limits of a move, and where they are
played (worker processes here, or a cluster)."""

from __future__ import annotations

import argparse
import errno
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from c4tui.commands.common import CommandError
from c4tui.engine.external import wire_log
from c4tui.files import atomic_write
from c4tui.tournament.cluster import ClusterRunner
from c4tui.tournament.games import GameTask, PlayedGame
from c4tui.tournament.openings import OpeningsError, OpeningSuite, load_openings, suite_names
from c4tui.tournament.time_control import MAX_SECONDS, MoveLimits, parse_tc
from c4tui.tournament.workers import GameRunner, Play

# The solver ends a game once this many cells are empty: on 7x6 it answers in
# milliseconds there (games.adjudicated_winner; figures in docs/engine-testing.md).
DEFAULT_ADJUDICATE = 20
MAX_CELLS = 42
MAX_NODES = 10**12


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


def add_limit_options(parser: argparse.ArgumentParser) -> None:
    """--tc BASE+INC, --movetime S and --nodes N (tournament/time_control.py)."""
    limits = parser.add_argument_group("limits (replacing the specs' own)")
    limits.add_argument(
        "--tc",
        metavar="BASE+INC",
        help="a clock for each side: BASE seconds, INC added after each move (e.g. 10+0.1); "
        "a side out of time loses",
    )
    limits.add_argument("--movetime", type=float, metavar="S", help="S seconds a move")
    limits.add_argument(
        "--nodes", type=int, metavar="N", help="N nodes (our engines: iterations) a move"
    )


def move_limits(args: argparse.Namespace) -> MoveLimits | None:
    """The limits the options ask for; None when none is given; CommandError if bad."""
    if args.tc is None and args.movetime is None and args.nodes is None:
        return None
    if args.tc is not None and args.movetime is not None:
        raise CommandError("--tc and --movetime: give one of them")
    if args.movetime is not None and not 0 < args.movetime <= MAX_SECONDS:
        raise CommandError(f"--movetime must be more than 0 and at most {MAX_SECONDS:g} seconds")
    if args.nodes is not None and not 0 < args.nodes <= MAX_NODES:
        raise CommandError(f"--nodes must be 1..{MAX_NODES:,}, not {args.nodes}")
    base, increment = None, 0.0
    if args.tc is not None:
        try:
            base, increment = parse_tc(args.tc)
        except ValueError as error:
            raise CommandError(f"--tc: {error}") from None
    return MoveLimits(base, increment, args.movetime, args.nodes)


def add_cluster_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="play the games on a Dask distributed cluster, e.g. tcp://10.0.0.5:8786 "
        "(pip install 'c4tui[cluster]'; see docs/engine-testing.md)",
    )


def game_runner(
    args: argparse.Namespace, tasks: Iterable[GameTask], jobs: int, play: Play[Any] | None = None
) -> GameRunner[Any] | ClusterRunner[Any]:
    """The runner of a command's games: worker processes here, or --cluster's workers."""
    if getattr(args, "cluster", None):
        return ClusterRunner(tasks, args.cluster, play)
    if play is None:
        return GameRunner(tasks, jobs)
    return GameRunner(tasks, jobs, play=play)


def add_log_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--log",
        metavar="FILE",
        help="append every line sent to and read from each outside engine to FILE",
    )


def start_engine_log(args: argparse.Namespace) -> None:
    """--log FILE: checked writable now, then handed to every engine's host (wire_log.py)."""
    if not args.log:
        return
    try:
        os.close(wire_log.open_log(args.log))
    except OSError as error:
        why = "a FIFO with no reader" if error.errno == errno.ENXIO else error.strerror
        raise CommandError(f"--log: cannot write {args.log!r}: {why}") from None
    os.environ[wire_log.ENV] = os.path.abspath(args.log)


def add_games_dir_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--games-dir",
        metavar="DIR",
        help="write every game to DIR in the game file format (one .c4 file a game)",
    )


def write_game_file(folder: str, run: str, record: PlayedGame) -> None:
    """One game as a game file, `RUN-GAME.c4`, written whole or not at all."""
    path = Path(folder) / f"{run}-{record.task.index + 1:07d}.c4"
    try:
        atomic_write(path, record.to_game_record().to_text())
    except OSError as error:
        if Path(folder).exists() and not Path(folder).is_dir():  # mkdir says "File exists"
            raise CommandError(f"--games-dir: {folder!r} is not a directory") from None
        raise CommandError(f"--games-dir: cannot write {str(path)!r}: {error.strerror}") from None
