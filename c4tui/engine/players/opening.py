"""The opening book's verdict on every column: which moves keep the best result.

Random games cannot tell the early moves of Connect Four apart: in the first dozen
plies the difference between a won and a drawn column lies thirty moves ahead. On
the standard 7x6 board the BitBully book (`book.py`) knows; a short weak search
(win, draw or loss only) down to its 8- and 12-ply entries settles every column of a
position of up to REACH stones, usually in a millisecond or two.

Past the book the same weak search, with no book to stop it, is still quick on 7x6 (a
few milliseconds for most positions of 12-20 stones, one thread in C), and the middle
game is where random games still miss a lone winning column by the dozen plies it
lies ahead (benchmarks/mcts_strength.py --misses: the positions MCTS at 0.15 s missed
were of 15-18 stones, each with one winning column). A search on a clock asks for the
verdict there too, within its deadline.

Searching engines use this to rule out the columns proven worse before they spend
their budget (`mcts:book=1`, the default). The search has a small table of its own,
so it neither waits for nor disturbs the perfect player's big one. A search on a clock
gives it a deadline (a verdict that comes too late is simply not used); a search bounded
by iterations gives it none, so its verdict, and so its tree, is the same on any machine
however busy.
"""

from __future__ import annotations

import threading

from c4tui.engine.board.geometry import Geometry
from c4tui.engine.board.position import Position
from c4tui.engine.solver import ColumnBounds, SearchStopped, Solver, SolverBusy
from c4tui.engine.solver.book import EXACT_PLY

# Roots whose children are at most EXACT_PLY stones: the 12-ply book's exact entries
# are then at most one stone below each child.
REACH = EXACT_PLY - 1
# Entries of the small table (2 MB, the C search's own size: table.NATIVE_TABLE_SIZE).
# Down to the book a search stays within a few thousand positions; past it a weak one
# takes up to millions, and on five of 12-15 stones it took 0.83 s of CPU time in all
# where a 512 kB table took 1.18 s.
TABLE_SIZE = 262_139

Outcome = int  # 1 win, 0 draw, -1 loss, from the side to move's view

# The first two plies, written out: their searches down to the book are the longest
# (50-70 ms on a cold table, where later positions take one or two), and the empty
# board starts every game. tests/engine/test_opening.py checks them against the solver.
FIRST_PLIES: dict[str, tuple[Outcome, ...]] = {
    "": (-1, -1, 0, 1, 0, -1, -1),
    "1": (-1, 1, 1, 1, -1, 1, -1),
    "2": (-1, 0, 1, 0, -1, -1, -1),
    "3": (-1, -1, 0, 0, 0, 0, -1),
    "4": (-1, -1, -1, -1, -1, -1, -1),
    "5": (-1, 0, 0, 0, 0, -1, -1),
    "6": (-1, -1, -1, 0, 1, 0, -1),
    "7": (-1, 1, -1, 1, 1, 1, -1),
}

_solvers: dict[tuple[int, int, int], Solver | None] = {}
_lock = threading.Lock()


def _solver(g: Geometry) -> Solver | None:
    """The process's small book solver for this board size; None when no book applies."""
    size = (g.width, g.height, g.connect)
    with _lock:
        if size not in _solvers:
            # C where it is built (the same answers, some fifty times sooner: in Python a
            # 2-ply root took longer than a 0.15 s move's share), on one thread.
            solver = Solver(g, table_size=TABLE_SIZE, threads=1)
            _solvers[size] = solver if solver.book is not None else None
        return _solvers[size]


def in_reach(position: Position, *, clock: bool = False) -> bool:
    """True when a verdict on this position's columns may be asked: 7x6, not over, and
    up to REACH stones (the book's reach) or, for a search on a `clock`, any number."""
    g = position.geometry
    standard = (g.width, g.height, g.connect) == (7, 6, 4)
    return standard and (clock or position.moves <= REACH) and not position.is_over()


def column_outcomes(
    position: Position,
    deadline: float | None,
    stop: threading.Event | None = None,
    *,
    wait: bool = False,
) -> list[Outcome | None] | None:
    """Every column's outcome (None for a full column), or None when none is known.

    Stopped by the deadline or `stop`, it gives the columns proven by then (None for the
    others): any column proven worse than one proven better is worse than the best.

    None too when the position is out of reach (past the book's with no `deadline`),
    when no book is installed, or when another thread is using the small solver
    (unless `wait`: a search with no clock waits its turn, so its verdict does not
    depend on another thread's timing).
    """
    if not in_reach(position, clock=deadline is not None):
        return None
    first = FIRST_PLIES.get(position.to_moves()) if position.moves <= 1 else None
    if first is not None:
        return list(first)
    solver = _solver(position.geometry)
    if solver is None:
        return None
    columns: list[ColumnBounds | None] = [None] * position.geometry.width
    try:
        solver.analyze(
            position, weak=True, deadline=deadline, stop=stop, wait=wait, columns=columns
        )
    except SolverBusy:
        return None
    except SearchStopped:
        pass  # the columns proven in time still rule out the worse ones
    known = [None if b is None or not b.exact else b.low for b in columns]
    return known if any(o is not None for o in known) else None
