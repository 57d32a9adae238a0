"""Every column's exact score within a time limit: the solver as the study tools use it.

The review, the scores overlay, the human-like engine and the puzzle finder all want the
same thing: the exact score of each column of a position (mover's side, None for a full
column), from the process's shared solver, given up past a deadline or on a stop event.
"""

from __future__ import annotations

import threading
import time

from c4tui.engine.board.position import Position
from c4tui.engine.solver import SearchStopped, exact_scores, shared_solver


def column_scores(
    position: Position, seconds: float | None = None, stop: threading.Event | None = None
) -> list[int | None] | None:
    """Exact scores of every column, or None when `seconds` ran out or `stop` was set."""
    deadline = None if seconds is None else time.perf_counter() + seconds
    try:
        columns = shared_solver(position.geometry).analyze(position, deadline=deadline, stop=stop)
    except SearchStopped:
        return None
    return exact_scores(columns)
