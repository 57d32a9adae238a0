"""The `c4tui` command line: the app when run alone, and subcommands for work without a screen."""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from c4tui.argparse_internals import option_actions

if TYPE_CHECKING:  # imported where it is used (see main), so Ctrl-C is caught
    from c4tui.engine.board.gamefile import GameRecord

# What a failed write of the output says (the disk is full, over quota, or failing).
WRITE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports usage errors on one line (status 2), without the usage dump."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


class VersionAction(argparse.Action):
    """`--version`: the version, and whether the C kernels or pure Python run."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        from c4tui.engine.kernels.library import kernels
        from c4tui.version import version

        parser.exit(0, f"c4tui {version()}\nkernels: {kernels()}\n")


# The subcommands, each a module of c4tui.commands with a `register`, in --help's order.
COMMANDS = (
    "analyze",
    "move",
    "review",
    "puzzle",
    "arena",
    "rate",
    "sprt",
    "bench",
    "serve",
    "engine",
    "connectx",
    "bot",
    "train",
)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The command line's parser. Given the arguments, it registers only the subcommand
    they name: each one's module loads rich and parts of the engine, and loading all of
    them doubled the time `c4tui analyze` takes for a quick position. With no
    subcommand named (the app, --help, a mistyped name) every one is registered, so
    help lists them and argparse names the choices."""
    import importlib

    parser = top_level_parser()
    named = command_named(parser, argv) if argv is not None else None
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    for name in (named,) if named in COMMANDS else COMMANDS:
        importlib.import_module(f"c4tui.commands.{name}").register(commands)
    for subparser in commands.choices.values():
        # So an argument left over names the subcommand that did not take it (see main).
        subparser.set_defaults(command_parser=subparser)
    return parser


def top_level_parser() -> argparse.ArgumentParser:
    """The parser of `c4tui` itself: the app's options, without the subcommands."""
    parser = OneLineParser(
        prog="c4tui",
        description="Connect Four in the terminal, against opponents whose thinking you can watch.",
    )
    parser.add_argument(
        "--opponent", metavar="SPEC", help="the AI to play in the app, e.g. mcts:time=2 or perfect"
    )
    parser.add_argument("--first", choices=("you", "ai"), help="who moves first in the app")
    start = parser.add_mutually_exclusive_group()
    start.add_argument(
        "--position", metavar="MOVES", help="start the app from these moves, e.g. 4453"
    )
    start.add_argument("--load", metavar="FILE", help="open a saved game file in the app")
    parser.add_argument(
        "--screen-reader",
        action="store_true",
        help="plain lines for a screen reader or braille display (also C4TUI_SCREEN_READER=1)",
    )
    parser.add_argument(
        "--served",
        action="store_true",
        # A client of `c4tui serve` (its fronts start it; no files of this host): not
        # for people, so --help leaves it out.
        help=argparse.SUPPRESS,
    )
    parser.add_argument(
        "--version", action=VersionAction, help="print the version and which kernels run, then exit"
    )
    return parser


def command_named(parser: argparse.ArgumentParser, argv: Sequence[str]) -> str | None:
    """The subcommand `argv` names: its first token after the top-level options (None if
    there is none). An unknown option before it is rejected here, by its name.

    argparse sets unknown options aside and would take their value for the subcommand
    (`c4tui --width 8` says "invalid choice: '8'"); name the option instead.
    """
    known = option_actions(parser)  # every option string of the top-level parser
    expects_value = False
    for token in argv:
        if expects_value:
            expects_value = False
            continue
        if token == "--" or token == "-":
            return None
        if not token.startswith("-"):
            return token  # the subcommand (or a positional) starts here
        name, has_value, _ = token.partition("=")
        # argparse accepts a unique prefix of a long option, such as --opp.
        matches = [option for option in known if option.startswith(name) and len(name) > 2]
        action = known.get(name) or (known[matches[0]] if len(matches) == 1 else None)
        if action is None:
            parser.error(f"unrecognized option {name}")
        expects_value = action.nargs != 0 and not has_value
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """The command line's status. Ctrl-C at any point of it is one line and status 130:
    this module imports little, so the commands' imports (rich, the engine: most of a
    second on a busy machine) happen in here, where it is caught."""
    try:
        return run_command_line(argv)
    except KeyboardInterrupt:
        print("c4tui: interrupted", file=sys.stderr)
        return 130


def run_command_line(argv: Sequence[str] | None) -> int:
    from c4tui.commands.common import CommandError

    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv)
    args, extra = parser.parse_known_args(argv)
    if extra:
        # argparse reports these from the top-level parser ("c4tui: ..."), whole however
        # long; name the subcommand and quote the start.
        from c4tui.engine.board.notation import quote_around

        where = getattr(args, "command_parser", parser)
        where.error(f"unrecognized arguments: {quote_around(' '.join(extra), 1)}")
    if args.command is None:
        try:
            return run_app(args)
        except CommandError as error:
            print(f"c4tui: {error}", file=sys.stderr)
            return 2
    try:
        status: int = args.run(args)
        # Output still buffered must fail here, where it is reported, not at exit.
        sys.stdout.flush()
        return status
    except CommandError as error:
        print(f"c4tui {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"c4tui {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # Output piped into `head` and closed early: end quietly with status 0, as Unix
        # tools do.
        silence_stdout()
        return 0
    except OSError as error:
        # A full disk or device behind stdout (`> /dev/full`), or a file the command writes.
        output = not error.filename and error.errno in WRITE_ERRNOS
        where = f"{error.filename}: " if error.filename else "cannot write: " if output else ""
        print(f"c4tui {args.command}: {where}{error.strerror or error}", file=sys.stderr)
        if output:
            silence_stdout()
        return 1


def silence_stdout() -> None:
    """Point stdout at devnull, so the flush at exit cannot fail a second time (as Python's
    docs advise for a closed pipe)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def run_app(args: argparse.Namespace) -> int:
    """Start the Textual app (imported here, so subcommands never load textual)."""
    from c4tui.commands.common import CommandError

    if args.served:
        return run_served(args)
    if args.opponent is not None:
        from c4tui.app.settings import config_dir, load
        from c4tui.engine.players.specs import SpecError, parse_spec

        saved, _notice = load(config_dir())  # the board the opponent will play on
        try:
            parse_spec(args.opponent, board=(saved.width, saved.height, saved.connect))
        except SpecError as error:
            raise CommandError(f"--opponent: {error}") from None
    moves, record = "", None
    if args.position is not None:
        from c4tui.app.settings import config_dir, load
        from c4tui.commands.common import parse_position

        # The moves are played on the board the app will show: the saved settings' one.
        saved, _notice = load(config_dir())
        board = (saved.width, saved.height, saved.connect)
        # A finished game opens at its end, to be looked at or reviewed.
        moves = parse_position(
            args.position, where="--position", allow_over=True, board=board
        ).to_moves()
    if args.load is not None:
        record = read_game_file(args.load)
    from c4tui.app.app import ConnectFourApp

    # A game asked for on the command line replaces the one in progress (which is kept).
    asked = any(x is not None for x in (args.opponent, args.first, args.position, args.load))
    app = ConnectFourApp(
        opponent=args.opponent,
        first=args.first,
        moves=moves,
        resume=not asked,
        screen_reader=args.screen_reader,
    )
    if record is not None:
        app.call_later(app.study.open_file, record, Path(args.load))
    app.run()
    if app.return_code:
        # Textual has printed the error that stopped it; a script must not take it for a
        # clean end.
        print(f"c4tui: the app stopped on an error (status {app.return_code})", file=sys.stderr)
    return app.return_code or 0


def run_served(args: argparse.Namespace) -> int:
    """The app as a client of `c4tui serve`: its game is on the server, never a file here."""
    from c4tui.commands.common import CommandError

    for option in ("opponent", "first", "position", "load"):
        if getattr(args, option) is not None:
            raise CommandError(f"--served takes no --{option}: the server holds the game")
    from c4tui.server.wire.room_client import SOCKET_ENV, TOKEN_ENV

    for name in (SOCKET_ENV, TOKEN_ENV):
        if not os.environ.get(name):
            raise CommandError(f"--served: {name} is not set (c4tui serve starts its clients)")
    from c4tui.app.served import ServedApp
    from c4tui.app.served_errors import kept_from_the_player

    app = ServedApp()
    with kept_from_the_player(app):
        app.run()
    return app.return_code or 0


def prepare_served_client() -> None:
    """What run_served_client does before the app, done once by the fork server, whose
    children then share it: the parser, with every command's module imported."""
    build_parser(["--served"])


def run_served_client() -> int:
    """`c4tui --served` in a child of the fork server (server/fronts/fork_server.py)."""
    return main(["--served"])


def read_game_file(name: str) -> GameRecord:
    """A game file for --load; CommandError names the file and the line at fault."""
    from c4tui.commands.common import parse_game_file, read_input_file

    where = f"--load {name}"
    return parse_game_file(read_input_file(name, where), where)


if __name__ == "__main__":
    sys.exit(main())
