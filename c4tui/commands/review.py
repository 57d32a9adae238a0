"""`c4tui review`: the verdict and exact scores of every move of a game."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rich.console import Console

from c4tui.commands.common import CommandError, output_console, parse_position, plain_table
from c4tui.engine.gamefile import MAGIC, GameFileError, GameRecord
from c4tui.engine.position import Position
from c4tui.engine.review import VERDICTS, MoveReview, review_game, tally, turning_point
from c4tui.engine.scores import describe_score
from c4tui.files import UnreadableFile, read_text


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "review",
        help="verdict and exact scores for every move of a game",
        description=(
            "Solve the position before every move of a game and judge the move played: "
            "best (the best score), ok (a worse score of the same result: a win, a draw, "
            "or a position lost anyway), mistake (win to draw, or draw to loss), blunder "
            "(win to loss). Scores are from the mover's side, as in 'analyze'. Columns and "
            "plies are 1-based."
        ),
    )
    parser.add_argument(
        "game",
        nargs="?",
        default="",
        metavar="GAME",
        help="the moves of the game, e.g. 4453..., or a file holding them; - reads stdin",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per move")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = read_game(args.game)
    progress = Progress(len(game.path))
    reviews = review_game(game, on_move=progress.step)
    progress.done()
    if args.json:
        for review in reviews:
            print(json.dumps(review_json(review)), flush=True)
    else:
        print_review(output_console(), game, reviews)
    return 0


def read_game(argument: str) -> Position:
    """The game of a GAME argument: a move string, a game file or a file holding a move
    string, or '-' for stdin."""
    if argument == "-":
        text, where = sys.stdin.read(), "stdin"
    elif argument.strip().isdigit() or not argument.strip():
        text, where = argument, "game"
    else:
        path = Path(argument)
        if not path.is_file():
            text, where = argument, "game (not a file either)"
        else:
            try:
                text = read_text(path)
            except UnreadableFile as error:
                raise CommandError(f"{argument}: cannot read it ({error.reason})") from None
            where = argument
    if text.lstrip().startswith(MAGIC):
        try:
            game = GameRecord.from_text(text).position
        except GameFileError as error:
            raise CommandError(f"{where}: {error}") from None
    else:
        game = parse_position(text.strip(), where=where, allow_over=True)
    if not game.moves:
        raise CommandError(f"{where}: no moves to review")
    return game


class Progress:
    """'reviewing: 12/42 moves' on stderr while the solver works, only on a terminal."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.finished = 0
        self.shown = sys.stderr.isatty()

    def step(self, _review: MoveReview) -> None:
        self.finished += 1
        if self.shown:
            print(f"\rreviewing: {self.finished}/{self.total} moves", end="", file=sys.stderr)

    def done(self) -> None:
        if self.shown:
            # Wipe the progress line so the table starts on a clean screen line.
            print("\r\033[K", end="", file=sys.stderr, flush=True)


def review_json(review: MoveReview) -> dict:
    """The issue's JSON shape: ply, player and columns 1-based, null for a full column."""
    return {
        "ply": review.ply,
        "player": review.player,
        "column": review.column + 1,
        "scores": list(review.scores),
        "best": [col + 1 for col in review.best],
        "verdict": review.verdict,
    }


def print_review(console: Console, game: Position, reviews: list[MoveReview]) -> None:
    console.print(f"review of {game.to_moves()!r}: {len(reviews)} moves, {ending(game)}")
    table = plain_table()
    for name in ("ply", "player", "column", "verdict", "its result", "best", "best's result"):
        table.add_column(
            name, justify="right" if name in ("ply", "column") else "left", no_wrap=True
        )
    for col in range(game.width):
        table.add_column(str(col + 1), justify="right")
    position = Position.start(game.width, game.height, game.connect)
    for review in reviews:
        table.add_row(
            str(review.ply),
            str(review.player),
            str(review.column + 1),
            "" if review.verdict == "best" else review.verdict,
            describe_score(position, review.score),
            ",".join(str(col + 1) for col in review.best),
            describe_score(position, review.best_score),
            *("-" if s is None else str(s) for s in review.scores),
        )
        position = position.play(review.column)
    console.print(table)
    console.print(
        f"columns 1-{game.width}: the score of every column in the position before the move, "
        "from the mover's side (- full)"
    )
    for player in (1, 2):
        counts = tally(reviews, player)
        words = ", ".join(f"{counts[v]} {v}" for v in VERDICTS)
        console.print(f"player {player}: {words}")
    console.print(turning_words(reviews))


def ending(game: Position) -> str:
    if game.winner() is not None:
        return f"won by player {game.winner() + 1}"
    return "drawn" if game.is_draw() else "not finished"


def turning_words(reviews: list[MoveReview]) -> str:
    """The summary's last line: the move after which the result never changed again."""
    turn = turning_point(reviews)
    if turn is None:
        return "the game never turned: no move changed its result under perfect play"
    best = ", ".join(str(col + 1) for col in turn.best)
    return (
        f"the game turned at ply {turn.ply}: player {turn.player} played column "
        f"{turn.column + 1}, a {turn.verdict} (best: {best})"
    )
