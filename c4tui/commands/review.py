"""`c4tui review`: the verdict and exact scores of every move of a game."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console

from c4tui.argparse_internals import Subcommands
from c4tui.commands.common import (
    add_board_options,
    add_give_up_option,
    board_of,
    output_console,
    plain_table,
)
from c4tui.commands.review_input import GameInput
from c4tui.engine.board.notation import move_name
from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import describe_score
from c4tui.engine.study.review import (
    GIVE_UP_SECONDS,
    VERDICTS,
    MoveReview,
    positions_of,
    review_game,
    tally,
    turning_point,
)
from c4tui.match.sides import GLYPHS

# On 7x6 the book answers in milliseconds; bigger boards' early positions can take
# hours, and a review should end and say which positions it could not solve.
DEFAULT_SECONDS = GIVE_UP_SECONDS


def register(commands: Subcommands) -> None:
    parser = commands.add_parser(
        "review",
        help="verdict and exact scores for every move of a game",
        description=(
            "Solve the position before every move of a game and judge the move played: "
            "best (the best score), ok (a worse score of the same result: a win, a draw, "
            "or a position lost anyway), mistake (win to draw, or draw to loss), blunder "
            "(win to loss). Scores are from the mover's side, as in 'analyze'. Columns are "
            "1-based; ● moves first, ○ second; moves are counted as players count them: "
            "move 17 ● is ●'s 17th stone, and 'win in 3' is three more stones of the "
            "winner's (--json keeps 'ply', the stone's place on the board). A position "
            "not solved within --time is given up, and said; after two in a row, so are "
            "the earlier ones (fewer stones: harder still)."
        ),
    )
    parser.add_argument(
        "game",
        nargs="?",
        default="",
        metavar="GAME",
        help="the moves of the game (e.g. 4453..., or a connect4.gamesolver.org link), or "
        "a file holding them or a game file; - reads stdin: one game a line, or a game file",
    )
    add_give_up_option(parser, DEFAULT_SECONDS)
    add_board_options(parser)
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON object per move (with -, each also names its stdin line as game)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    games = GameInput(args.game, board=board_of(args), json_errors=args.json)
    console = None if args.json else output_console()
    for line, game in games:
        progress = Progress(len(game.path))
        moves = positions_of(game)  # replayed once for the review and its answer
        reviews = review_game(
            game, on_move=progress.step, seconds=args.time, on_gave_up=progress.step, moves=moves
        )
        progress.done()
        if console is None:
            for answer in move_answers(moves, reviews):
                print(json.dumps(answer if line is None else {**answer, "game": line}))
                sys.stdout.flush()
        else:
            print_review(console, game, moves, reviews, args.time)
    return games.status


class Progress:
    """'reviewing: 12/42 moves' on stderr while the solver works, only on a terminal."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.finished = 0
        self.shown = sys.stderr.isatty()

    def step(self, _move: MoveReview | int) -> None:
        self.finished += 1
        if self.shown:
            print(f"\rreviewing: {self.finished}/{self.total} moves", end="", file=sys.stderr)

    def done(self) -> None:
        if self.shown:
            # Wipe the progress line so the table starts on a clean screen line.
            print("\r\033[K", end="", file=sys.stderr, flush=True)


def move_answers(
    moves: list[tuple[Position, int]], reviews: list[MoveReview]
) -> list[dict[str, Any]]:
    """The issue's JSON shape, one object a move: ply, player and columns 1-based, null
    for a full column; a position given up has null scores, best and verdict."""
    by_ply = {review.ply: review for review in reviews}
    answers = []
    for position, column in moves:
        ply = position.moves + 1
        review = by_ply.get(ply)
        answers.append(
            {
                "ply": ply,
                "player": position.to_move + 1,
                "column": column + 1,
                "scores": None if review is None else list(review.scores),
                "best": None if review is None else [col + 1 for col in review.best],
                "verdict": None if review is None else review.verdict,
            }
        )
    return answers


def print_review(
    console: Console,
    game: Position,
    moves: list[tuple[Position, int]],
    reviews: list[MoveReview],
    limit: float,
) -> None:
    """The table fits 80 columns on a 7-column board: the scores share one cell."""
    reach = f"moves 1 ● to {move_name(game.moves - 1, GLYPHS)}" if game.moves else "no move"
    console.print(f"review of {game.to_moves()!r}: {reach}, {ending(game)}")
    table = plain_table(pad_edge=False)
    for name in ("move", "col", "verdict", "its result", "best", f"scores 1-{game.width}"):
        table.add_column(name, justify="right" if name == "move" else "left")
    by_ply = {review.ply: review for review in reviews}
    for position, column in moves:
        review = by_ply.get(position.moves + 1)
        move = move_name(position.moves, GLYPHS)
        if review is None:
            table.add_row(move, str(column + 1), "gave up", "", "", "")
            continue
        best = ",".join(str(col + 1) for col in review.best)
        if review.verdict != "best":
            best += f" {describe_score(position, review.best_score)}"
        table.add_row(
            move,
            str(column + 1),
            "" if review.verdict == "best" else review.verdict,
            describe_score(position, review.score),
            best,
            " ".join("-" if s is None else str(s) for s in review.scores),
        )
    console.print(table)
    console.print(
        "scores: every column's in the position before the move, from the mover's side "
        "(- full); best: the best column(s), and their result when the move was not one"
    )
    for player in (1, 2):
        counts = tally(reviews, player)
        words = ", ".join(f"{counts[v]} {v}" for v in VERDICTS)
        console.print(f"{GLYPHS[player - 1]}: {words}")
    given_up = len(game.path) - len(reviews)
    if given_up:
        console.print(
            f"gave up on {given_up} of {len(game.path)} positions (not solved in {limit:g} s "
            "each, or before two such: harder still; try a longer --time)"
        )
    if reviews:
        console.print(turning_words(reviews, given_up))


def ending(game: Position) -> str:
    winner = game.winner()
    if winner is not None:
        return f"won by {GLYPHS[winner]}"
    return "drawn" if game.is_draw() else "not finished"


def turning_words(reviews: list[MoveReview], given_up: int = 0) -> str:
    """The summary's last line: the move after which the result never changed again."""
    turn = turning_point(reviews)
    among = " among the moves solved" if given_up else ""
    if turn is None:
        return f"the game never turned{among}: no move changed its result under perfect play"
    best = ", ".join(str(col + 1) for col in turn.best)
    return (
        f"the game turned at move {move_name(turn.ply - 1, GLYPHS)}{among}: "
        f"{GLYPHS[turn.player - 1]} played column {turn.column + 1}, a {turn.verdict} "
        f"(best: {best})"
    )
