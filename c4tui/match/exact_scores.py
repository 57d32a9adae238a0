"""Every column's exact result for the side to move, in words, for the scores overlay.

The solver answers most 7x6 positions in milliseconds (the opening book covers the
first 12 moves); elsewhere a solve can take long, so it runs under a time limit and
a stop event, and a position it cannot finish in time says so instead of guessing.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import describe_score
from c4tui.engine.study.exact_columns import column_scores

GIVE_UP_SECONDS = 10.0
SOLVING = "solving"
GAVE_UP = "gave up"


def column_words(
    position: Position,
    stop: threading.Event,
    seconds: float = GIVE_UP_SECONDS,
    numbers: bool = False,
) -> tuple[str, ...] | None:
    """("win 7", "draw", "loss 12", "" for a full column, ...) for every column of
    `position`, or with `numbers` the solver's scores ("13", "0", "-2"); every column
    GAVE_UP past `seconds`; None when `stop` was set."""
    scores = column_scores(position, seconds, stop)
    if scores is None:
        return None if stop.is_set() else (GAVE_UP,) * position.width
    if numbers:
        return tuple("" if score is None else str(score) for score in scores)
    return board_words(position, scores)


def board_words(position: Position, scores: Sequence[int | None]) -> tuple[str, ...]:
    """Exact scores as the board shows them under its columns: "win 7", "draw", "loss 12",
    "" for a full column (None)."""
    return tuple(
        "" if score is None else describe_score(position, score).replace(" in ", " ")
        for score in scores
    )
