"""`c4tui train selfplay`: AlphaZero from nothing on any board, with a live screen.

The run itself is `tournament/selfplay_run.py`; this module reads the options, opens
the run's workers (local processes, or a Dask cluster with --cluster), and shows the
run: the training screen (`train_screen/`) on a terminal, else one line per phase and
per generation (--no-screen, or when stdout is not a terminal).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import threading
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from c4tui.commands.common import CommandError, whole_number
from c4tui.engine.board.geometry import SIZE_LIMITS, validate_size

if TYPE_CHECKING:
    from c4tui.tournament.selfplay_run import Generation, Report, RunSettings, SelfPlayRun

EXTRA_HINT = "the train extra: uv sync --extra train (or pip install 'c4tui[train]')"


def register(kinds: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = kinds.add_parser(
        "selfplay",
        help="AlphaZero from nothing: self-play, training, a gate, with a live screen",
        description="Train a network from nothing by self-play on any board: each "
        "generation plays games with PUCT, trains on a replay window, is measured against "
        "the exact solver, and is kept only if it beats the best network in a sequential "
        "test. The run lives in --run DIR and resumes with --resume. See "
        "docs/learned-engine.md.",
    )
    parser.add_argument(
        "--board",
        type=board_size,
        default=(7, 6),
        metavar="WxH",
        help="the board, e.g. 5x4 (default 7x6)",
    )
    low, high = SIZE_LIMITS["connect"]
    parser.add_argument(
        "--connect",
        type=whole_number(low, high),
        default=4,
        help="stones in a line to win (default 4)",
    )
    parser.add_argument(
        "--run",
        dest="directory",
        type=Path,
        metavar="DIR",
        help="the run's directory (default selfplay-WxH)",
    )
    parser.add_argument("--resume", action="store_true", help="go on with the run in --run DIR")
    parser.add_argument("--seed", type=int, help="the run's seed (default 0)")
    parser.add_argument(
        "--generations", type=whole_number(1, 100_000), help="generations to train (default 30)"
    )
    parser.add_argument(
        "--games",
        type=whole_number(2, 1_000_000),
        help="self-play games a generation (default: the board's)",
    )
    parser.add_argument(
        "--sims", type=whole_number(1, 100_000), help="simulations a self-play move (default 64)"
    )
    parser.add_argument(
        "--steps",
        type=whole_number(1, 1_000_000),
        help="training batches a generation (default: the board's)",
    )
    parser.add_argument(
        "--window",
        type=whole_number(1, 1000),
        help="generations of positions trained on (default 4)",
    )
    parser.add_argument(
        "--positions",
        type=whole_number(1, 10_000_000),
        help="positions from play the solver labels to measure each "
        "generation (default: 100,000 on boards of 20 cells or fewer, else 1,000)",
    )
    parser.add_argument(
        "--opening-plies",
        type=whole_number(0, 1000),
        help="each self-play game starts after 0 to this many random plies "
        "(default: three quarters of the board)",
    )
    parser.add_argument(
        "--search-value",
        type=share,
        help="the search's value's share of the value target, the rest the game's "
        "result (0 to 1, default 0.5)",
    )
    parser.add_argument(
        "--explore",
        type=share,
        help="the share of moves after the opening played at random, their positions still "
        "searched and kept (0 to 1, default 0.5)",
    )
    parser.add_argument(
        "--solver",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="self-play's search asks the exact solver to settle leaves with a dozen empty "
        "cells or fewer, about 0.1 ms a leaf (the default); --no-solver: the rules alone",
    )
    parser.add_argument("--hidden", type=whole_number(8, 4096), help="the network's width")
    parser.add_argument("--blocks", type=whole_number(0, 64), help="residual blocks")
    parser.add_argument(
        "--average",
        type=whole_number(0, 10_000_000),
        metavar="STEPS",
        help="the network played and kept is the moving average of the weights over "
        "about this many training steps (default: five generations of the board's default "
        "steps, 5,000 on 5x4, 2,000 on 6x5, 2,500 on 7x6; 0: the latest weights)",
    )
    parser.add_argument(
        "--gate-sims",
        type=whole_number(1, 100_000),
        help="simulations a move in the gate's games (default 32)",
    )
    parser.add_argument(
        "--gate-games",
        type=whole_number(0, 100_000),
        help="the gate's most games before it gives up (default 200; 0: no gate, every "
        "generation's network becomes the best)",
    )
    parser.add_argument(
        "--keep-going",
        action="store_true",
        help="go on after a generation's network makes no mistake",
    )
    parser.add_argument(
        "--workers",
        type=whole_number(1, 256),
        default=os.cpu_count() or 1,
        help="self-play and labelling processes (default: one per core)",
    )
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="play and label on the Dask scheduler at ADDRESS (the cluster extra)",
    )
    parser.add_argument(
        "--no-screen",
        action="store_true",
        help="plain progress lines instead of the training screen",
    )
    parser.set_defaults(run=run_selfplay)


def board_size(text: str) -> tuple[int, int]:
    """An argparse type: WxH within the boards c4tui plays."""
    match = re.fullmatch(r"\s*(\d{1,2})\s*[xX]\s*(\d{1,2})\s*", text)
    (wlow, whigh), (hlow, hhigh) = SIZE_LIMITS["width"], SIZE_LIMITS["height"]
    if match is None:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a board such as 5x4")
    width, height = int(match[1]), int(match[2])
    if not (wlow <= width <= whigh and hlow <= height <= hhigh):
        raise argparse.ArgumentTypeError(
            f"{width}x{height}: boards are {wlow}-{whigh} wide and {hlow}-{hhigh} high"
        )
    return width, height


def share(text: str) -> float:
    """A fraction from 0 to 1, for argparse."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"{text} is not between 0 and 1")
    return value


def settings_of(args: argparse.Namespace, saved: RunSettings | None = None) -> RunSettings:
    """The board's defaults (a resumed run's own settings), with what the options change."""
    from c4tui.tournament.selfplay_run import defaults

    board = (*args.board, args.connect)
    s = saved if saved is not None else defaults(board)
    for name in ("seed", "generations", "games", "steps", "window", "positions"):
        if getattr(args, name) is not None:
            s = replace(s, **{name: getattr(args, name)})
    for name in ("sims", "opening_plies", "search_value", "solver", "explore"):
        if getattr(args, name) is not None:
            s = replace(s, play=replace(s.play, **{name: getattr(args, name)}))
    if args.hidden is not None:
        s = replace(s, net=replace(s.net, hidden=args.hidden))
    if args.blocks is not None:
        s = replace(s, net=replace(s.net, blocks=args.blocks))
    if args.average is not None:
        s = replace(s, net=replace(s.net, average=args.average))
    if args.gate_sims is not None:
        s = replace(s, gate=replace(s.gate, sims=args.gate_sims))
    if args.gate_games is not None:
        s = replace(s, gate=replace(s.gate, games_most=args.gate_games))
    return s


def run_selfplay(args: argparse.Namespace) -> int:
    from c4tui.tournament.cluster import ClusterError
    from c4tui.tournament.selfplay_run import RunError, SelfPlayRun, check_directory
    from c4tui.tournament.task_map import open_map

    width, height = args.board
    try:
        validate_size(width, height, args.connect)
    except ValueError as error:
        raise CommandError(f"--connect: {error}") from None
    directory = args.directory or Path(f"selfplay-{width}x{height}")
    try:
        check_directory(directory, resume=args.resume)
        # A resumed run keeps its settings (the defaults may have changed since); an
        # option given again must say the same, but --generations may grow.
        saved = saved_settings(directory) if args.resume else None
    except RunError as error:
        raise CommandError(str(error)) from None
    settings = settings_of(args, saved)
    if saved is not None and replace(settings, generations=saved.generations) != saved:
        differ = [name for name in vars(saved) if getattr(saved, name) != getattr(settings, name)]
        raise CommandError(
            f"--resume: {directory} was started with other {', '.join(differ)}: "
            "give the same, or none of those options"
        )
    try:
        with open_map(args.workers, args.cluster) as pool:  # a cluster is reached first
            try:
                import c4tui.engine.learned.learner  # noqa: F401  (JAX and optax)
            except ImportError:
                raise CommandError(f"train selfplay needs {EXTRA_HINT}") from None
            run = SelfPlayRun(directory, settings, pool)
            if args.resume:
                run.resume()
            else:
                run.start()
            if args.no_screen or not sys.stdout.isatty():
                return run_with_lines(run, not args.keep_going)
            from c4tui.train_screen import TrainingApp

            return TrainingApp(run, stop_when_perfect=not args.keep_going).run() or 0
    except RunError as error:
        raise CommandError(str(error)) from None
    except ClusterError as error:
        raise CommandError(f"--cluster: {error}") from None


def saved_settings(directory: Path) -> RunSettings:
    """The settings in a run's run.json; RunError when it cannot be read."""
    from c4tui.files import parse_json, read_text
    from c4tui.tournament.selfplay_run import RUN_JSON_BYTES, RunError, RunSettings

    try:
        data = parse_json(read_text(directory / "run.json", limit=RUN_JSON_BYTES))
        return RunSettings.from_json(data["settings"])  # type: ignore[index]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise RunError(f"{directory}: not a self-play run ({error})") from None


def run_with_lines(run: SelfPlayRun, stop_when_perfect: bool) -> int:
    """The run with one line per generation (and per phase's end) on stdout."""
    stop = threading.Event()

    def report(event: Report) -> None:
        if event.phase == "label" and event.done == event.total:
            print(f"labelled {event.total} batches of positions from play", flush=True)
        elif event.phase == "generation" and event.row is not None:
            print(generation_line(event.row), flush=True)
            perfect = event.row.perfect()
            if stop_when_perfect and perfect is not None:
                where = run.path(perfect)
                print(f"{where} makes no mistake on the positions: stopped", flush=True)
                stop.set()
        elif event.phase == "done":
            network, share = run.to_play()
            gate = run.path("best.npz")
            print(
                f"done: play it with alphazero:net={network} (the fewest mistakes, "
                f"{share:.2%}; the gate's best: {gate})",
                flush=True,
            )

    try:
        run.run(report, stop)
    except KeyboardInterrupt:
        print(f"interrupted: --resume goes on from {run.directory}", file=sys.stderr)
        return 130
    return 0


def generation_line(row: Generation) -> str:
    """One generation's figures on a line."""
    from c4tui.tournament.selfplay_run import NO_GATE

    share = row.mistakes / row.positions if row.positions else 0.0
    best = row.best_mistakes / row.positions if row.positions else 0.0
    if row.verdict == "first":
        wrong = f"{row.mistakes:,} of {row.positions:,} ({share:.2%})"
        return f"generation 0 (untrained): mistakes {wrong}"
    wins, draws, losses = row.gate_wdl
    elo = "" if row.elo is None else f", Elo {row.elo:+.0f}"
    verdict = {"H1": "kept", "H0": "not stronger", "games-most": "no verdict"}.get(
        row.verdict, row.verdict
    )
    gate = (
        "no gate"
        if row.verdict == NO_GATE
        else f"gate {verdict} after {row.gate_games} games (+{wins}={draws}-{losses}{elo})"
    )
    first, drawn, second = row.results
    return (
        f"generation {row.number}: {row.games:,} games (1st {first}-{drawn}-{second}), "
        f"loss p {row.policy_loss:.3f} v {row.value_loss:.3f}, "
        f"mistakes {row.mistakes:,} ({share:.2%}); {gate}; best: generation {row.best} "
        f"({best:.2%}); {row.seconds:.0f} s, CPU {row.cpu_seconds:.0f} s"
    )
