"""`c4tui arena`: a round robin between engines, with a progress bar and a results table."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import uuid
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from c4tui.argparse_internals import Subcommands
from c4tui.commands.common import CommandError, output_console, plain_table, table_names
from c4tui.commands.outside_log import log_outside_engines
from c4tui.commands.pair_options import (
    DEFAULT_ADJUDICATE,
    add_adjudicate_options,
    add_cluster_option,
    add_games_dir_option,
    add_limit_options,
    add_log_option,
    check_adjudicate,
    game_runner,
    move_limits,
    opening_suite,
    start_engine_log,
    suite_help,
    write_game_file,
)
from c4tui.engine.players.specs import SpecError, make_engine
from c4tui.tournament.cluster import ClusterError
from c4tui.tournament.games import GameTask, PlayedGame
from c4tui.tournament.openings import OpeningSuite
from c4tui.tournament.savefile import SavedGames, SaveError
from c4tui.tournament.schedule import pairings, schedule, total_games
from c4tui.tournament.signals import StopSignals
from c4tui.tournament.standings import Crosstable, elo_estimate
from c4tui.tournament.workers import RUN_FAILURES, run_failure

MAX_OPENING_PLIES = 20
# More games than any run can play (a billion games at a millisecond each is 11 days):
# refused at once rather than started.
MAX_GAMES_IN_ALL = 1_000_000_000


def register(commands: Subcommands) -> None:
    parser = commands.add_parser(
        "arena",
        help="a round robin between engines",
        description=(
            "Every pair of engines plays --games games, half with each side moving first. "
            "Elo: each engine's score against the field as a rating difference to its "
            "average opponent, with a 95% interval from the per-game standard error."
        ),
    )
    parser.add_argument("specs", nargs="+", metavar="SPEC", help="e.g. greedy mcts:time=0.5")
    parser.add_argument("--games", type=int, required=True, metavar="N", help="games per pair")
    parser.add_argument(
        "--gauntlet",
        action="store_true",
        help="the first SPEC plays each of the others, which do not play among themselves",
    )
    add_jobs_option(parser)
    parser.add_argument(
        "--seed", type=int, default=None, metavar="S", help="tournament seed (default: random)"
    )
    parser.add_argument(
        "--openings",
        default="0",
        metavar="K|SUITE|FILE",
        help="start each pair of games (both colours) from a random balanced opening of K "
        f"plies, or from the openings of a suite: {suite_help()}",
    )
    parser.add_argument(
        "--opening-score",
        type=int,
        default=None,
        metavar="S",
        help="keep only openings the exact solver scores within +-S (0: drawn ones)",
    )
    add_adjudicate_options(parser, DEFAULT_ADJUDICATE)
    add_limit_options(parser)
    add_cluster_option(parser)
    add_log_option(parser)
    add_games_dir_option(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--save",
        metavar="FILE",
        help="append every game to FILE as a JSON line (with run id, seed, date) as it ends",
    )
    parser.set_defaults(run=run)


def add_jobs_option(parser: argparse.ArgumentParser) -> None:
    """--jobs J: how many worker processes play games at once (at most the cores)."""
    parser.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="J",
        help="worker processes (default and most: the cores this process may use)",
    )


def run(args: argparse.Namespace) -> int:
    specs = check_arguments(args)
    log_outside_engines()
    start_engine_log(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    scheduled = total_games(len(specs), args.games, args.gauntlet)
    jobs = min(args.jobs or available_cores(), available_cores(), scheduled)
    plies, suite = openings_of(args.openings, seed)
    try:
        tasks = schedule(
            specs,
            args.games,
            seed,
            plies,
            args.opening_score,
            opening_of=None if suite is None else suite.opening,
            adjudicate=args.adjudicate,
            limits=move_limits(args),
            gauntlet=args.gauntlet,
        )
    except ValueError as error:
        raise CommandError(f"--openings: {error}") from None
    # Entered first and left last: a signal during the summary is noted, not fatal.
    with StopSignals() as stop:
        return play(args, specs, tasks, seed, scheduled, jobs, stop)


def play(
    args: argparse.Namespace,
    specs: list[str],
    tasks: Iterable[GameTask],
    seed: int,
    scheduled: int,
    jobs: int,
    stop: StopSignals,
) -> int:
    """Play the games, save and count each, print the summary; the exit status."""
    run_id = uuid.uuid4().hex[:12]
    save = open_saved_games(args.save) if args.save is not None else None
    tally = Crosstable(specs, pairings(len(specs), args.gauntlet))
    forfeits: list[dict[str, Any]] = []  # games an outside engine lost by failing, with the reason
    stderr = Console(stderr=True, highlight=False)
    save_error: SaveError | None = None
    try:
        # The runner first: its worker processes fork before the progress bar's thread.
        with game_runner(args, tasks, jobs) as runner, make_progress(stderr) as progress:
            stop.on_stop(runner.stop)
            bar = progress.add_task(describe(specs, args.games, args.gauntlet), total=scheduled)
            try:
                for record in runner:
                    if save is not None:
                        save.append(saved_line(run_id, seed, record))
                    if args.games_dir is not None:
                        write_game_file(args.games_dir, run_id, record)
                    tally.add(record)
                    if record.termination == "forfeit":
                        forfeits.append(forfeit_of(record))
                    progress.advance(bar)
            except SaveError as error:
                save_error = error  # the run stops; what was played is still reported
    except RUN_FAILURES as error:  # the games so far are saved
        print(f"c4tui arena: {run_failure(error)}", file=sys.stderr)
        return 1
    except ClusterError as error:
        raise CommandError(f"--cluster: {error}") from None
    finally:
        if save is not None:
            save.close()
    summary = {
        "run": run_id,
        "seed": seed,
        "games_per_pair": args.games,
        "openings": args.openings,
        "opening_score": args.opening_score,
        "adjudicate": args.adjudicate,
        "gauntlet": args.gauntlet,
        "games_played": tally.games,
        "games_scheduled": scheduled,
        "interrupted": runner.interrupted,
    }
    if args.json:
        print(json.dumps({**tally.to_json(), **summary, "forfeits": forfeits}))
    else:
        print_tables(tally, summary)
        print_forfeits(forfeits)
    played = f"{tally.games:,} of {scheduled:,} games"
    if save_error is not None:
        print(f"c4tui arena: --save: {save_error}; stopped after {played}", file=sys.stderr)
        return 2
    if runner.interrupted:
        by = "" if stop.received is None else f" by {stop.name}"
        print(f"c4tui arena: interrupted{by} after {played}{stop.later_words()}", file=sys.stderr)
        return stop.exit_status
    return 0


def forfeit_of(record: PlayedGame) -> dict[str, Any]:
    """Which engine lost a game by failing (an outside engine), and why."""
    task = record.task
    loser = task.second_spec if record.first_won else task.first_spec
    return {"game": task.index + 1, "loser": loser, "reason": record.reason}


def print_forfeits(forfeits: list[dict[str, Any]]) -> None:
    """One line a game lost by an engine's failure: the game, the engine, the reason."""
    if not forfeits:
        return
    console = output_console()
    console.print(f"Forfeits ({len(forfeits):,}):")
    names = table_names(forfeit["loser"] for forfeit in forfeits)
    for forfeit in forfeits:
        loser = names[forfeit["loser"]]
        console.print(
            f"  game {forfeit['game']:,}: {loser} lost: {forfeit['reason']}",
            markup=False,
            highlight=False,
        )


def check_arguments(args: argparse.Namespace) -> list[str]:
    """The specs, once every argument is known to be usable; else a one-line CommandError."""
    if len(args.specs) < 2:
        raise CommandError("a tournament needs at least two engine specs")
    if args.games < 1:
        raise CommandError(f"--games must be at least 1, not {args.games}")
    if total_games(len(args.specs), args.games, args.gauntlet) > MAX_GAMES_IN_ALL:
        raise CommandError(
            f"--games {args.games:,} per pair is more than a run can play "
            f"(at most {MAX_GAMES_IN_ALL:,} games in all)"
        )
    if args.jobs is not None and args.jobs < 1:
        raise CommandError(f"--jobs must be at least 1, not {args.jobs}")
    plies = args.openings.strip()
    if plies.lstrip("-").isdigit() and not 0 <= int(plies) <= MAX_OPENING_PLIES:
        raise CommandError(f"--openings must be 0..{MAX_OPENING_PLIES} plies, not {plies}")
    if args.opening_score is not None and (
        not plies.isdigit() or int(plies) == 0 or args.opening_score < 0
    ):
        raise CommandError("--opening-score needs --openings K > 0 and a score of 0 or more")
    check_adjudicate(args.adjudicate)
    if args.save == "":
        raise CommandError("--save needs a file name")
    for spec in args.specs:
        try:
            make_engine(spec)
        except SpecError as error:
            raise CommandError(str(error)) from None
    return list(args.specs)


def openings_of(text: str, seed: int) -> tuple[int, OpeningSuite | None]:
    """--openings: a number of random plies (0: none), or a suite or file of openings."""
    text = text.strip()
    if text.isdigit():
        return int(text), None
    return 0, opening_suite(text, seed)


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def open_saved_games(path: str) -> SavedGames:
    """The --save file, repaired if it ends in half a line (with a notice on stderr)."""
    try:
        save = SavedGames(path)
    except SaveError as error:
        raise CommandError(f"--save: {error}") from None
    if save.repaired:
        print(
            f"c4tui arena: --save: {path!r} ended in half a line; "
            f"dropped its {save.repaired:,} bytes before appending",
            file=sys.stderr,
        )
    return save


def saved_line(run_id: str, seed: int, record: PlayedGame) -> dict[str, Any]:
    """One game's line: which run (runs appended to one file stay apart), seed, date."""
    date = datetime.now(UTC).isoformat(timespec="seconds")
    return {"run": run_id, "seed": seed, "date": date, **record.to_json()}


def make_progress(console: Console) -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        disable=not console.is_terminal,
    )


def describe(specs: list[str], games: int, gauntlet: bool = False) -> str:
    pairs = len(pairings(len(specs), gauntlet))
    return f"{len(specs)} engines, {pairs:,} pair{'s' if pairs > 1 else ''} x {games:,} games"


def print_tables(tally: Crosstable, summary: dict[str, Any]) -> None:
    console = output_console()
    data = tally.to_json()
    openings = summary["openings"]
    if not openings.isdigit():
        start = f"openings of {openings}"
    else:
        start = f"openings of {openings} plies" if int(openings) else "from the empty board"
    if summary["opening_score"] is not None:
        start += f" scored within ±{summary['opening_score']}"
    # The seed and run id are names to copy (--seed S), not quantities: no separators.
    console.print(
        f"{summary['games_played']:,} of {summary['games_scheduled']:,} games, {start}, "
        f"seed {summary['seed']}, run {summary['run']}"
    )
    names = table_names(row["engine"] for row in data["standings"])
    pairs = plain_table(title="Pairs")
    for name in ("a", "b", "a's W-D-L", "a's score", "1st/2nd won"):
        add_column(pairs, name)
    for row in data["results"]:
        pairs.add_row(
            names.get(row["a"], row["a"]),
            names.get(row["b"], row["b"]),
            f"{row['a_wins']:,}-{row['draws']:,}-{row['b_wins']:,}",
            percent(row["a_score"]),
            f"{row['first_mover_wins']:,} / {row['second_mover_wins']:,}",
        )
    console.print(pairs)
    # Two tables, not one of ten columns: each fits 80 columns without cutting a figure.
    standings = plain_table(title="Standings")
    for name in ("#", "engine", "games", "W-D-L", "score", "Elo (95%)"):
        add_column(standings, name)
    searches = plain_table(title="Per move")
    figures = [
        (name, key, spec)
        for name, key, spec in (
            ("seconds", "seconds_per_move", ".4f"),
            ("iterations", "iterations_per_move", ",.0f"),
            ("nodes", "nodes_per_move", ",.0f"),
            ("depth", "depth", ".1f"),
        )
        if any(row[key] is not None for row in data["standings"])
    ]
    for name in ("#", "engine", *(name for name, _, _ in figures)):
        add_column(searches, name)
    # to_json lists the standings in ranked() order; zip them to keep duplicate specs apart.
    for standing, row in zip(tally.ranked(), data["standings"], strict=True):
        elo = elo_estimate(standing.wins, standing.draws, standing.losses)
        standings.add_row(
            str(row["rank"]),
            names.get(row["engine"], row["engine"]),
            f"{row['games']:,}",
            f"{row['wins']:,}-{row['draws']:,}-{row['losses']:,}",
            percent(row["score"]),
            elo_text(elo.rating, elo.low, elo.high),
        )
        searches.add_row(
            str(row["rank"]),
            names.get(row["engine"], row["engine"]),
            *(number(row[key], spec) for _, key, spec in figures),
        )
    console.print(standings)
    console.print(
        "Elo: difference to the average opponent from the score against the field; "
        "95% interval from the per-game standard error. After a clean sweep only a "
        '97.5% bound is known; "too few games" when even its sign is not.'
    )
    console.print(searches)


def add_column(table: Table, name: str) -> None:
    """Names (engine specs) fold onto a second line when long; figures are never cut."""
    if name in ("a", "b", "engine"):
        table.add_column(name, overflow="fold")
    else:
        table.add_column(name, justify="right", no_wrap=True)


def percent(value: float | None) -> str:
    return "" if value is None else f"{value:.1%}"


def number(value: float | None, spec: str) -> str:
    return "" if value is None else format(value, spec)


def elo_text(rating: float | None, low: float | None, high: float | None) -> str:
    """'+120 ± 85', '-759 [-∞, -391]', '> +310 (all won)' or 'too few games (all won)'."""

    def signed(value: float) -> str:
        return f"{round(value):+,d}"  # round() first: no "-0"

    if rating is None:
        # A clean sweep: only a one-sided bound is known. One that does not even say
        # which engine is stronger ("> -72" for all won) says nothing: say why instead.
        if low is not None:
            return f"> {signed(low)} (all won)" if low > 0 else "too few games (all won)"
        if high is not None:
            return f"< {signed(high)} (all lost)" if high < 0 else "too few games (all lost)"
        return ""
    if low is None or high is None:
        # One end of the interval lies beyond 0% or 100%: show the interval itself.
        low_text = "-∞" if low is None else signed(low)
        high_text = "+∞" if high is None else signed(high)
        return f"{signed(rating)} [{low_text}, {high_text}]"
    return f"{signed(rating)} ± {(high - low) / 2:,.0f}"
