"""`c4tui rate`: any engine's Elo on the levels' scale, its accuracy against perfect play,
and where it lost.

The engine plays a gauntlet against the levels (tournament/gauntlet.py), in worker
processes, each pair of games going to the levels rated nearest its strength so far,
until --games or an interval of ±--margin. Then it answers the fixed positions
(engine/study/fixed_positions.py). docs/rating.md tells how each figure is made.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from rich.console import Console

from c4tui.argparse_internals import Subcommands
from c4tui.commands.arena import (
    add_column,
    add_jobs_option,
    available_cores,
    make_progress,
    percent,
)
from c4tui.commands.common import CommandError, output_console, plain_table
from c4tui.commands.outside_log import log_outside_engines
from c4tui.commands.pair_options import (
    add_adjudicate_options,
    add_cluster_option,
    add_log_option,
    check_adjudicate,
    game_runner,
    opening_suite,
    start_engine_log,
    suite_help,
)
from c4tui.engine.board.notation import format_moves
from c4tui.engine.players.levels import RATINGS, level_name
from c4tui.engine.players.options import SpecError
from c4tui.engine.players.specs import make_engine, parse_spec
from c4tui.engine.study import fixed_positions
from c4tui.engine.study.accuracy import Accuracy
from c4tui.engine.study.loss_kinds import KIND_WORDS
from c4tui.engine.study.rating_fit import RatingFit
from c4tui.tournament.cluster import ClusterError
from c4tui.tournament.gauntlet import OPENING_PLIES, RATED, Gauntlet, play_rated
from c4tui.tournament.signals import StopSignals
from c4tui.tournament.workers import RUN_FAILURES, run_failure

MAX_GAMES = 100_000
DEFAULT_GAMES = 400
DEFAULT_MARGIN = 40.0
METHOD = (
    "maximum-likelihood logistic fit of all games, the levels' published ratings fixed; "
    "95% likelihood-ratio interval, widened when the two games of an opening go alike"
)
SHOWN_OPENINGS = 5
OPENING_COUNTS = ("lost_first", "played_first", "lost_second", "played_second")


def register(commands: Subcommands) -> None:
    parser = commands.add_parser(
        "rate",
        help="an engine's Elo on the levels' scale, and its accuracy against perfect play",
        description=(
            "Plays SPEC against the levels (2-ply balanced openings, both colours, the "
            "opponents chosen near its strength) and fits its Elo by maximum likelihood "
            "with the levels' ratings fixed; stops at --games or when the 95% interval is "
            "within ±--margin. Then judges its moves by the exact solver, in its games "
            "and on a fixed set of positions, and tells where it lost. See docs/rating.md."
        ),
    )
    parser.add_argument("spec", metavar="SPEC", help="the engine to rate, e.g. mcts:time=0.1")
    parser.add_argument(
        "--games",
        type=int,
        default=DEFAULT_GAMES,
        metavar="N",
        help=f"the most games to play (default {DEFAULT_GAMES})",
    )
    parser.add_argument(
        "--margin",
        type=float,
        default=DEFAULT_MARGIN,
        metavar="E",
        help=f"stop once the 95%% interval is within ±E Elo (default {DEFAULT_MARGIN:g})",
    )
    add_jobs_option(parser)
    parser.add_argument(
        "--seed", type=int, default=None, metavar="S", help="the run's seed (default: random)"
    )
    parser.add_argument(
        "--openings",
        default=None,
        metavar="SUITE|FILE",
        help=f"start the pairs from {suite_help()} (default: random balanced 2-ply "
        "openings, as the levels were rated)",
    )
    # Off by default: the levels' ratings were measured on games played to their end.
    add_adjudicate_options(parser, 0)
    add_cluster_option(parser)
    add_log_option(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    check_arguments(args)
    specs, ratings = field_for(args.spec)
    log_outside_engines()
    start_engine_log(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    jobs = min(args.jobs or available_cores(), available_cores(), args.games)
    suite = None if args.openings is None else opening_suite(args.openings, seed)
    gauntlet = Gauntlet(
        specs, ratings, args.games, args.margin, seed, suite=suite, adjudicate=args.adjudicate
    )
    started = time.perf_counter()
    with StopSignals() as stop:
        status = play(args, gauntlet, jobs, stop)
        if status is not None:
            return status
        interrupted = stop.stopped.is_set()
        positions, failures = (Accuracy(), []) if interrupted else answer_positions(args.spec, seed)
        summary = {
            "engine": args.spec,
            "seed": seed,
            "jobs": jobs,
            "games_most": args.games,
            "margin": args.margin,
            "openings": args.openings or f"random {OPENING_PLIES}-ply",
            "adjudicate": args.adjudicate,
            "stopped": "interrupted"
            if interrupted
            else "margin"
            if gauntlet.reached_margin
            else "games",
            "seconds": round(time.perf_counter() - started, 1),
        }
        report = to_json(gauntlet, positions, failures, summary)
        if args.json:
            print(json.dumps(report))
        else:
            print_report(report)
        if interrupted:
            print(
                f"c4tui rate: interrupted by {stop.name} after {gauntlet.played:,} games"
                f"{stop.later_words()}",
                file=sys.stderr,
            )
            return stop.exit_status
    return 0


def check_arguments(args: argparse.Namespace) -> None:
    if not 1 <= args.games <= MAX_GAMES:
        raise CommandError(f"--games must be 1..{MAX_GAMES:,}, not {args.games}")
    if not 0 < args.margin < 10_000:  # also refuses nan
        raise CommandError(
            f"--margin must be more than 0 Elo (and below 10,000), not {args.margin}"
        )
    if args.jobs is not None and args.jobs < 1:
        raise CommandError(f"--jobs must be at least 1, not {args.jobs}")
    check_adjudicate(args.adjudicate)


def field_for(spec: str) -> tuple[list[str], dict[int, float]]:
    """The gauntlet's specs (the rated engine first, then the levels) and the levels'
    ratings by index; a level that is the rated engine itself is left out."""
    try:
        rated = parse_spec(spec)
    except SpecError as error:
        raise CommandError(str(error)) from None
    specs = [spec]
    ratings: dict[int, float] = {}
    for level, rating in sorted(RATINGS.items()):
        name = level_name(level)
        if parse_spec(name) == rated:
            continue  # its games against itself would say nothing of its strength
        specs.append(name)
        ratings[len(specs) - 1] = rating
    return specs, ratings


def play(args: argparse.Namespace, gauntlet: Gauntlet, jobs: int, stop: StopSignals) -> int | None:
    """Play the gauntlet; an exit status when it cannot go on, else None."""
    stderr = Console(stderr=True, highlight=False)
    try:
        with (
            game_runner(args, gauntlet.tasks(), jobs, play_rated) as runner,
            make_progress(stderr) as progress,
        ):
            stop.on_stop(runner.stop)
            bar = progress.add_task(f"rating {gauntlet.specs[RATED]}", total=gauntlet.games)
            for game in runner:
                gauntlet.add(game)
                progress.update(
                    bar, completed=gauntlet.played, description=progress_words(gauntlet)
                )
    except RUN_FAILURES as error:
        print(f"c4tui rate: {run_failure(error)}", file=sys.stderr)
        return 1
    except ClusterError as error:
        raise CommandError(f"--cluster: {error}") from None
    return None


def progress_words(gauntlet: Gauntlet) -> str:
    return f"{gauntlet.specs[RATED]}: Elo {elo_words(gauntlet.fit)}"


def answer_positions(spec: str, seed: int) -> tuple[Accuracy, list[str]]:
    """The engine's accuracy on the fixed positions (one engine, a new game each)."""
    engine = make_engine(spec, seed=seed)
    try:
        return fixed_positions.measure(engine)
    finally:
        engine.close()  # an outside engine's process


def to_json(
    gauntlet: Gauntlet, positions: Accuracy, failures: list[str], summary: dict[str, Any]
) -> dict[str, Any]:
    fit = gauntlet.fit
    opponents = []
    for index in sorted(gauntlet.ratings, key=gauntlet.ratings.__getitem__):
        results = gauntlet.results[index]
        games = sum(results.values())
        if not games:
            continue
        opponents.append(
            {
                "opponent": gauntlet.specs[index],
                "elo": gauntlet.ratings[index],
                "games": games,
                "wins": results[1.0],
                "draws": results[0.5],
                "losses": results[0.0],
                "score": round((results[1.0] + results[0.5] / 2) / games, 4),
            }
        )
    by_opening: dict[tuple[int, ...], dict[str, int]] = {}
    for (opening, colour), (lost, played) in gauntlet.openings.items():
        row = by_opening.setdefault(opening, dict.fromkeys(OPENING_COUNTS, 0))
        side = ("first", "second")[colour]
        row[f"lost_{side}"] += lost
        row[f"played_{side}"] += played
    openings: list[dict[str, Any]] = [
        {
            "opening": format_moves(opening),
            "lost": row["lost_first"] + row["lost_second"],
            "played": row["played_first"] + row["played_second"],
            **row,
        }
        for opening, row in by_opening.items()
    ]
    openings.sort(key=lambda row: (-row["lost"], row["opening"]))
    return {
        **summary,
        "games": gauntlet.played,
        "elo": {
            "rating": rounded(fit.rating),
            "low": rounded(fit.low),
            "high": rounded(fit.high),
            "margin": rounded(fit.margin),
            "stderr": rounded(fit.stderr),
            "dispersion": rounded(fit.dispersion, 3),
            "confidence": fit.confidence,
            "method": METHOD,
        },
        "opponents": opponents,
        "accuracy": {
            "games": gauntlet.accuracy.to_json(),
            "positions": {
                **positions.to_json(),
                "count": len(fixed_positions.POSITIONS),
                "failures": failures,
            },
        },
        "losses": {
            "games": sum(gauntlet.losses.values()),
            "kinds": dict[str, Any](gauntlet.losses.most_common()),
            "openings": openings,
        },
    }


def rounded(value: float | None, digits: int = 1) -> float | None:
    return None if value is None else round(value, digits)


def elo_words(fit: RatingFit) -> str:
    """'1558 ± 57', 'above 1890 (all won)', 'below 1010 (all lost)' or 'no games yet'."""
    if fit.rating is None:
        if fit.low is not None:
            return f"above {fit.low:.0f} (all won)"
        if fit.high is not None:
            return f"below {fit.high:.0f} (all lost)"
        return "no games yet"
    if fit.margin is None:
        low = "-∞" if fit.low is None else f"{fit.low:.0f}"
        high = "+∞" if fit.high is None else f"{fit.high:.0f}"
        return f"{fit.rating:.0f} [{low}, {high}]"
    return f"{fit.rating:.0f} ± {fit.margin:.0f}"


def print_report(report: dict[str, Any]) -> None:
    console = output_console()
    elo = report["elo"]
    stopped = {
        "margin": f"the interval reached ±{report['margin']:g}",
        "games": "the most games asked",
        "interrupted": "interrupted",
    }[report["stopped"]]
    console.print(
        f"{report['engine']} against the levels: {report['games']:,} games "
        f"(openings: {report['openings']}, both colours; stopped: {stopped}), "
        f"seed {report['seed']}, {report['jobs']} job{'s' if report['jobs'] > 1 else ''}, "
        f"{report['seconds']:.0f} s"
    )
    fit = RatingFit(elo["rating"], elo["low"], elo["high"], report["games"], elo["confidence"])
    if elo["rating"] is not None and elo["low"] is not None and elo["high"] is not None:
        # The interval is lopsided when the games are few: say both ends.
        console.print(
            f"Elo {elo['rating']:.0f} (95% interval {elo['low']:.0f} to {elo['high']:.0f}, "
            f"±{elo['margin']:.0f})"
        )
    else:
        console.print(f"Elo {elo_words(fit)}")
    console.print(f"{METHOD[0].upper()}{METHOD[1:]}.")
    opponents = plain_table(title="Opponents")
    opponents.add_column("opponent")
    for name in ("Elo", "games", "W-D-L", "score"):
        add_column(opponents, name)
    for row in report["opponents"]:
        opponents.add_row(
            row["opponent"],
            str(row["elo"]),
            f"{row['games']:,}",
            f"{row['wins']:,}-{row['draws']:,}-{row['losses']:,}",
            percent(row["score"]),
        )
    console.print(opponents)
    print_accuracy(console, report["accuracy"])
    print_losses(console, report)


def print_accuracy(console: Console, accuracy: dict[str, Any]) -> None:
    table = plain_table(title="Accuracy against perfect play (exact solver)")
    table.add_column("judged on")
    for name in ("moves", "kept", "best", "mistakes", "blunders", "cost/error"):
        table.add_column(name, justify="right", no_wrap=True)
    for label, row in (
        ("in its games", accuracy["games"]),
        (f"fixed set ({accuracy['positions']['count']})", accuracy["positions"]),
    ):
        table.add_row(
            label,
            f"{row['moves']:,}",
            percent(row["kept_share"]),
            percent(row["best_share"]),
            f"{row['mistakes']:,}",
            f"{row['blunders']:,}",
            cost_words(row),
        )
    console.print(table)
    console.print(
        "kept: moves that keep the position's exact result (a won one won, a drawn one "
        "drawn); best: moves of the best score; a mistake loses one result class, a blunder "
        "two; cost/error: the result classes a mistake or blunder lost on average, and (in "
        "brackets) the solver's score points it dropped (a score is 22 - the winner's stones)."
    )
    for failure in accuracy["positions"]["failures"]:
        console.print(f"  no legal move: {failure}")


def cost_words(row: dict[str, Any]) -> str:
    if row["classes_per_error"] is None:
        return ""
    return f"{row['classes_per_error']:.2f} ({row['score_per_error']:.1f})"


def print_losses(console: Console, report: dict[str, Any]) -> None:
    losses = report["losses"]
    if not losses["games"]:
        console.print("It lost no game.")
        return
    kinds = plain_table(title=f"Where it lost ({losses['games']:,} of {report['games']:,} games)")
    kinds.add_column("the move that lost it (threats coach)")
    kinds.add_column("games", justify="right")
    for kind, count in losses["kinds"].items():
        kinds.add_row(KIND_WORDS.get(kind, kind), f"{count:,}")
    console.print(kinds)
    openings = plain_table(title="Openings it lost most (lost of played, by its colour)")
    for name in ("opening", "as first", "as second", "lost"):
        add_column(openings, name)
    for row in losses["openings"][:SHOWN_OPENINGS]:
        if row["lost"]:
            openings.add_row(
                row["opening"],
                f"{row['lost_first']:,} of {row['played_first']:,}",
                f"{row['lost_second']:,} of {row['played_second']:,}",
                f"{row['lost']:,} of {row['played']:,}",
            )
    console.print(openings)
