"""Exact solver: the score of any position under perfect play, for every board size.

The algorithm is Pascal Pons's (blog.gamesolver.org), generalised to any width,
height and connect-N:
- negamax with alpha-beta, called with null windows by a binary search on the score
  (the first probes sit near 0, so wins, draws and losses are settled first);
- only *non-losing* moves are generated: a forced block is played at once, two
  opponent threats lose at once, and no stone goes right below an opponent's spot;
- moves are tried in the order of how many winning spots they create, centre first
  on ties;
- a fixed-size transposition table (bounded memory) holds lower or upper bounds,
  keyed by the smaller of the position's key and its mirror image's key, of the nodes
  with 6 or more empty cells; those with more read their children's entries first
  (enhanced transposition cutoffs);
- on 7x6 connect 4, the BitBully opening books (`book.py`) answer 12-ply positions
  exactly and 8-ply positions as win/draw/loss, inside the search too: an 11-ply node
  takes the best of its children's book scores without a call per child; a 13-ply
  root gets a floor from the 12-ply positions one stone earlier; and when analysing a
  12-ply position, its own book score settles the last column that can reach it.

Scores follow `scores.py`: from the side to move, a win is S + 1 - the winner's
stones with S = (width * height + 1) // 2 (22 - stones on 7x6), a loss its negative.

The package: `exact.py` the Solver (probes, bounds, the book around the root),
`columns.py` every column of a position, `search.py` the pure-Python search (the
readable reference), `table.py` the transposition table. When the C kernels were built
at install (`c4tui.engine.kernels`), the same search runs in C (search.c), books
included, for every probe, and `analyze` is one C call (columns.c: columns.py's steps, with
a second thread sharing the table once a position proves long); on 7x6 both searches
share one table. C4TUI_PURE_PYTHON=1 keeps everything in Python.
"""

from __future__ import annotations

import threading

from c4tui.engine.board.geometry import Geometry
from c4tui.engine.board.position import Position
from c4tui.engine.solver.columns import ColumnBounds, exact_scores
from c4tui.engine.solver.exact import Solver
from c4tui.engine.solver.limits import SolverBusy
from c4tui.engine.solver.search import SearchStopped
from c4tui.engine.solver.table import LIST_TABLE_SIZE, NATIVE_TABLE_SIZE, TABLE_SIZE

__all__ = [
    "LIST_TABLE_SIZE",
    "NATIVE_TABLE_SIZE",
    "TABLE_SIZE",
    "ColumnBounds",
    "SearchStopped",
    "Solver",
    "SolverBusy",
    "analyze",
    "exact_scores",
    "shared_solver",
    "solve",
]

_solvers: dict[tuple[int, int, int], Solver] = {}
_solvers_lock = threading.Lock()


def shared_solver(g: Geometry) -> Solver:
    """One solver per board size for the process, so its table is reused."""
    with _solvers_lock:
        size = (g.width, g.height, g.connect)
        if size not in _solvers:
            _solvers[size] = Solver(g)
        return _solvers[size]


def solve(position: Position, *, weak: bool = False) -> int:
    """The exact score of `position` (see `Solver.solve`)."""
    return shared_solver(position.geometry).solve(position, weak=weak)


def analyze(position: Position, *, weak: bool = False) -> list[int | None]:
    """Every column's exact score, mover's view; None for full columns."""
    return exact_scores(shared_solver(position.geometry).analyze(position, weak=weak))
