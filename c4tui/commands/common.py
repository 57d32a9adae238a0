"""What every subcommand shares: one-line errors and reading positions from arguments."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator

from rich import box
from rich.console import Console
from rich.table import Table

from c4tui.engine.notation import moves_of
from c4tui.engine.position import Position


class CommandError(Exception):
    """Bad input: the CLI prints `c4tui: <message>` on one line and exits with status 2."""


class PositionBatch:
    """The positions of a POSITION argument, or of each stdin line when it is '-'.

    Iterating yields (moves, Position), the moves as written by `Position.to_moves` (a
    gamesolver.org link gives its moves). An empty argument or an empty line is the empty
    board. A bad argument raises CommandError; a bad stdin line does not stop the batch:
    it gets one stderr line naming `stdin line N` (and with `json_errors` a
    `{"line": N, "error": ...}` object on stdout in its place, so answers stay aligned
    with input lines), and `status` becomes 2 for the end of the command.
    """

    def __init__(
        self, argument: str | None, *, command: str, json_errors: bool, allow_over: bool = False
    ) -> None:
        self.argument = argument
        self.command = command
        self.json_errors = json_errors
        self.allow_over = allow_over
        self.bad_lines = 0

    @property
    def status(self) -> int:
        return 2 if self.bad_lines else 0

    def __iter__(self) -> Iterator[tuple[str, Position]]:
        if self.argument != "-":
            position = parse_position(self.argument or "", allow_over=self.allow_over)
            yield position.to_moves(), position
            return
        for number, line in enumerate(sys.stdin, start=1):
            text = line.strip()
            try:
                position = parse_position(text, where="", allow_over=self.allow_over)
            except CommandError as error:
                self.bad_lines += 1
                print(f"c4tui {self.command}: stdin line {number}: {error}", file=sys.stderr)
                if self.json_errors:
                    print(json.dumps({"line": number, "error": str(error)}), flush=True)
                continue
            yield position.to_moves(), position


def parse_position(text: str, *, where: str = "position", allow_over: bool = False) -> Position:
    """The position after `text` (moves or a gamesolver.org link); a CommandError prefixed
    with `where` (when given) if bad."""
    prefix = f"{where}: " if where else ""
    try:
        text = moves_of(text)
        position = Position.from_moves(text)
    except ValueError as error:
        raise CommandError(f"{prefix}{error}") from None
    if not allow_over and position.is_over():
        outcome = "a draw" if position.is_draw() else "won"
        raise CommandError(
            f"{prefix}{text!r} is a finished game ({outcome}); there is no move to make"
        )
    return position


class OutputConsole(Console):
    """A rich console that lets a closed pipe end the command quietly (see `cli.main`).

    rich's own answer to a closed pipe is exit status 1; a reader such as `head` that
    stops early is no error, so the BrokenPipeError goes up to `main` instead.
    """

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError


def output_console() -> Console:
    """A rich console on stdout; piped output gets 120 columns, room for long specs."""
    console = OutputConsole(file=sys.stdout, highlight=False)
    if not console.is_terminal:
        console = OutputConsole(file=sys.stdout, highlight=False, width=120)
    return console


def plain_table(**options: object) -> Table:
    """The one table style of the command line: a rule under the header, no boxes."""
    return Table(box=box.SIMPLE_HEAD, padding=(0, 1), **options)
