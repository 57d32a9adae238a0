"""Learn from your mistakes: the positions before a player's mistakes, to play again.

From a reviewed game, each mistake or blunder of the learning side(s), in the order
played, becomes a lesson: the position before the move, the column played and every
column's exact score. A column passes when it keeps the best result class (the same
test as the review's verdicts and the puzzles'); a wrong one is answered by its
refutation (explain.py). Which lessons were passed is the caller's to keep.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import keeping_columns
from c4tui.engine.study.review import MoveReview


@dataclass(frozen=True)
class Lesson:
    """One mistake to play again: the position before it (its `ply`, 0-based, is the
    move's) and what the review knew of it."""

    position: Position
    played: int  # the column the game's move took (0-based)
    scores: tuple[int | None, ...]
    verdict: str

    @property
    def ply(self) -> int:
        return self.position.moves

    @property
    def answers(self) -> list[int]:
        """The columns that pass: those keeping the best result class."""
        return keeping_columns(self.scores)

    def passes(self, column: int) -> bool:
        return column in self.answers


def lessons(
    moves: Sequence[tuple[Position, int]], reviews: Sequence[MoveReview], players: set[int]
) -> list[Lesson]:
    """The lessons of `players` (0 ●, 1 ○) in a game whose `moves` (`positions_of`, the
    position before each move and its column) were reviewed, in order."""
    return [
        Lesson(moves[r.ply - 1][0], r.column, r.scores, r.verdict)
        for r in reviews
        if r.verdict in ("mistake", "blunder") and r.player - 1 in players
    ]
