"""Every column's exact score for the side to move, for the scores overlay.

The solver answers most 7x6 positions in milliseconds (the opening book covers the
first 12 moves); elsewhere a solve can take long, so it runs under a time limit and
a stop event, and a position it cannot finish in time says so instead of guessing.
Scores stay numbers here; whoever shows them puts them in words (`board_words`).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import describe_score
from c4tui.engine.study.exact_columns import column_scores

GIVE_UP_SECONDS = 10.0


class Solve(Enum):
    """How far the solve of a position has come."""

    SOLVING = "solving"
    SOLVED = "solved"
    GAVE_UP = "gave up"


@dataclass(frozen=True)
class ColumnScores:
    """Each column's exact score (None: a full column) once SOLVED; else no scores."""

    solve: Solve
    scores: tuple[int | None, ...] = ()


SOLVING = ColumnScores(Solve.SOLVING)
GAVE_UP = ColumnScores(Solve.GAVE_UP)


def solve_columns(
    position: Position, stop: threading.Event, seconds: float = GIVE_UP_SECONDS
) -> ColumnScores | None:
    """Every column's score of `position`; GAVE_UP past `seconds`; None when `stop` was set."""
    scores = column_scores(position, seconds, stop)
    if scores is None:
        return None if stop.is_set() else GAVE_UP
    return ColumnScores(Solve.SOLVED, tuple(scores))


def board_words(position: Position, scores: Sequence[int | None]) -> tuple[str, ...]:
    """Exact scores as the board shows them under its columns: "win 7", "draw", "loss 12",
    "" for a full column (None)."""
    return tuple(
        "" if score is None else describe_score(position, score).replace(" in ", " ")
        for score in scores
    )
