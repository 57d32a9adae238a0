"""Accuracy against perfect play: how many of a player's moves keep the position's exact result.

Connect Four is solved, so every move can be judged exactly, not estimated: the review
(review.py) compares the column played with the best one by the solver's scores. A
move *keeps the result* when its verdict is `best` or `ok` (a win still wins, a draw
still draws; in a lost position every move keeps the loss). A `mistake` loses one
result class (win to draw, draw to loss), a `blunder` two (win to loss).

The cost of the mistakes is told two ways: in result classes (1 a mistake, 2 a
blunder), the measure a player feels; and in the solver's score units, how far the
column played fell below the best one (on 7x6 a score is 22 minus the winner's stones,
so a draw thrown into a loss in 10 stones costs 12).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields

from c4tui.engine.board.position import Position
from c4tui.engine.study.review import MoveReview, positions_of, review_game


@dataclass
class Accuracy:
    """A tally of judged moves; tallies of many games or positions add up with `merge`."""

    moves: int = 0  # moves judged
    best: int = 0
    kept: int = 0  # best or ok: the result class kept
    mistakes: int = 0  # one class lost
    blunders: int = 0  # two classes lost
    score_loss: int = 0  # summed over the mistakes and blunders: best score - played score

    def add(self, review: MoveReview) -> None:
        self.moves += 1
        self.best += review.verdict == "best"
        self.kept += review.verdict in ("best", "ok")
        self.mistakes += review.verdict == "mistake"
        self.blunders += review.verdict == "blunder"
        if review.verdict in ("mistake", "blunder"):
            self.score_loss += review.best_score - review.score

    def merge(self, other: Accuracy) -> None:
        for field in fields(self):
            setattr(self, field.name, getattr(self, field.name) + getattr(other, field.name))

    @property
    def errors(self) -> int:
        """Moves that lost a result class."""
        return self.mistakes + self.blunders

    @property
    def kept_share(self) -> float | None:
        return self.kept / self.moves if self.moves else None

    @property
    def best_share(self) -> float | None:
        return self.best / self.moves if self.moves else None

    @property
    def classes_per_error(self) -> float | None:
        """The mean result classes a mistake or blunder lost (1 to 2)."""
        return (self.mistakes + 2 * self.blunders) / self.errors if self.errors else None

    @property
    def score_per_error(self) -> float | None:
        """The mean drop in the solver's score of a mistake or blunder."""
        return self.score_loss / self.errors if self.errors else None

    def to_json(self) -> dict[str, int | float | None]:
        def rounded(value: float | None) -> float | None:
            return None if value is None else round(value, 4)

        return {
            "moves": self.moves,
            "best": self.best,
            "kept": self.kept,
            "mistakes": self.mistakes,
            "blunders": self.blunders,
            "kept_share": rounded(self.kept_share),
            "best_share": rounded(self.best_share),
            "classes_per_error": rounded(self.classes_per_error),
            "score_per_error": rounded(self.score_per_error),
        }


def tally_of(reviews: Iterable[MoveReview]) -> Accuracy:
    accuracy = Accuracy()
    for review in reviews:
        accuracy.add(review)
    return accuracy


def judge_side(
    game: Position,
    side: int,
    from_ply: int = 0,
    seconds: float | None = None,
    stop: threading.Event | None = None,
) -> list[MoveReview]:
    """The reviews of one side's moves (0 moved first) in the game that led to `game`,
    from ply `from_ply` on (0-based: an opening's moves are nobody's choice). With
    `seconds`, a position the solver cannot settle in that time is left out; setting
    `stop` raises SearchStopped."""
    # Every move from the ply on, not only the side's: the review takes each played
    # column's score from the position after it, the next in its list.
    moves = positions_of(game)[from_ply:]
    reviews = review_game(game, moves=moves, seconds=seconds, stop=stop)
    return [review for review in reviews if review.player == side + 1]


def losing_move(reviews: Sequence[MoveReview]) -> MoveReview | None:
    """In a game the reviewed side lost, the last of its moves that lost a result class:
    after it the game was lost (the opponent never gave it back). None when it made no
    such move (the game was lost from the start of its moves)."""
    for review in reversed(reviews):
        if review.verdict in ("mistake", "blunder"):
            return review
    return None
