"""`c4tui sprt NEW OLD`: is NEW stronger than OLD? A sequential test over pairs of games.

Pairs of games (one opening, each engine with each colour) are played until the
pentanomial GSPRT (tournament/sprt.py) accepts H1 (NEW is `elo1` stronger) or H0 (it is
at most `elo0`), or until --games-most. The run and its test live in
tournament/sprt_run.py; with --state FILE the same command run again after a kill goes
on from the last pair counted and reaches the verdict an uninterrupted run would.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from c4tui.argparse_internals import Subcommands
from c4tui.commands.arena import (
    add_jobs_option,
    available_cores,
    open_saved_games,
    saved_line,
)
from c4tui.commands.common import CommandError
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
from c4tui.tournament import sprt
from c4tui.tournament.cluster import ClusterError
from c4tui.tournament.openings import DEFAULT_SUITE, OpeningSuite
from c4tui.tournament.savefile import SaveError
from c4tui.tournament.signals import StopSignals
from c4tui.tournament.sprt_run import (
    PairsInOrder,
    Settings,
    SprtState,
    StateError,
    load_state,
    pair_tasks,
    save_state,
)
from c4tui.tournament.workers import RUN_FAILURES, run_failure

DEFAULT_GAMES_MOST = 100_000
MAX_GAMES = 100_000_000
ENDS = {
    "H1": "accepted H1: NEW is stronger",
    "H0": "accepted H0: NEW is not stronger",
    "games-most": "stopped at --games-most without a verdict",
}


def register(commands: Subcommands) -> None:
    parser = commands.add_parser(
        "sprt",
        help="is NEW stronger than OLD? a sequential test over game pairs",
        description=(
            "Plays pairs of games (each opening once with each colour) until a "
            "pentanomial GSPRT accepts H1 (NEW is --elo1 stronger than OLD) or H0 (at "
            "most --elo0), or until --games-most. See docs/engine-testing.md."
        ),
    )
    parser.add_argument("new", metavar="NEW", help="the engine under test, e.g. level:5")
    parser.add_argument("old", metavar="OLD", help="the engine it is tested against")
    parser.add_argument("--elo0", type=float, default=0.0, metavar="E", help="H0's Elo (default 0)")
    parser.add_argument("--elo1", type=float, default=5.0, metavar="E", help="H1's Elo (default 5)")
    parser.add_argument(
        "--alpha", type=float, default=0.05, metavar="P", help="false positive rate (default 0.05)"
    )
    parser.add_argument(
        "--beta", type=float, default=0.05, metavar="P", help="false negative rate (default 0.05)"
    )
    parser.add_argument(
        "--model",
        choices=sprt.MODELS,
        default="logistic",
        help="what the Elo bounds mean (default logistic)",
    )
    parser.add_argument(
        "--games-most",
        type=int,
        default=DEFAULT_GAMES_MOST,
        metavar="N",
        help=f"stop without a verdict after N games (default {DEFAULT_GAMES_MOST:,})",
    )
    parser.add_argument(
        "--openings",
        default=DEFAULT_SUITE,
        metavar="SUITE|FILE",
        help=f"{suite_help()} (default {DEFAULT_SUITE})",
    )
    add_adjudicate_options(parser, DEFAULT_ADJUDICATE)
    add_limit_options(parser)
    add_cluster_option(parser)
    add_log_option(parser)
    add_games_dir_option(parser)
    add_jobs_option(parser)
    parser.add_argument(
        "--seed", type=int, default=None, metavar="S", help="the run's seed (default: random)"
    )
    parser.add_argument(
        "--state",
        metavar="FILE",
        help="keep the run in FILE after every pair; the same command again resumes it",
    )
    parser.add_argument(
        "--save", metavar="FILE", help="append every counted game to FILE as a JSON line"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    check_arguments(args)
    state_path = Path(args.state) if args.state else None
    state = start_or_resume(args, state_path)
    suite = opening_suite(state.settings.openings, state.settings.seed)
    log_outside_engines()
    start_engine_log(args)
    with StopSignals() as stop:
        status, interrupted = play(args, state, suite, state_path, stop)
        if status is not None:
            return status
        report = to_json(state)
        if args.json:
            print(json.dumps(report))
        else:
            print(final_words(state))
        if interrupted and state.end is None:
            resume = f"; run it again to resume from {args.state}" if args.state else ""
            by = "" if stop.received is None else f" by {stop.name}"
            print(
                f"c4tui sprt: interrupted{by} after {state.games:,} games"
                f"{resume}{stop.later_words()}",
                file=sys.stderr,
            )
            return stop.exit_status
    return 0


def check_arguments(args: argparse.Namespace) -> None:
    """A one-line CommandError for any argument that cannot be used."""
    for name in ("elo0", "elo1", "alpha", "beta"):
        if not math.isfinite(getattr(args, name)):
            raise CommandError(f"--{name} must be a number, not {getattr(args, name)}")
    if not args.elo0 < args.elo1:
        raise CommandError(f"--elo0 ({args.elo0:g}) must be below --elo1 ({args.elo1:g})")
    if max(abs(args.elo0), abs(args.elo1)) >= 1000:
        raise CommandError("--elo0 and --elo1 must be within ±1000 Elo")
    try:
        sprt.bounds(args.alpha, args.beta)
    except ValueError as error:
        raise CommandError(f"--alpha/--beta: {error}") from None
    if not 2 <= args.games_most <= MAX_GAMES:
        raise CommandError(f"--games-most must be 2..{MAX_GAMES:,}, not {args.games_most}")
    check_adjudicate(args.adjudicate)
    if args.jobs is not None and args.jobs < 1:
        raise CommandError(f"--jobs must be at least 1, not {args.jobs}")
    for spec in (args.new, args.old):
        try:
            make_engine(spec).close()
        except SpecError as error:
            raise CommandError(str(error)) from None


def start_or_resume(args: argparse.Namespace, path: Path | None) -> SprtState:
    """The run in --state FILE when it holds these settings, else a new one."""
    saved = None
    if path is not None:
        try:
            saved = load_state(path)
        except StateError as error:
            raise CommandError(f"--state: {error}") from None
    seed = args.seed
    if seed is None:
        seed = saved.settings.seed if saved is not None else random.SystemRandom().randrange(2**31)
    settings = Settings(
        new=args.new,
        old=args.old,
        elo0=args.elo0,
        elo1=args.elo1,
        alpha=args.alpha,
        beta=args.beta,
        model=args.model,
        seed=seed,
        openings=args.openings,
        adjudicate=args.adjudicate,
        games_most=args.games_most,
        limits=move_limits(args),
    )
    if saved is None:
        return SprtState(settings)
    if saved.settings != settings:
        differ = [
            name for name, value in vars(settings).items() if getattr(saved.settings, name) != value
        ]
        raise CommandError(
            f"--state: {args.state} holds a run with other settings ({', '.join(differ)}); "
            "give the same ones to resume it, or name another file"
        )
    if saved.pairs:
        print(f"c4tui sprt: resuming {args.state} after {saved.games:,} games", file=sys.stderr)
    return saved


def play(
    args: argparse.Namespace,
    state: SprtState,
    suite: OpeningSuite,
    path: Path | None,
    stop: StopSignals,
) -> tuple[int | None, bool]:
    """Play pairs until the test ends or a signal stops it: an exit status on failure
    (else None), and whether the run was interrupted."""
    jobs = min(args.jobs or available_cores(), available_cores())
    save = open_saved_games(args.save) if args.save is not None else None
    pairs = PairsInOrder(state.pairs)
    run = f"sprt-{state.settings.seed}"  # names the run's lines and game files
    progress = Progress(sys.stderr)
    try:
        with game_runner(args, pair_tasks(state, suite), jobs) as runner:
            stop.on_stop(runner.stop)
            for game in runner:
                for first, second in pairs.add(game):
                    if state.end is not None:
                        break  # games past the deciding pair are dropped
                    state.add_pair(first, second)
                    if save is not None:
                        for record in (first, second):
                            save.append(saved_line(run, state.settings.seed, record))
                    if args.games_dir is not None:
                        for record in (first, second):
                            write_game_file(args.games_dir, run, record)
                    if path is not None:
                        save_state(path, state)
                    progress.show(progress_line(state))
    except RUN_FAILURES as error:
        progress.end()
        print(f"c4tui sprt: {run_failure(error)}", file=sys.stderr)
        return 1, False
    except ClusterError as error:
        progress.end()
        raise CommandError(f"--cluster: {error}") from None
    except (SaveError, OSError) as error:
        progress.end()
        raise CommandError(f"cannot keep the run: {error}") from None
    finally:
        if save is not None:
            save.close()
    progress.end()
    return None, runner.interrupted


class Progress:
    """The live progress line on a terminal's stderr: rewritten in place, nothing elsewhere."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.live = stream.isatty()
        self.width = 0

    def show(self, line: str) -> None:
        if self.live:
            self.stream.write("\r" + line.ljust(self.width))
            self.stream.flush()
            self.width = len(line)

    def end(self) -> None:
        if self.live and self.width:
            self.stream.write("\n")
            self.stream.flush()


def progress_line(state: SprtState) -> str:
    """games 240  W-D-L 90-80-70  pairs 5-30-40-35-10  Elo +12 [-8, +31]  LLR 1.02 [-2.94, 2.94]"""
    losses, draws, wins = state.trinomial
    lower, upper = state.bounds()
    return (
        f"games {state.games:,}  W-D-L {wins:,}-{draws:,}-{losses:,}  "
        f"pairs {'-'.join(f'{n:,}' for n in state.pentanomial)}  "
        f"Elo {elo_words(state.elo())}  LLR {state.llr():.2f} [{lower:.2f}, {upper:.2f}]"
    )


def elo_words(elo: sprt.EloInterval) -> str:
    def signed(value: float | None, infinite: str) -> str:
        # + 0.0 makes the -0.0 that rounding a small negative gives a plain +0.0.
        return infinite if value is None else f"{round(value, 1) + 0.0:+.1f}"

    return f"{signed(elo.elo, '?')} [{signed(elo.low, '-∞')}, {signed(elo.high, '+∞')}]"


def final_words(state: SprtState) -> str:
    s = state.settings
    lines = [
        f"{s.new} vs {s.old}: {ENDS[state.end] if state.end else 'no verdict yet'} "
        f"after {state.games:,} games ({state.pairs:,} pairs)",
        progress_line(state),
        f"H0: {s.elo0:g} Elo, H1: {s.elo1:g} Elo ({s.model}), alpha {s.alpha:g}, beta {s.beta:g}; "
        f"openings {s.openings}, seed {s.seed}; "
        f"{state.adjudicated:,} games adjudicated, {state.forfeits:,} forfeits",
    ]
    return "\n".join(lines)


def to_json(state: SprtState) -> dict[str, Any]:
    elo = state.elo()
    losses, draws, wins = state.trinomial
    lower, upper = state.bounds()
    return {
        **asdict(state.settings),
        "end": state.end,
        "games": state.games,
        "pairs": state.pairs,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "pentanomial": state.pentanomial,
        "elo": elo.elo,
        "elo_low": elo.low,
        "elo_high": elo.high,
        "llr": state.llr(),
        "llr_lower": lower,
        "llr_upper": upper,
        "adjudicated": state.adjudicated,
        "forfeits": state.forfeits,
    }
