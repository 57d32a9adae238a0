"""The games `c4tui review` is given: moves, a link, a file, or stdin's lines."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from itertools import chain

from c4tui.commands.common import (
    Board,
    CommandError,
    PositionBatch,
    parse_game_file,
    parse_position,
    read_input_file,
    stdin_lines,
)
from c4tui.engine.board.gamefile import MAGIC
from c4tui.engine.board.notation import symbol_column
from c4tui.engine.board.position import Position
from c4tui.files import MAX_FILE_BYTES

BYTE_ORDER_MARK = "\ufeff"


class GameInput:
    """The games of a GAME argument. Iterating yields (stdin line or None, Position).

    The argument is a move string or a gamesolver.org link, a file holding one or a
    game file; '-' reads stdin: a game file, or one game a line (as `analyze -`: a bad
    line is reported and the others are reviewed; `status` is then 2).
    """

    def __init__(self, argument: str, *, board: Board, json_errors: bool) -> None:
        self.argument = argument
        self.board = board
        self.json_errors = json_errors
        self.batch: PositionBatch | None = None

    @property
    def status(self) -> int:
        return 0 if self.batch is None else self.batch.status

    def __iter__(self) -> Iterator[tuple[int | None, Position]]:
        if self.argument != "-":
            yield None, game_of_argument(self.argument, self.board)
            return
        lines = stdin_lines()
        first = next(lines, "")
        if first.lstrip(BYTE_ORDER_MARK + " \t\r\n").startswith(MAGIC):
            text = first + sys.stdin.read(MAX_FILE_BYTES + 1 - len(first))
            if len(text) > MAX_FILE_BYTES:
                raise CommandError(f"stdin: a game file over {MAX_FILE_BYTES:,} characters")
            text = text.lstrip(BYTE_ORDER_MARK)
            yield None, with_moves(game_file(text, "stdin"), "stdin")
            return
        self.batch = PositionBatch(
            "-",
            command="review",
            json_errors=self.json_errors,
            allow_over=True,
            board=self.board,
            lines=chain([first], lines),
        )
        for _moves, game in self.batch:
            if not game.moves:
                self.batch.refuse("no moves to review")
                continue
            yield self.batch.line, game


def game_of_argument(argument: str, board: Board) -> Position:
    """The game a GAME argument names (a move string, a link, or a file)."""
    text = argument.strip()
    if (
        text
        and not all(symbol_column(char) is not None for char in text)
        and (os.sep in text or "." in text or os.path.exists(text))
        and "gamesolver.org" not in text.lower()
    ):
        return game_of_file(text, board)
    return with_moves(parse_position(text, where="game", allow_over=True, board=board), "game")


def game_of_file(name: str, board: Board) -> Position:
    """The game in a file: a game file (its own board), or a move string (on `board`)."""
    text = read_input_file(name, name)
    if text.lstrip().startswith(MAGIC):
        return with_moves(game_file(text, name), name)
    return with_moves(parse_position(text, where=name, allow_over=True, board=board), name)


def game_file(text: str, where: str) -> Position:
    return parse_game_file(text, where).position


def with_moves(game: Position, where: str) -> Position:
    """`game`, refused when it has no move to review."""
    if not game.moves:
        raise CommandError(f"{where}: no moves to review")
    return game
