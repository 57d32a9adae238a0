"""The Solver: one position's exact score by null-window probes, over one table and the book.

Pons's binary search on the score calls the search (C when the kernels were built,
else `search.py`) with null windows; the book settles 12-ply positions and gives a
13-ply root a floor. See the package docstring for the whole algorithm.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, cast

from c4tui.engine.board.geometry import Geometry
from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import win_now_score, win_score
from c4tui.engine.kernels import calls as _calls
from c4tui.engine.kernels import library as _library
from c4tui.engine.solver.book import EXACT_PLY, OpeningBook
from c4tui.engine.solver.columns import ColumnBounds, analyze_columns
from c4tui.engine.solver.limits import SearchLimits
from c4tui.engine.solver.parity import follow_up_for
from c4tui.engine.solver.search import SearchStopped, make_search
from c4tui.engine.solver.table import (
    LIST_TABLE_SIZE,
    LONG_AFTER_NODES,
    LONG_SEARCH_EMPTY,
    LONG_TABLE_SIZE,
    NATIVE_TABLE_SIZE,
    PAST_BOOK_EMPTY,
    PAST_BOOK_TABLE_SIZE,
    TABLE_SIZE,
    clear_table,
    mirror_bits,
    mirror_stones,
    new_table,
    packed_fits,
)

LOAD_SECONDS = 1.0  # how long a reading of the system's load is trusted
CORES = os.cpu_count() or 1


class SpareCores:
    """How many threads an analysis may use now: the second only while a core is idle.

    On a machine whose cores are all busy with other work, a second thread only splits
    this process's share of the processor and duplicates its search (measured: the
    ratio to BitBully on Middle-Medium went from 0.5 to 0.6-0.9 at a load of 3.5 on two
    cores). The one-minute load average, read at most once a second, says whether a
    core is idle.
    """

    def __init__(self) -> None:
        self._checked = -LOAD_SECONDS
        self._idle = True

    def threads(self, wanted: int) -> int:
        if wanted < 2:
            return wanted
        now = time.monotonic()
        if now - self._checked >= LOAD_SECONDS:
            self._checked = now
            try:
                load = os.getloadavg()[0]
            except OSError:  # no load average on this system: assume a core is free
                load = 0.0
            # This search itself adds about one to the load.
            self._idle = load < CORES - 0.5
        return wanted if self._idle else 1


_spare_cores = SpareCores()


def _half(x: int) -> int:
    """x / 2 rounded toward zero, as in the C++ original (Python's // floors)."""
    return -(-x // 2) if x < 0 else x // 2


class Solver:
    """Exact scores of positions of one board size; keeps its table between calls."""

    def __init__(
        self,
        g: Geometry,
        *,
        book: OpeningBook | bool | None = True,
        native: bool = True,
        table_size: int | None = None,
        threads: int | None = None,
    ) -> None:
        """`native=False` keeps the pure-Python search even when the C one is available;
        `table_size` (entries, best a prime) makes a small solver for short searches;
        `threads` is how many threads the C analysis of a long position uses (default:
        two while the machine has an idle core, see SpareCores)."""
        self.geometry = g
        if book is True:
            book = OpeningBook.default()
        self.book = book if book and book.applies_to(g) else None
        self._packed_fits = packed_fits(g)
        lib = _library.library() if native else None
        if not self._packed_fits:
            self._size = LIST_TABLE_SIZE
        else:
            self._size = TABLE_SIZE if lib is None else NATIVE_TABLE_SIZE
        # The C search's long-search table (table.py), unless the size is given.
        self._grows = lib is not None and self._packed_fits and table_size is None
        self._long_table: memoryview | None = None
        self._long_offered = False  # whether C may move to it (a long position)
        self._long_shared = False  # whether C searches with it now
        if table_size is not None:
            self._size = table_size
        self._mirror = mirror_bits(g)
        self._nodes_before = 0
        self._count: Callable[[], int] | None = None
        self._table: memoryview | list[int] | None = None
        # Held by whoever searches, as one table serves one search (see `working`).
        self._limits = SearchLimits()
        self.threads = threads
        self._native: _calls.NativeSearch | None = None
        if lib is not None:
            self._native = _calls.NativeSearch(lib, g, owns_table=not self._packed_fits)
            if self.book is not None:
                self._native.set_book(self.book.exact_records, self.book.outcome_records)
            # Asked by C at most every hundredth of a second, and only when there is a
            # stop event or a tick: the deadline C reads itself (kernels/stops.c).
            self._poll = _calls.POLL(lambda: int(self._limits.expired()))
        self.reset()

    def reset(self) -> None:
        """Forget every stored bound (an empty table, as for a benchmark)."""
        if self._count is not None:
            self._nodes_before += self._count()
        if self._table is None:
            self._table = new_table(self._size, self._packed_fits)
            if self._native is not None and isinstance(self._table, memoryview):  # packed
                self._native.share_table(self._table)
        else:
            clear_table(self._table)
        if self._long_table is not None:
            clear_table(self._long_table)
        if self._long_shared:
            # As a new process would: the small table first, the big one once it pays.
            assert self._native is not None and isinstance(self._table, memoryview)
            self._native.share_table(self._table)
            self._long_shared = False
        if self._native is not None and not self._packed_fits:
            self._native.clear()
        self._negamax, self._count = make_search(
            self.geometry, self._table, self._mirror, self.book, self._limits.expired
        )

    @property
    def nodes(self) -> int:
        """Positions searched since this solver was made."""
        native_nodes = 0 if self._native is None else self._native.nodes
        counted = 0 if self._count is None else self._count()
        return self._nodes_before + counted + native_nodes

    @property
    def uses_native(self) -> bool:
        """True when this solver has the C search (see `c4tui.engine.kernels`)."""
        return self._native is not None

    def working(
        self,
        deadline: float | None = None,
        stop: threading.Event | None = None,
        tick: Callable[[], None] | None = None,
        *,
        wait: bool = True,
    ) -> AbstractContextManager[None]:
        """Hold this solver for a block of searches (see `limits.py`): they raise
        SearchStopped past `deadline` (perf_counter) or once `stop` is set, and call
        `tick()` about every TICK_SECONDS. `wait=False`: SolverBusy if it is held."""
        return self._limits.held(deadline, stop, tick, wait=wait)

    def out_of_time(self) -> bool:
        """Whether the search held now must stop (its deadline passed or its stop set)."""
        return self._limits.expired()

    # ---- one position -------------------------------------------------------------

    def solve(
        self,
        position: Position,
        *,
        weak: bool = False,
        deadline: float | None = None,
        stop: threading.Event | None = None,
    ) -> int:
        """The exact score of a position that is not over (weak: only its sign, -1/0/1)."""
        with self.working(deadline, stop):
            bounds = self.bounds(position, weak=weak)
            # MTD(f): each probe tests the last bound found, from a draw first (15% fewer
            # nodes than the binary search on bookless 7x6 openings).
            guess = 0
            while not bounds.exact:
                low = bounds.low
                self.probe(position, bounds, weak=weak, guess=guess)
                guess = bounds.low if bounds.low > low else bounds.high
            return bounds.low

    def bounds(self, position: Position, *, weak: bool = False) -> ColumnBounds:
        """The score range of a position before any search (exact when trivial)."""
        self._check(position)
        g, moves = self.geometry, position.moves
        if g.winning_spots(position.current, position.mask) & g.playable(position.mask):
            win = win_now_score(position)
            return ColumnBounds(1, 1) if weak else ColumnBounds(win, win)
        # No better than winning with the next stone; no worse than losing to the
        # opponent's (the same rule seen from the child after a move).
        low, high = -win_score(g.cells, moves + 1), win_now_score(position)
        if self.book is not None and moves == EXACT_PLY:
            score = self.book.exact_score(position.current, position.mask)
            if score is not None:
                low = high = score
        if self.book is not None and moves == EXACT_PLY + 1:
            low = max(low, self._book_floor(position))
        if low < high:
            # What the follow-up guarantees (parity.py), unless the book said it all.
            floor, ceiling = follow_up_for(g).bounds(position.current, position.mask, moves)
            if floor is not None:
                low = max(low, floor)
            if ceiling is not None:
                high = min(high, ceiling)
        if weak:
            low, high = max(low, -1), min(high, 1)
            if low == high:
                return ColumnBounds(low, high)
            if low > 0 or high < 0:
                sign = 1 if low > 0 else -1
                return ColumnBounds(sign, sign)
        return ColumnBounds(low, high)

    def _book_floor(self, position: Position) -> int:
        """A lower bound for a 13-ply position from the 12-ply positions before it.

        Any position one stone earlier (take back a top stone of the player who just
        moved) scores at least what this move gives it: parent >= -score, so
        score >= -parent. The book's exact parents make that a floor.
        """
        g = self.geometry
        last = position.opponent_stones
        floor = -g.max_score
        if self.book is None:
            return floor
        for top in g.top_stones(position.mask, last):
            parent = self.book.exact_score(last ^ top, position.mask ^ top)
            if parent is not None and -parent > floor:
                floor = -parent
        return floor

    def probe(
        self,
        position: Position,
        bounds: ColumnBounds,
        *,
        weak: bool = False,
        guess: int | None = None,
    ) -> None:
        """One null-window test that narrows `bounds` (Pons's binary search step).

        With a `guess` of the score, test "score >= guess" (or "score > guess" once
        that is known): a right guess is proven in two probes.
        """
        low, high = bounds.low, bounds.high
        if guess is not None and not weak:
            guess = min(max(guess, low), high)
            middle = guess - 1 if guess > low else guess
        else:
            middle = low + (high - low) // 2
            # Probe near 0 first: wins, draws and losses are the cheapest to settle.
            if middle <= 0 and _half(low) < middle:
                middle = _half(low)
            elif middle >= 0 and _half(high) > middle:
                middle = _half(high)
        if self._native is not None:
            self._share_table_for(position)
            try:
                result = self._native.negamax(
                    position.current,
                    position.mask,
                    position.moves,
                    middle,
                    middle + 1,
                    **self._native_limits(),
                )
            except _calls.Stopped:
                raise SearchStopped from None
            finally:
                self._long_shared = self._native.on_long_table()
        else:
            result = self._python_negamax(position, middle)
        if result <= middle:
            bounds.high = result
        else:
            bounds.low = result
        if weak and bounds.low > 0:
            bounds.low = bounds.high = 1
        elif weak and bounds.high < 0:
            bounds.low = bounds.high = -1

    def _python_negamax(self, position: Position, middle: int) -> int:
        """The pure-Python null-window search "score > middle" (the reference)."""
        g = self.geometry
        return self._negamax(
            position.current,
            position.mask,
            mirror_stones(g, position.current),
            mirror_stones(g, position.mask),
            position.moves,
            middle,
            middle + 1,
            g.winning_spots(position.opponent_stones, position.mask),
        )

    def _share_table_for(self, position: Position) -> None:
        """Give the C search its tables for this position: the small one, which stays in
        the processor's caches, and for a search that may be long (bookless from many
        empty cells, or on 7x6 just past the book) the big one besides, which the search
        moves to once it has proved long (LONG_AFTER_NODES) and keeps to after that."""
        if not self._grows:
            return  # one table, of the size asked for (or C owns it)
        empty = self.geometry.cells - position.moves
        if self.book is None:
            long = empty >= LONG_SEARCH_EMPTY
        else:
            # Past the book nothing cuts a search short: 7x6's long searches (table.py).
            long = position.moves >= EXACT_PLY and empty >= PAST_BOOK_EMPTY
        native = self._native
        assert native is not None and isinstance(self._table, memoryview)  # C runs: packed
        if long and not self._long_offered:
            if self._long_table is None:
                # Mapped, not touched: memory only for the pages a long search writes.
                size = LONG_TABLE_SIZE if self.book is None else PAST_BOOK_TABLE_SIZE
                self._long_table = cast(memoryview, new_table(size, packed=True, populate=False))
            native.offer_long_table(self._long_table, LONG_AFTER_NODES)
        elif not long and self._long_offered:
            native.offer_long_table(None, 0)
            if self._long_shared:
                native.share_table(self._table)
                self._long_shared = False
        self._long_offered = long

    def _native_limits(self) -> dict[str, Any]:
        """The C search's stops for now: the seconds left and, when there is a stop
        event or a tick to serve, the callback."""
        limits = self._limits
        poll = self._poll if limits.polled else _calls.NO_POLL
        return {"seconds": limits.seconds_left(), "poll": poll}

    def _check(self, position: Position) -> None:
        g, mine = position.geometry, self.geometry
        if (g.width, g.height, g.connect) != (mine.width, mine.height, mine.connect):
            raise ValueError("the position is for another board size than this solver")
        if position.is_over():
            raise ValueError(f"the game is over in {position.to_moves()!r}; nothing to solve")

    # ---- every column -------------------------------------------------------------

    def analyze(
        self,
        position: Position,
        *,
        weak: bool = False,
        deadline: float | None = None,
        stop: threading.Event | None = None,
        tick: Callable[[], None] | None = None,
        on_column: Callable[[int, ColumnBounds], None] | None = None,
        columns: list[ColumnBounds | None] | None = None,
        wait: bool = True,
        known: tuple[int, int] | None = None,
    ) -> list[ColumnBounds | None]:
        """The score of every column (mover's view; None for a full column).

        The centre column is solved first; its score is then the first guess for the
        others, which are probed in turns, so a search stopped by `deadline` or `stop`
        (SearchStopped propagates; pass `columns` to keep what was learnt) knows
        something of each. `on_column(col, bounds)` is called as each column becomes
        exact, `tick()` about every TICK_SECONDS; `wait` as for `working`.
        `known`: (column, score) of a column whose exact score the caller knows (a
        review, going backwards, has the next position's): it is taken as it is, not
        searched, and is the others' first guess.
        """
        self._check(position)
        if columns is None:
            columns = [None] * self.geometry.width
        with self.working(deadline, stop, tick, wait=wait):
            if self._native is not None:
                return self._native_analyze(position, weak, on_column, columns, known)
            return analyze_columns(
                self, position, weak=weak, on_column=on_column, columns=columns, known=known
            )

    def _native_analyze(
        self,
        position: Position,
        weak: bool,
        on_column: Callable[[int, ColumnBounds], None] | None,
        columns: list[ColumnBounds | None],
        known: tuple[int, int] | None,
    ) -> list[ColumnBounds | None]:
        """`analyze` in one C call (kernels/columns.c, the same steps as columns.py):
        no Python between the probes, and a second thread for long positions."""
        arrays = _calls.ColumnArrays(self.geometry.width)

        def sync() -> None:
            for col in range(len(columns)):
                bounds = arrays.bounds(col)
                columns[col] = None if bounds is None else ColumnBounds(*bounds)

        def exact(col: int, score: int) -> None:
            proven = columns[col] = ColumnBounds(score, score)
            if on_column is not None:
                on_column(col, proven)

        self._limits.sync = sync
        self._share_table_for(position)
        assert self._native is not None  # only called when the C search runs
        try:
            self._native.analyze(
                position.current,
                position.mask,
                position.moves,
                weak=weak,
                threads=self.threads or _spare_cores.threads(min(2, CORES)),
                arrays=arrays,
                on_exact=None if on_column is None else exact,
                known=known,
                **self._native_limits(),
            )
        except _calls.Stopped:
            raise SearchStopped from None
        finally:
            self._long_shared = self._native.on_long_table()
            self._limits.sync = None
            sync()
        return columns
