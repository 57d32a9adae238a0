"""What every subcommand shares: one-line errors, the board options, reading positions."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from c4tui.engine.board.gamefile import GameFileError, GameRecord
from c4tui.engine.board.geometry import SIZE_LIMITS, validate_size
from c4tui.engine.board.notation import moves_of
from c4tui.engine.board.position import Position
from c4tui.engine.players.specs import SpecError, parse_spec
from c4tui.engine.regular_files import not_to_write
from c4tui.files import MAX_FILE_BYTES, UnreadableFile, read_text
from c4tui.match.sides import GLYPHS


class CommandError(Exception):
    """Bad input: the CLI prints `c4tui: <message>` on one line and exits with status 2."""


Board = tuple[int, int, int]  # width, height, connect
STANDARD_BOARD: Board = (7, 6, 4)


def table_names(specs: Iterable[str]) -> dict[str, str]:
    """What a text table calls each engine spec: its `name=` where it has one that no
    other engine of the table has, else the spec itself (JSON always gives the spec)."""
    names = {spec: _given_name(spec) or spec for spec in specs}
    taken = [name for name in names.values()]
    return {spec: name if taken.count(name) == 1 else spec for spec, name in names.items()}


def _given_name(spec: str) -> str:
    try:
        return str(parse_spec(spec).options.get("name", ""))
    except SpecError:
        return ""


def add_board_options(parser: argparse.ArgumentParser) -> None:
    """--width, --height and --connect, in the ranges the engine plays."""
    board = parser.add_argument_group("board (as in the app's settings)")
    for (name, (low, high)), default, what in zip(
        SIZE_LIMITS.items(),
        STANDARD_BOARD,
        ("columns", "rows", "stones in a line to win"),
        strict=True,
    ):
        board.add_argument(
            f"--{name}",
            type=whole_number(low, high),
            default=default,
            metavar="N",
            help=f"{what}, {low}..{high} (default {default})",
        )


def add_position_argument(parser: argparse.ArgumentParser) -> None:
    """The POSITION argument of the commands that answer for one position or a batch."""
    parser.add_argument(
        "position",
        nargs="?",
        default="",
        help="moves played so far, e.g. 4453, or a connect4.gamesolver.org link "
        "(empty: the start); - reads stdin lines",
    )


def add_give_up_option(parser: argparse.ArgumentParser, default: float) -> None:
    """--time S: how long the solver may take over one position before it gives up."""
    parser.add_argument(
        "--time",
        type=seconds,
        default=default,
        metavar="S",
        help=f"give up on a position after S seconds (default {default:g})",
    )


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from `low` to `high`."""

    def parse(text: str) -> int:
        text = text.strip()
        if not (text.isascii() and text.isdigit() and len(text) <= len(str(high))):
            raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a number from {low} to {high}")
        if not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"{int(text)} is outside {low}..{high}")
        return int(text)

    return parse


def output_file(text: str) -> Path:
    """An argparse type: a file to write, refused at once (not after an hour's work) when
    the name holds a directory, a FIFO or a device, or its folder is a file."""
    path = Path(text)
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:  # a folder on the way that is a file
        raise argparse.ArgumentTypeError(f"{text[:60]}: {error.strerror or error}") from None
    except ValueError:
        raise argparse.ArgumentTypeError("not a file name (it holds a NUL character)") from None
    if mode is not None and (refusal := not_to_write(mode)) is not None:
        raise argparse.ArgumentTypeError(f"{text[:60]} is {refusal}")
    return path


def seconds(text: str) -> float:
    """An argparse type: a time limit in seconds, more than 0 (a day at most)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a number of seconds") from None
    if not 0 < value <= 86400:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(
            f"{text[:20]}: a time limit is more than 0 and at most 86400 seconds (a day)"
        )
    return value


def disc(position: Position) -> str:
    """The disc of the side to move, as the app shows it: ● moves first, ○ second."""
    return GLYPHS[position.to_move]


def board_of(args: argparse.Namespace) -> Board:
    """The board the board options ask for; CommandError when connect cannot fit on it."""
    board = (args.width, args.height, args.connect)
    try:
        validate_size(*board)
    except ValueError as error:
        raise CommandError(f"--connect: {error}") from None
    return board


class PositionBatch:
    """The positions of a POSITION argument, or of each stdin line when it is '-'.

    Iterating yields (moves, Position), the moves as written by `Position.to_moves` (a
    gamesolver.org link gives its moves); `line` is then the stdin line's number (None
    for the argument). An empty argument or an empty line is the empty board. A bad
    argument raises CommandError; a bad stdin line does not stop the batch: it gets one
    stderr line naming `stdin line N` (and with `json_errors` a `{"line": N, "error": ...}`
    object on stdout in its place, so answers stay aligned with input lines), and
    `status` becomes 2 for the end of the command.
    """

    def __init__(
        self,
        argument: str | None,
        *,
        command: str,
        json_errors: bool,
        allow_over: bool = False,
        board: Board = STANDARD_BOARD,
        lines: Iterable[str] | None = None,
    ) -> None:
        self.argument = argument
        self.board = board
        self.command = command
        self.json_errors = json_errors
        self.allow_over = allow_over
        self.lines = lines  # stdin's, unless given
        self.line: int | None = None
        self.bad_lines = 0

    @property
    def status(self) -> int:
        return 2 if self.bad_lines else 0

    def __iter__(self) -> Iterator[tuple[str, Position]]:
        if self.argument != "-":
            position = parse_position(
                self.argument or "", allow_over=self.allow_over, board=self.board
            )
            yield position.to_moves(), position
            return
        for number, line in enumerate(stdin_lines() if self.lines is None else self.lines, 1):
            self.line = number
            try:
                position = parse_position(
                    line, where="", allow_over=self.allow_over, board=self.board
                )
            except CommandError as error:
                self.refuse(str(error))
                continue
            yield position.to_moves(), position

    def refuse(self, message: str) -> None:
        """Report the current stdin line as bad, and go on."""
        self.bad_lines += 1
        print(f"c4tui {self.command}: stdin line {self.line}: {message}", file=sys.stderr)
        if self.json_errors:
            print(json.dumps({"line": self.line, "error": message}), flush=True)


def stdin_lines(limit: int = MAX_FILE_BYTES) -> Iterator[str]:
    """Stdin's lines, each read up to `limit` characters, as a file is read up to as many
    bytes (`< /dev/zero` never ends a line). A longer line is a CommandError naming it:
    what follows it cannot be told apart from the rest of that line."""
    number = 0
    while line := sys.stdin.readline(limit + 1):
        number += 1
        if len(line) > limit and not line.endswith("\n"):
            raise CommandError(f"stdin line {number}: longer than {limit:,} characters")
        yield line


def parse_position(
    text: str,
    *,
    where: str = "position",
    allow_over: bool = False,
    board: Board = STANDARD_BOARD,
) -> Position:
    """The position after `text` (moves or a gamesolver.org link) on `board`; a
    CommandError prefixed with `where` (when given) if bad."""
    prefix = f"{where}: " if where else ""
    try:
        text = moves_of(text)
        position = Position.from_moves(text, *board)
    except ValueError as error:
        raise CommandError(f"{prefix}{error}") from None
    if not allow_over and position.is_over():
        outcome = "a draw" if position.is_draw() else "won"
        raise CommandError(
            f"{prefix}{text!r} is a finished game ({outcome}); there is no move to make"
        )
    return position


def read_input_file(name: str, where: str) -> str:
    """The text of the file `name` the command was given; CommandError prefixed with
    `where` when it cannot be read."""
    try:
        return read_text(name)
    except UnreadableFile as error:
        raise CommandError(f"{where}: {error.reason}") from None


def parse_game_file(text: str, where: str) -> GameRecord:
    """The game in a game file's text; CommandError prefixed with `where`, naming the
    line at fault, when it is not one."""
    try:
        return GameRecord.from_text(text)
    except GameFileError as error:
        raise CommandError(f"{where}: {error}") from None


class OutputConsole(Console):
    """A rich console that lets a closed pipe end the command quietly (see `cli.main`).

    rich's own answer to a closed pipe is exit status 1; a reader such as `head` that
    stops early is no error, so the BrokenPipeError goes up to `main` instead.
    """

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError


def output_console() -> Console:
    """A rich console on stdout; piped output gets 120 columns, room for long specs,
    unless COLUMNS says otherwise (as on a terminal)."""
    console = OutputConsole(file=sys.stdout, highlight=False)
    if not console.is_terminal and not os.environ.get("COLUMNS", "").isdigit():
        console = OutputConsole(file=sys.stdout, highlight=False, width=120)
    return console


def plain_table(**options: Any) -> Table:
    """The one table style of the command line: a rule under the header, no boxes."""
    return Table(box=box.SIMPLE_HEAD, padding=(0, 1), **options)
