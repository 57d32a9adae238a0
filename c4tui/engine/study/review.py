"""Post-game review: every move of a game judged by the exact scores of the position before it.

A move's verdict compares the score of the column played with the best column's,
both from the mover's side (the solver's convention, see `scores.py`):
- `best`: the column has the best score;
- `ok`: a lower score of the same result class (a win still wins, a draw still draws,
  and a lost position was lost whatever was played);
- `mistake`: one class lost (win to draw, or draw to loss);
- `blunder`: two classes lost (win to loss).

Only a mistake or a blunder changes the result of the game under perfect play, so the
last of them is the move where the game turned.

Speed: one solver (one transposition table) serves every position of the game, and the
positions are solved from the last to the first: a late position is cheap, and the
bounds it leaves in the table are the leaves of the earlier positions' searches; and
the played column's score is the next position's, known already, so it is not
searched and the other columns start from it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import best_columns, best_score, result_class
from c4tui.engine.solver import SearchStopped, Solver, exact_scores, shared_solver

Verdict = Literal["best", "ok", "mistake", "blunder"]
VERDICTS: tuple[Verdict, ...] = ("best", "ok", "mistake", "blunder")
_CLASS_LOSS: tuple[Verdict, ...] = ("ok", "mistake", "blunder")
GIVE_UP_RUN = 2  # positions given up in a row after which the earlier ones are too


def verdict_of(scores: Sequence[int | None], column: int) -> Verdict:
    """The verdict on playing `column` where the columns score `scores` (mover's side)."""
    played = scores[column]
    if played is None:
        raise ValueError(f"column {column + 1} is full")
    best = best_score(scores)
    if played == best:
        return "best"
    # Result classes as signs: win 1, draw 0, loss -1; a drop of 0 is `ok`.
    return _CLASS_LOSS[result_class(best) - result_class(played)]


@dataclass(frozen=True)
class MoveReview:
    """One move of the game and what the solver says of it (columns 0-based)."""

    ply: int  # 1-based: the first move of the game is ply 1
    player: int  # 1 moves first, 2 second
    column: int
    scores: tuple[int | None, ...]  # every column of the position before the move
    best: tuple[int, ...]
    verdict: Verdict

    @property
    def score(self) -> int:
        """The score of the move played, from the mover's side."""
        return self.scores[self.column]  # type: ignore[return-value]  # the column played was playable: it has a score

    @property
    def best_score(self) -> int:
        return self.scores[self.best[0]]  # type: ignore[return-value]  # a best column is playable: it has a score

    @property
    def first_player_score(self) -> int:
        """The score after this move from the first player's side: one scale for a game.

        A score names the end of the game under perfect play (the winner's stone count),
        not the ply it is seen from, so scores of different plies compare directly.
        """
        return self.score if self.player == 1 else -self.score


def review_move(position: Position, column: int, scores: Sequence[int | None]) -> MoveReview:
    """The review of playing `column` in `position`, given the exact column scores."""
    return MoveReview(
        ply=position.moves + 1,
        player=position.to_move + 1,
        column=column,
        scores=tuple(scores),
        best=tuple(best_columns(scores)),
        verdict=verdict_of(scores, column),
    )


def positions_of(game: Position) -> list[tuple[Position, int]]:
    """(position before the move, column) for every move that led to `game`."""
    position = Position.start(game.width, game.height, game.connect)
    out = []
    for column in game.path:
        out.append((position, column))
        position = position.play(column)
    return out


# How long a review gives each position before it gives that move up, unless told: the
# default of `c4tui review --time` and the app's review (a 7x6 position takes well under
# a second; an early one of 9x7 connect 5 can take hours).
GIVE_UP_SECONDS = 10.0


def review_game(
    game: Position,
    *,
    solver: Solver | None = None,
    on_move: Callable[[MoveReview], None] | None = None,
    stop: threading.Event | None = None,
    seconds: float | None = None,
    on_gave_up: Callable[[int], None] | None = None,
    moves: list[tuple[Position, int]] | None = None,
) -> list[MoveReview]:
    """Every move of the game that led to `game`, reviewed, in the order played.

    `on_move(review)` is called as each move is done (last move first, see the module
    docstring). With `stop`, setting it ends the review early (SearchStopped from
    `c4tui.engine.solver` propagates); the solver's lock is held per position, not per game, so
    other searches can go in between. With `seconds`, a position not solved in that
    time is given up: its move is left out of the list and `on_gave_up(ply)` is called.
    Once GIVE_UP_RUN positions in a row are given up, so are all earlier ones, without
    a search: with fewer stones they are harder still, and a 40-ply game on 8x7 would
    otherwise take 40 times `seconds` to say nothing more. `moves`: the game's
    `positions_of`, when the caller has them already.
    """
    solver = solver or shared_solver(game.geometry)
    moves = moves if moves is not None else positions_of(game)
    reviews: list[MoveReview | None] = [None] * len(moves)
    given_up_in_a_row = 0
    # The score of the position after the move, once reviewed: the played column's.
    after: int | None = None
    for index in reversed(range(len(moves))):
        position, column = moves[index]
        # Positions answered from the book never poll the stop flag: check it per move.
        if stop is not None and stop.is_set():
            raise SearchStopped
        if given_up_in_a_row >= GIVE_UP_RUN:
            if on_gave_up is not None:
                on_gave_up(position.moves + 1)
            continue
        deadline = None if seconds is None else time.perf_counter() + seconds
        try:
            known = None if after is None else (column, -after)
            columns = solver.analyze(position, deadline=deadline, stop=stop, known=known)
        except SearchStopped:
            if deadline is None or (stop is not None and stop.is_set()):
                raise
            columns = None  # out of time for this position
        after = None
        if columns is None:
            given_up_in_a_row += 1
            if on_gave_up is not None:
                on_gave_up(position.moves + 1)
            continue
        given_up_in_a_row = 0
        scores = exact_scores(columns)
        after = best_score(scores)
        review = reviews[index] = review_move(position, column, scores)
        if on_move is not None:
            on_move(review)
    return [review for review in reviews if review is not None]


def turning_point(reviews: Sequence[MoveReview]) -> MoveReview | None:
    """The move after which the result under perfect play never changed again.

    That is the last mistake or blunder; None when no move changed the result (the
    game ended as the start position's perfect play says it must).
    """
    for review in reversed(reviews):
        if review.verdict in ("mistake", "blunder"):
            return review
    return None


def tally(reviews: Sequence[MoveReview], player: int) -> dict[Verdict, int]:
    """How many of one player's moves got each verdict."""
    counts: dict[Verdict, int] = dict.fromkeys(VERDICTS, 0)
    for review in reviews:
        if review.player == player:
            counts[review.verdict] += 1
    return counts
