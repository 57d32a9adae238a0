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
import time

from c4tui.engine.board.geometry import Geometry, centre_first
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

# A verdict on a clock gives each unsettled column this long for its next probe, then
# twice as long each round (`_in_turns`).
FIRST_SLICE = 0.001

Outcome = int  # 1 win, 0 draw, -1 loss, from the side to move's view
Bounds = tuple[Outcome, Outcome]  # (low, high): a column's outcome lies between them
UNKNOWN: Bounds = (-1, 1)

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


def column_bounds(
    position: Position,
    deadline: float | None,
    stop: threading.Event | None = None,
    *,
    wait: bool = False,
) -> list[Bounds | None] | None:
    """What is known of every column's outcome: (low, high), None for a full column;
    None when nothing is known.

    Stopped by the deadline or `stop`, it gives what was proven by then: some columns
    exact, the others (-1, 1), or (0, 1) once their first probe proved they do not lose
    (the weak search asks "does it lose?" of every column first; a loss is the cheap
    answer, so a cut-short verdict knows most of the losing columns).

    None too when the position is out of reach (past the book's with no `deadline`),
    when no book is installed, or when another thread is using the small solver
    (unless `wait`: a search with no clock waits its turn, so its verdict does not
    depend on another thread's timing).
    """
    if not in_reach(position, clock=deadline is not None):
        return None
    first = FIRST_PLIES.get(position.to_moves()) if position.moves <= 1 else None
    if first is not None:
        return [(outcome, outcome) for outcome in first]
    solver = _solver(position.geometry)
    if solver is None:
        return None
    columns: list[ColumnBounds | None] = [None] * position.geometry.width
    try:
        if deadline is None:
            solver.analyze(position, weak=True, stop=stop, wait=wait, columns=columns)
        else:
            _in_turns(solver, position, deadline, stop, wait, columns)
    except SolverBusy:
        return None
    except SearchStopped:
        pass  # what was proven in time still rules out the worse columns
    known = [None if b is None else (b.low, b.high) for b in columns]
    return known if any(b is not None and b != UNKNOWN for b in known) else None


def _in_turns(
    solver: Solver,
    position: Position,
    deadline: float,
    stop: threading.Event | None,
    wait: bool,
    columns: list[ColumnBounds | None],
) -> None:
    """Fill `columns` with the columns' weak bounds before `deadline`, the probes in
    turns of a growing slice of time each; SearchStopped when the time is up first.

    A probe asking whether a column loses is quick when it does (one refutation) and
    long when it does not (every reply). The analysis in one call probes the columns in
    turns too, but each probe to its end, so one long probe held up the quick answers
    of the others until the deadline, and a verdict cut short often knew nothing. Here
    each round gives every unsettled column a slice for its probes and then doubles it;
    a probe stopped at the end of its slice starts again next round from what the table
    kept of it. The columns proven not to lose go first: where one column wins, its
    proof was often quicker than the losses of the others (2-4 ms against 10-17 ms in
    positions MCTS missed), and a proven win settles the move (`Tree.best_child`).
    The easy positions (nine in ten) are settled by the first call alone.
    """
    with solver.working(deadline, stop, wait=wait):
        try:
            solver.analyze(
                position, weak=True, deadline=time.perf_counter() + FIRST_SLICE, columns=columns
            )
            return
        except SearchStopped:
            if _time_up(deadline, stop):
                raise
        # The columns the first call left unsettled, and their bounds (the child's view).
        pending: dict[int, tuple[Position, ColumnBounds]] = {}
        for col in centre_first(position.width):
            bounds = columns[col]
            if bounds is not None and not bounds.exact:
                pending[col] = (position.play(col), ColumnBounds(-bounds.high, -bounds.low))
        turn = FIRST_SLICE
        while pending:
            turn *= 2
            for col in sorted(pending, key=lambda c: pending[c][1].high > 0):  # not losing first
                child, bounds = pending[col]
                try:
                    with solver.working(time.perf_counter() + turn):
                        while not bounds.exact:
                            solver.probe(child, bounds, weak=True)
                            columns[col] = ColumnBounds(-bounds.high, -bounds.low)
                except SearchStopped:
                    if _time_up(deadline, stop):
                        raise
                    continue
                del pending[col]


def _time_up(deadline: float, stop: threading.Event | None) -> bool:
    return time.perf_counter() >= deadline or (stop is not None and stop.is_set())


def column_outcomes(
    position: Position,
    deadline: float | None,
    stop: threading.Event | None = None,
    *,
    wait: bool = False,
) -> list[Outcome | None] | None:
    """Every column's outcome (None for a full column or one not proven in time), or
    None when none is known: `column_bounds`'s exact columns."""
    bounds = column_bounds(position, deadline, stop, wait=wait)
    if bounds is None:
        return None
    known = [None if b is None or b[0] != b[1] else b[0] for b in bounds]
    return known if any(o is not None for o in known) else None
