"""The principal variation of a solved position: perfect play for both sides, move by move.

After the best column's exact score is known, each later position's score is known too
(it alternates sign), so finding the next move of the line is a yes/no question per
column, "does this child keep the score?", settled by one null-window probe that the
table left by the solve usually answers at once (not always: on a hard position the
early moves of the line can cost more than the solve). Columns are asked centre first,
so the line follows the same tie-break as the perfect player's own choice.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from c4tui.engine.board.geometry import centre_first
from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import win_now_score
from c4tui.engine.solver.search import SearchStopped

if TYPE_CHECKING:
    from c4tui.engine.solver.exact import Solver

# Moves in a line at most: enough to read a plan, and a bound on the work after the solve.
LINE_PLIES = 12


def keeps_score(solver: Solver, position: Position, col: int, score: int) -> bool:
    """Whether `col` scores exactly `score` (mover's view) when `position` scores it."""
    if position.is_winning_move(col):
        return score == win_now_score(position)
    child = position.play(col)
    if child.is_over():  # the last cell, not a win: a draw
        return score == 0
    bounds = solver.bounds(child)
    # No column scores more than the position: every child scores at least -score.
    bounds.low = max(bounds.low, -score)
    if bounds.high > bounds.low:
        solver.probe(child, bounds, guess=bounds.low)  # "does the child score above it?"
    return bounds.high <= -score


def best_line(
    solver: Solver,
    position: Position,
    first: int,
    score: int,
    plies: int = LINE_PLIES,
    nodes: int | None = None,
    deadline: float | None = None,
    stop: threading.Event | None = None,
) -> tuple[int, ...]:
    """`first` (which scores `score` for the side to move), then perfect replies, up to
    `plies` moves or the end of the game. Shorter past `deadline` (perf_counter) or once
    `stop` is set (or the limits of the block holding the solver, see
    `Solver.working`), or when `nodes` were searched before the next move (a bound that,
    unlike the clock, gives the same line on a busy machine)."""
    line = [first]
    try:
        with solver.working(deadline, stop):
            start = solver.nodes
            while len(line) < plies and (nodes is None or solver.nodes - start < nodes):
                position, score = position.play(line[-1]), -score
                if position.is_over():
                    break
                keeping = (
                    col
                    for col in centre_first(position.width)
                    if position.can_play(col) and keeps_score(solver, position, col, score)
                )
                col = next(keeping, None)
                if col is None:  # not with exact scores; a line cut short is still true
                    break
                line.append(col)
    except SearchStopped:
        pass
    return tuple(line)
