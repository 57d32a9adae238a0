"""What every subcommand shares: one-line errors and reading positions from arguments."""

from __future__ import annotations

import sys
from collections.abc import Iterator

from rich.console import Console

from c4tui.engine.position import Position


class CommandError(Exception):
    """Bad input: the CLI prints `c4tui: <message>` on one line and exits with status 2."""


def read_positions(
    argument: str | None, *, allow_over: bool = False
) -> Iterator[tuple[str, Position]]:
    """(text, Position) for a POSITION argument, or for each stdin line when it is '-'.

    An empty argument or an empty line is the empty board. Errors name the input line
    when reading stdin, so a bad line in a long file can be found.
    """
    if argument == "-":
        for number, line in enumerate(sys.stdin, start=1):
            text = line.strip()
            yield text, parse_position(text, where=f"stdin line {number}", allow_over=allow_over)
    else:
        text = (argument or "").strip()
        yield text, parse_position(text, where="position", allow_over=allow_over)


def parse_position(text: str, *, where: str = "position", allow_over: bool = False) -> Position:
    try:
        position = Position.from_moves(text)
    except ValueError as error:
        raise CommandError(f"{where}: {error}") from None
    if not allow_over and position.is_over():
        outcome = "a draw" if position.is_draw() else "won"
        raise CommandError(
            f"{where}: {text!r} is a finished game ({outcome}); there is no move to make"
        )
    return position


def output_console() -> Console:
    """A rich console on stdout; piped output gets 120 columns, room for long specs."""
    console = Console(file=sys.stdout, highlight=False)
    if not console.is_terminal:
        console = Console(file=sys.stdout, highlight=False, width=120)
    return console
