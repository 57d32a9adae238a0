"""`c4tui engine SPEC`: serve a built-in engine over the engine protocol on stdin/stdout.

The protocol is docs/engine-protocol.md; the server is the engine package's
(c4tui/engine/external/server.py). This module only wires it to the standard streams.
"""

from __future__ import annotations

import argparse
import sys

from c4tui.argparse_internals import Subcommands
from c4tui.commands.common import CommandError
from c4tui.engine.players.specs import SpecError, parse_spec


def register(commands: Subcommands) -> None:
    parser = commands.add_parser(
        "engine",
        help="speak the engine protocol (c4e) on stdin/stdout",
        description=(
            "Serve a built-in engine to another program over the c4e engine protocol "
            "(docs/engine-protocol.md): commands on stdin, answers on stdout."
        ),
    )
    parser.add_argument("spec", metavar="SPEC", help="e.g. level:5, mcts:time=1, perfect")
    parser.add_argument("--seed", type=int, default=None, help="random seed of the engine")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from c4tui.engine.external.server import EngineServer

    try:
        if parse_spec(args.spec).outside:
            raise CommandError(f"{args.spec!r}: serve a built-in engine (not an outside one)")
    except SpecError as error:
        raise CommandError(str(error)) from None

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    EngineServer(args.spec, write, seed=args.seed).serve(sys.stdin)
    return 0
