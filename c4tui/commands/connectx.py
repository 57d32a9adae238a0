"""`c4tui connectx --engine SPEC -o FILE`: write one of our engines as a Kaggle ConnectX
agent file that carries what it needs (engine/external/agent_file.py)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from c4tui.argparse_internals import Subcommands
from c4tui.commands.common import CommandError
from c4tui.engine.external.agent_file import agent_file
from c4tui.engine.players.specs import SpecError
from c4tui.engine.regular_files import UnwritableFile
from c4tui.files import atomic_write


def register(commands: Subcommands) -> None:
    parser = commands.add_parser(
        "connectx",
        help="write an engine as a Kaggle ConnectX agent file",
        description=(
            "Write a Python file whose agent(observation, configuration) plays the engine "
            "in Kaggle's ConnectX, with the c4tui modules it needs inside: it runs where "
            "only Python is installed."
        ),
    )
    parser.add_argument("--engine", required=True, metavar="SPEC", help="e.g. level:8, mcts")
    parser.add_argument(
        "-o", "--output", required=True, metavar="FILE", help="the agent file ('-': stdout)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        text = agent_file(args.engine)
    except (SpecError, ValueError) as error:
        raise CommandError(f"--engine: {error}") from None
    if args.output == "-":
        sys.stdout.write(text)
        return 0
    if not args.output:
        raise CommandError("--output: '' is not a file name")
    try:  # whole or not at all; a directory, a FIFO or a device is refused, not waited on
        atomic_write(Path(args.output), text)
    except UnwritableFile as error:
        raise CommandError(f"--output: {error}") from None
    except OSError as error:
        raise CommandError(f"--output: cannot write {args.output!r}: {error.strerror}") from None
    return 0
