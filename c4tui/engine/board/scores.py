"""The solver's score convention and its words ("win in 3", "draw", "loss in 8").

A score is from the side to move, assuming both sides play perfectly, winning as fast
and losing as slowly as possible. With S = (width * height + 1) // 2, the most stones
one player can drop:
- win:  S + 1 - (stones the winner has played at the end, the winning stone included);
- loss: the negative of the same; draw: 0.
On 7x6 this is 22 - stones, and an immediate win scores (43 - moves) // 2.

"win in N" counts the mover's own moves, the winning one included; "loss in N" counts
the mover's moves until the opponent's winning stone falls (it falls after the N-th).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from c4tui.engine.board.position import Position

# A result proven under perfect play, from the side to move.
Proven = Literal["win", "draw", "loss"]


def win_now_score(position: Position) -> int:
    """The score of winning with the next stone."""
    return win_score(position.geometry.cells, position.moves)


def win_score(cells: int, moves: int) -> int:
    """The score of winning with the next stone when `moves` of a board's `cells` are
    played (for searches that keep a position as numbers, not a Position)."""
    return (cells + 1 - moves) // 2


def stones_to_come(position: Position) -> int:
    """The stones the side to move still drops if the game goes on until the board is
    full (how far a draw is under perfect play). The win-now score is the same count:
    the stones the winner did not need, plus the winning one."""
    return win_now_score(position)


def moves_to_end(position: Position, score: int) -> int:
    """The N of "win in N" / "loss in N" for a non-zero score of `position`."""
    g = position.geometry
    stones_at_end = g.max_score + 1 - abs(score)
    if score > 0:
        return stones_at_end - position.moves // 2
    # The opponent has (moves + 1) // 2 stones now; we drop one stone per opponent stone.
    return stones_at_end - (position.moves + 1) // 2


def result_class(score: int) -> int:
    """The result class of a score as a sign: win 1, draw 0, loss -1."""
    return (score > 0) - (score < 0)


def best_score(scores: Sequence[int | None]) -> int:
    """The best of a position's column scores (full columns are None)."""
    return max(s for s in scores if s is not None)


def best_columns(scores: Sequence[int | None]) -> list[int]:
    """The columns with the best score (full columns are None)."""
    best = best_score(scores)
    return [col for col, s in enumerate(scores) if s == best]


def keeping_columns(scores: Sequence[int | None]) -> list[int]:
    """The columns that keep the best result class (full columns are None)."""
    best = result_class(best_score(scores))
    return [col for col, s in enumerate(scores) if s is not None and result_class(s) == best]


def proven_of(score: int) -> Proven:
    return "win" if score > 0 else "loss" if score < 0 else "draw"


def describe_score(position: Position, score: int) -> str:
    """Words for an exact score of `position`: "win in 3", "draw", "loss in 8".

    A column's score (the negated score of the position after it) is described
    against the position before the move, the same way.
    """
    if score == 0:
        return "draw"
    n = moves_to_end(position, score)
    return f"{proven_of(score)} in {n}"
