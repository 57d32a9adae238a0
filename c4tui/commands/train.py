"""`c4tui train distill`: teach a network the exact solver's moves and results.

Positions come from games played from the empty board (`labels.py`: random and guided
games), each labelled by the solver with every column's exact score, in worker
processes. The labelled positions are saved (`--data`), so a second run with other
settings reuses them. Training (`training.py`) needs the `train` extra (JAX and optax);
labelling and everything else does not. The network is written in the NumPy format the
engine reads: play it with `alphazero:net=FILE`.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from c4tui.argparse_internals import Subcommands
from c4tui.commands.common import (
    CommandError,
    add_board_options,
    output_console,
    output_file,
    whole_number,
)
from c4tui.commands.train_selfplay import register as register_selfplay
from c4tui.engine.learned import KINDS

if TYPE_CHECKING:
    from c4tui.engine.learned.labels import Batch, Labelled
    from c4tui.engine.learned.network import Network

EXTRA_HINT = "the train extra: uv sync --extra train (or pip install 'c4tui[train]')"


def register(commands: Subcommands) -> None:
    parser = commands.add_parser(
        "train",
        help="train the learned engine's network",
        description="Train a policy/value network for the alphazero engine.",
    )
    kinds = parser.add_subparsers(dest="kind", metavar="KIND", required=True)
    distill = kinds.add_parser(
        "distill",
        help="from positions labelled by the exact solver",
        description="Label positions with the exact solver (in parallel), then train "
        "a network on them and write it in the engine's format.",
    )
    distill.add_argument("--out", type=output_file, required=True, help="the network file to write")
    distill.add_argument(
        "--data",
        type=Path,
        nargs="+",
        metavar="FILE",
        help="labelled positions: the files are read when they exist; one that does not "
        "is made and saved",
    )
    add_labelling_options(distill)
    distill.add_argument("--epochs", type=whole_number(1, 10_000), default=10)
    distill.add_argument(
        "--hidden",
        type=whole_number(8, 4096),
        help="the width of the network's layers (default 256)",
    )
    distill.add_argument("--blocks", type=whole_number(0, 64), help="residual blocks (default 3)")
    distill.add_argument(
        "--start-from",
        type=Path,
        metavar="NET",
        help="go on training this network file (its board and size) instead of starting "
        "from random weights: more data or epochs for a network already made",
    )
    distill.add_argument(
        "--learning-rate",
        type=positive_rate,
        default=2e-3,
        help="the peak of the learning rate's schedule (default 0.002; lower, such as "
        "0.0005, to go on from a trained network)",
    )
    distill.add_argument(
        "--teacher",
        type=Path,
        metavar="NET",
        help="mix this network's judgement one ply ahead (its value of the position after "
        "each move) into the policy target (docs/learned-engine.md)",
    )
    distill.add_argument(
        "--teacher-share",
        type=positive_rate,
        help="the teacher's share of the policy target, above 0 and at most 1 (default 0.5)",
    )
    distill.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    distill.add_argument(
        "--half",
        action="store_true",
        help="write the weights as 16-bit floats: half the file, answers within about 1e-3",
    )
    distill.add_argument(
        "--checkpoint",
        type=output_file,
        help="save the run here as it goes; resumed from when it exists",
    )
    add_board_options(distill)
    distill.set_defaults(run=run_distill)
    label = kinds.add_parser(
        "label",
        help="only label positions with the exact solver (no training, no extra needed)",
        description="Play games, label every position with the exact solver, save them "
        "for train distill --data.",
    )
    label.add_argument(
        "--out", type=output_file, required=True, help="the file of positions to write"
    )
    add_labelling_options(label)
    label.add_argument("--seed", type=int, default=0, help="the games' seed (default 0)")
    add_board_options(label)
    label.set_defaults(run=run_label)
    register_selfplay(kinds)


def add_labelling_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--games",
        type=whole_number(1, 10**7),
        default=2000,
        help="games to label, shared evenly among --kinds (default 2000)",
    )
    parser.add_argument(
        "--kinds",
        type=kinds_list,
        default=list(KINDS),
        help=f"which games' positions: {', '.join(KINDS)} (default: all; docs/learned-engine.md)",
    )
    parser.add_argument(
        "--workers",
        type=whole_number(1, 256),
        default=os.cpu_count() or 1,
        help="labelling processes (default: one per core)",
    )


def run_distill(args: argparse.Namespace) -> int:
    try:
        from c4tui.engine.learned import training
    except ImportError:
        raise CommandError(f"train needs {EXTRA_HINT}") from None
    from c4tui.engine.learned.network import save

    console = output_console()
    start = starting_network(args)
    if args.teacher_share is not None and args.teacher is None:
        raise CommandError("--teacher-share: give the teacher with --teacher NET")
    teacher = network_option(args.teacher, "--teacher", args) if args.teacher else None
    data, labelled = labelled_positions(args)
    if not len(data):  # a `hard` kind on a small board keeps none: the solver works little there
        raise CommandError("no positions to train on: label more games or other --kinds")
    schedule = {"epochs": args.epochs, "seed": args.seed, "learning_rate": args.learning_rate}
    if teacher is not None:
        share = 0.5 if args.teacher_share is None else args.teacher_share
        schedule |= {"teacher": teacher[1], "teacher_share": share}
        console.print(f"the teacher reads the positions after each move of {len(data):,} positions")
    if start is None:
        config = training.Config(
            width=args.width,
            height=args.height,
            connect=args.connect,
            hidden=args.hidden or 256,
            blocks=3 if args.blocks is None else args.blocks,
            **schedule,
        )
    else:
        config = training.config_for(start[0], start=start[1], **schedule)
    trainer = training.Trainer(
        config, data, start[0] if start else None, teacher[0] if teacher else None
    )
    if args.checkpoint is not None and args.checkpoint.exists():
        try:
            trainer.resume(args.checkpoint)
        except (ValueError, KeyError, TypeError, OSError) as error:
            raise CommandError(f"--checkpoint: {error}") from None
        console.print(f"resumed at step {trainer.step:,} of {trainer.steps:,}")
    console.print(
        f"training on {len(trainer.train):,} positions (mirror images included), "
        f"{len(trainer.test):,} held out"
    )
    with bar(console, "steps") as progress:
        task = progress.add_task("training", total=trainer.steps, completed=trainer.step)

        def report(step: training.Progress) -> None:
            progress.update(task, completed=step.step, description=f"loss {step.loss:.3f}")
            if step.held_out:
                figures = step.held_out
                progress.console.print(
                    f"epoch {step.epoch + 1}: held out, top prior keeps the result in "
                    f"{figures['accuracy']:.2%}; policy loss {figures['policy']:.3f}, "
                    f"value loss {figures['value']:.3f}"
                )

        trainer.run(report, args.checkpoint)
    # The games only when this run labelled them (not counted for --data files' positions).
    about = {"positions": len(data)} | ({"games": args.games} if labelled else {})
    saving(lambda: save(args.out, trainer.network(about), half=args.half), "--out")
    console.print(f"wrote {args.out}: play it with alphazero:net={args.out}")
    return 0


def starting_network(args: argparse.Namespace) -> tuple[Network, str] | None:
    """`--start-from`'s network and its file's SHA-256, read and checked against the
    board and the sizes given; None without it."""
    path: Path | None = args.start_from
    if path is None:
        return None
    network, digest = network_option(path, "--start-from", args)
    if args.hidden not in (None, network.hidden) or args.blocks not in (None, network.blocks):
        raise CommandError(
            f"--start-from: {path} is {network.hidden} wide with {network.blocks} blocks; "
            "leave out --hidden and --blocks to go on from it"
        )
    return network, digest


def network_option(path: Path, option: str, args: argparse.Namespace) -> tuple[Network, str]:
    """The network file an option names, read and checked against the board given, and
    the file's SHA-256 (kept in the run's configuration, so a checkpoint of a run with
    another network is never resumed)."""
    from c4tui.engine.learned.network import NetworkError, load

    try:
        network = load(path)
    except (NetworkError, OSError) as error:
        raise CommandError(f"{option}: {error}") from None
    board = (args.width, args.height, args.connect)
    if board != (network.width, network.height, network.connect):
        raise CommandError(
            f"{option}: {path} is for the {network.width}x{network.height} connect "
            f"{network.connect} board, not {args.width}x{args.height} connect {args.connect}"
        )
    return network, hashlib.sha256(path.read_bytes()).hexdigest()


def run_label(args: argparse.Namespace) -> int:
    data = label_games(args)
    saving(lambda: data.save(args.out), "--out")
    output_console().print(f"wrote {args.out}: give it to train distill --data")
    return 0


def labelled_positions(args: argparse.Namespace) -> tuple[Labelled, bool]:
    """The positions to train on, and whether this run labelled them (rather than read
    them from `--data` files that all exist)."""
    from c4tui.engine.learned.labels import Labelled

    files: list[Path] = args.data or []
    if files and all(path.exists() for path in files):
        parts = []
        for path in files:
            try:
                part = Labelled.load(path)
            except OSError as error:  # UnreadableFile: the path and what is wrong
                raise CommandError(f"--data: {error}") from None
            problem = part.board_problem(args.width, args.height)
            if problem is not None:
                raise CommandError(f"--data: {path}: {problem} (give --width and --height)")
            parts.append(part)
        return Labelled.join(parts), False
    if len(files) > 1:
        missing = next(path for path in files if not path.exists())
        raise CommandError(f"--data: {missing}: no such file (only one file is made at a time)")
    data = label_games(args)
    if files:
        saving(lambda: data.save(files[0]), "--data")
    return data, True


def saving(write: Callable[[], object], option: str) -> None:
    """Write a file an option names; a failure is one line (the disk full, no permission)."""
    try:
        write()
    except OSError as error:
        raise CommandError(f"{option}: {error}") from None


def label_games(args: argparse.Namespace) -> Labelled:
    """`--games` games shared among `--kinds`, labelled in `--workers` processes. Each
    kind's games are seeded from `--seed` plus 1000 for each kind before it in KINDS."""
    from c4tui.engine.learned.labels import batches, label_in_parallel

    board = {"width": args.width, "height": args.height, "connect": args.connect}
    work: list[Batch] = []
    for index, kind in enumerate(args.kinds):
        games = args.games // len(args.kinds) + (index < args.games % len(args.kinds))
        work += batches(args.seed + 1000 * KINDS.index(kind), games, kind, **board)
    console = output_console()
    started = time.perf_counter()
    with bar(console, "batches") as progress:
        task = progress.add_task("labelling", total=len(work))
        data = label_in_parallel(work, args.workers, lambda _part: progress.advance(task))
    console.print(
        f"labelled {len(data):,} positions in {time.perf_counter() - started:.0f} s "
        f"with {args.workers} processes"
    )
    return data


def kinds_list(text: str) -> list[str]:
    """An argparse type: kinds of games, comma-separated, each once."""
    kinds = [kind.strip().lower() for kind in text.split(",")]
    unknown = [kind for kind in kinds if kind not in KINDS]
    if unknown or not kinds or len(set(kinds)) != len(kinds):
        raise argparse.ArgumentTypeError(
            f"{text!r}: give some of {', '.join(KINDS)}, comma-separated, each once"
        )
    return kinds


def positive_rate(text: str) -> float:
    """An argparse type: a learning rate or a share, above 0 and at most 1."""
    try:
        rate = float(text)
    except ValueError:
        rate = math.nan
    if not 0 < rate <= 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give a number above 0 and at most 1")
    return rate


def bar(console: object, unit: str) -> Progress:
    from rich.console import Console

    assert isinstance(console, Console)
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(unit),
        TimeRemainingColumn(),
        console=console,
        disable=not console.is_terminal,
    )
