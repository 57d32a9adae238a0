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
  keyed by the smaller of the position's key and its mirror image's key;
- on 7x6 connect 4, the BitBully opening books (`book.py`) answer 12-ply positions
  exactly and 8-ply positions as win/draw/loss, inside the search too: an 11-ply node
  takes the best of its children's book scores without a call per child; a 13-ply
  root gets a floor from the 12-ply positions one stone earlier; and when analysing a
  12-ply position, its own book score settles the last column that can reach it.

Scores follow `scores.py`: from the side to move, a win is S + 1 - the winner's
stones with S = (width * height + 1) // 2 (22 - stones on 7x6), a loss its negative.

Speed: the search function is generated per board size as Python source (see
`_SEARCH_SOURCE`) so that the board constants are literals and the winning-spot
computation is unrolled inline; a call per node is the main cost of a Python solver,
and this keeps everything else in local variables. When the C kernels were built at
install (`native.py`), the same search runs in C (csolver.c), books included, for every probe;
on 7x6 both searches share one table. C4TUI_PURE_PYTHON=1 keeps everything in Python.
"""

from __future__ import annotations

import threading
import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass

from c4tui.engine import native as _native
from c4tui.engine.book import EXACT_PLY, OUTCOME_PLY, OpeningBook
from c4tui.engine.geometry import Geometry
from c4tui.engine.position import Position

# Transposition table size: a prime near 2**23 entries of 8 bytes (64 MB) when a
# packed entry fits in 64 bits, else a smaller Python list for the big boards.
TABLE_SIZE = 8_388_593
LIST_TABLE_SIZE = 1_048_573
# Check the clock and the stop event once per this many nodes (a power of two minus 1).
CHECK_EVERY = 1023
TICK_SECONDS = 0.1  # between progress ticks of a search with set_limits(tick=...)


class SearchStopped(Exception):
    """The time ran out or the stop event was set in the middle of a search."""


def _half(x: int) -> int:
    """x / 2 rounded toward zero, as in the C++ original (Python's // floors)."""
    return -(-x // 2) if x < 0 else x // 2


def order_columns(width: int) -> list[int]:
    """Columns from the centre outwards (left first on ties): the search order."""
    return sorted(range(width), key=lambda c: (abs(2 * c - (width - 1)), c))


def _spots_source(target: str, stones: str, g: Geometry, indent: str) -> list[str]:
    """Source lines setting `target` to every cell where `stones` would complete a line.

    For a step `s`, a cell is a spot when the `connect - 1` other cells of some window
    through it are stones: with a_k = stones at k steps below (shifted left k*s) for
    k = 1..j and b_k the same above, the window with the spot at place j is
    a_1 & .. & a_j & b_1 & .. & b_(n-1-j). Prefix ANDs share the work. Vertical lines
    only have their spot on top. The caller masks out what is not an empty cell.
    """
    n = g.connect
    lines = [f"{target} = " + " & ".join(f"({stones} << {k})" for k in range(1, n))]
    for s in g.directions[1:]:
        for side, op in (("a", "<<"), ("b", ">>")):
            lines.append(f"{side}1 = {stones} {op} {s}")
            for k in range(2, n):
                lines.append(f"{side}{k} = {side}{k - 1} & ({stones} {op} {k * s})")
        terms = [f"a{n - 1}", f"b{n - 1}"]
        terms += [f"(a{j} & b{n - 1 - j})" for j in range(1, n - 1)]
        lines.append(f"{target} |= " + " | ".join(terms))
    return [indent + line for line in lines]


_SEARCH_SOURCE = '''
def make(TT, MIRROR, book_exact, book_outcome, expired):
    nodes = 0

    def negamax(cur, mask, mcur, mmask, moves, alpha, beta, threats):
        """Score of the position if inside (alpha, beta), else a bound beyond it.

        The side to move (stones `cur`) cannot win with its next stone. `mcur` and
        `mmask` are the mirror image, kept along for symmetric table keys. `threats`
        are the opponent's winning spots, which the parent computed to sort its moves.
        """
        nonlocal nodes
        nodes += 1
        if not nodes & {check} and expired():
            raise SearchStopped
        empty = {board} ^ mask
        threats &= empty
        possible = (mask + {bottom}) & {board}
        forced = possible & threats
        if forced:
            if forced & (forced - 1):
                return -(({cells} - moves) // 2)
            possible = forced
        # Never drop a stone right below an opponent's spot.
        possible &= ~(threats >> 1)
        if not possible:
            return -(({cells} - moves) // 2)
        if moves >= {cells} - 2:
            return 0
        low = -(({cells} - 2 - moves) // 2)
        if alpha < low:
            alpha = low
            if alpha >= beta:
                return alpha
        high = ({cells} - 1 - moves) // 2
        if beta > high:
            beta = high
            if alpha >= beta:
                return beta
        key = cur + mask
        mkey = mcur + mmask
        if mkey < key:
            key = mkey
        slot = key % {size}
        entry = TT[slot]
        if entry >> 8 == key:
            value = entry & 255
            if value > {lower_base}:
                value -= {lower_shift}
                if alpha < value:
                    alpha = value
                    if alpha >= beta:
                        return alpha
            elif value:
                value += {upper_shift}
                if beta > value:
                    beta = value
                    if alpha >= beta:
                        return beta
        if {use_book}:
            if moves == {exact_ply}:
                value = book_exact(cur, mask)
                if value is not None:
                    return value
            elif moves == {outcome_ply}:
                value = book_outcome(cur, mask)
                if value == 0:
                    return 0
                if value == 1:
                    if alpha < 1:
                        alpha = 1
                        if alpha >= beta:
                            return alpha
                elif value == -1 and beta > -1:
                    beta = -1
                    if alpha >= beta:
                        return beta
        opp = cur ^ mask
        mopp = mcur ^ mmask
        key <<= 8
        if {use_book} and moves == {exact_ply} - 1:
            # Every child is a book position: take the best of their exact scores
            # without a call per child (a child missing from the book falls through).
            best = -100
            for _, column in {order}:
                move = possible & column
                if not move:
                    continue
                value = book_exact(opp, mask | move)
                if value is None:
                    break
                if -value > best:
                    best = -value
                    if best >= beta:
                        TT[slot] = key | (best + {lower_shift})
                        return best
            else:
                TT[slot] = key | (best - {upper_shift})
                return best
        if possible & (possible - 1):
            # Sort by the winning spots each move creates (ties: centre first).
            ranked = []
            for rank, column in {order}:
                move = possible & column
                if move:
                    mine = cur | move
{my_spots}
                    ranked.append((((spots & empty).bit_count() << 4) | rank, move, spots))
            ranked.sort(reverse=True)
            for _, move, spots in ranked:
                score = -negamax(opp, mask | move, mopp, mmask | MIRROR[move],
                                 moves + 1, -beta, -alpha, spots)
                if score >= beta:
                    TT[slot] = key | (score + {lower_shift})
                    return score
                if score > alpha:
                    alpha = score
        else:
            mine = cur | possible
{my_spots_forced}
            score = -negamax(opp, mask | possible, mopp, mmask | MIRROR[possible],
                             moves + 1, -beta, -alpha, spots)
            if score >= beta:
                TT[slot] = key | (score + {lower_shift})
                return score
            if score > alpha:
                alpha = score
        TT[slot] = key | (alpha - {upper_shift})
        return alpha

    def count():
        return nodes

    return negamax, count
'''


def _compile_search(g: Geometry, size: int, use_book: bool) -> Callable:
    """The `make` function of the search for one board size (see `_SEARCH_SOURCE`)."""
    max_score = g.max_score
    min_score = -max_score
    order = order_columns(g.width)
    # Rank packs 15 - (place in the centre-first order), so higher ranks go first.
    ranks = [(15 - i, g.column_masks[col]) for i, col in enumerate(order)]
    # Table values: 1..(max-min+1) an upper bound, above that a lower bound (0 = empty).
    upper_shift = min_score - 1
    lower_base = max_score - min_score + 1
    lower_shift = max_score - 2 * min_score + 2
    source = _SEARCH_SOURCE.format(
        check=CHECK_EVERY,
        board=g.board,
        bottom=g.bottom,
        cells=g.cells,
        size=size,
        lower_base=lower_base,
        lower_shift=lower_shift,
        upper_shift=upper_shift,
        use_book=use_book,
        exact_ply=EXACT_PLY,
        outcome_ply=OUTCOME_PLY,
        order=tuple(ranks),
        my_spots="\n".join(_spots_source("spots", "mine", g, " " * 20)),
        my_spots_forced="\n".join(_spots_source("spots", "mine", g, " " * 12)),
    )
    namespace = {"SearchStopped": SearchStopped}
    exec(compile(source, f"<solver {g.width}x{g.height}c{g.connect}>", "exec"), namespace)
    return namespace["make"]


def _mirror_bits(g: Geometry) -> dict[int, int]:
    """Each cell's bit -> the bit of the cell mirrored left to right."""
    return {
        g.bit(col, row): g.bit(g.width - 1 - col, row)
        for col in range(g.width)
        for row in range(g.height)
    }


def _mirror_stones(g: Geometry, stones: int) -> int:
    h1 = g.height + 1
    column_bits = (1 << h1) - 1
    out = 0
    for col in range(g.width):
        out |= ((stones >> (col * h1)) & column_bits) << ((g.width - 1 - col) * h1)
    return out


@dataclass
class ColumnBounds:
    """What is known of one column's score (mover's view): low <= score <= high."""

    low: int
    high: int

    @property
    def exact(self) -> bool:
        return self.low == self.high


class Solver:
    """Exact scores of positions of one board size; keeps its table between calls."""

    def __init__(
        self,
        g: Geometry,
        *,
        book: OpeningBook | bool | None = True,
        native: bool = True,
        table_size: int | None = None,
    ) -> None:
        """`native=False` keeps the pure-Python search even when the C one is available;
        `table_size` (entries, best a prime) makes a small solver for short searches."""
        self.geometry = g
        if book is True:
            book = OpeningBook.default()
        self.book = book if book and book.applies_to(g) else None
        # A packed entry is key << 8 | bound; keys have width * (height + 1) bits.
        self._packed_fits = g.width * (g.height + 1) + 8 <= 64
        self._size = TABLE_SIZE if self._packed_fits else LIST_TABLE_SIZE
        if table_size is not None:
            self._size = table_size
        self._make = _compile_search(g, self._size, self.book is not None)
        self._mirror = _mirror_bits(g)
        self._nodes_before = 0
        self._count = None
        # Held by whoever runs searches with limits, as one table serves one search.
        self.lock = threading.Lock()
        self._deadline: float | None = None
        self._stop: threading.Event | None = None
        self._tick: Callable[[], None] | None = None
        self._next_tick = 0.0
        self._native: _native.NativeSearch | None = None
        lib = _native.library() if native else None
        if lib is not None:
            self._native = _native.NativeSearch(lib, g, owns_table=not self._packed_fits)
            if self.book is not None:
                self._native.set_book(self.book)
            # Called by C every few thousand nodes: non-zero stops the search.
            self._poll = _native.POLL(lambda: int(self._expired()))
        self.reset()

    def reset(self) -> None:
        """Forget every stored bound (fresh memory, as for a benchmark)."""
        # Drop the old table before making the new one, so memory never holds both.
        self._table: array | list = []
        self._negamax = None
        if self._native is not None:
            self._native.share_table(None)
        if self._count is not None:
            self._nodes_before += self._count()
        if self._packed_fits:
            self._table = array("Q", [0]) * self._size
        else:
            self._table = [0] * self._size
        if self._native is not None:
            if self._packed_fits:
                self._native.share_table(self._table)
            else:
                self._native.clear()
        book = self.book
        self._negamax, self._count = self._make(
            self._table,
            self._mirror,
            book.exact_score if book else None,
            book.outcome if book else None,
            self._expired,
        )

    @property
    def nodes(self) -> int:
        """Positions searched since this solver was made."""
        native_nodes = 0 if self._native is None else self._native.nodes
        return self._nodes_before + self._count() + native_nodes

    @property
    def uses_native(self) -> bool:
        """True when this solver has the C search (see `native.py`)."""
        return self._native is not None

    def _expired(self) -> bool:
        """Asked every thousand nodes or so (Python) or every 32,768 (C): stop now?"""
        if self._stop is not None and self._stop.is_set():
            return True
        if self._tick is None and self._deadline is None:
            return False
        now = time.perf_counter()
        if self._tick is not None and now >= self._next_tick:
            # A long null-window search would otherwise be silent for seconds.
            self._next_tick = now + TICK_SECONDS
            self._tick()
        return self._deadline is not None and now >= self._deadline

    def set_limits(
        self,
        deadline: float | None,
        stop: threading.Event | None,
        tick: Callable[[], None] | None = None,
    ) -> None:
        """Make searches raise SearchStopped past `deadline` (perf_counter) or on `stop`.

        `tick()` is called from inside the search about every TICK_SECONDS, for
        progress reports.
        """
        self._deadline = deadline
        self._stop = stop
        self._tick = tick
        self._next_tick = time.perf_counter() + TICK_SECONDS

    # ---- one position -------------------------------------------------------------

    def solve(self, position: Position, *, weak: bool = False) -> int:
        """The exact score of a position that is not over (weak: only its sign, -1/0/1)."""
        bounds = self.bounds(position, weak=weak)
        while not bounds.exact:
            self.probe(position, bounds, weak=weak)
        return bounds.low

    def bounds(self, position: Position, *, weak: bool = False) -> ColumnBounds:
        """The score range of a position before any search (exact when trivial)."""
        self._check(position)
        g, moves = self.geometry, position.moves
        if g.winning_spots(position.current, position.mask) & g.playable(position.mask):
            win = (g.cells + 1 - moves) // 2
            return ColumnBounds(1, 1) if weak else ColumnBounds(win, win)
        low, high = -((g.cells - moves) // 2), (g.cells + 1 - moves) // 2
        if self.book is not None and moves == EXACT_PLY:
            score = self.book.exact_score(position.current, position.mask)
            if score is not None:
                low = high = score
        if self.book is not None and moves == EXACT_PLY + 1:
            low = max(low, self._book_floor(position))
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
        for column in g.column_masks:
            stones = position.mask & column
            if not stones:
                continue
            top = 1 << (stones.bit_length() - 1)
            if top & last:
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
            result = self._native.negamax(
                position.current, position.mask, position.moves, middle, middle + 1, self._poll
            )
            if result is None:
                raise SearchStopped
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
        mirror = _mirror_stones
        return self._negamax(
            position.current,
            position.mask,
            mirror(g, position.current),
            mirror(g, position.mask),
            position.moves,
            middle,
            middle + 1,
            g.winning_spots(position.opponent_stones, position.mask),
        )

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
        on_column: Callable[[int, ColumnBounds], None] | None = None,
        columns: list[ColumnBounds | None] | None = None,
    ) -> list[ColumnBounds | None]:
        """The score of every column (mover's view; None for a full column).

        The centre column is solved first; its score is then the first guess for the
        others, which are probed in turns, so a stopped search (SearchStopped
        propagates; pass `columns` to keep what was learnt) knows something of each.
        `on_column(col, bounds)` is called as each column becomes exact.
        """
        self._check(position)
        if columns is None:
            columns = [None] * self.geometry.width
        children: dict[int, Position] = {}
        child_bounds: dict[int, ColumnBounds] = {}
        for col in order_columns(self.geometry.width):
            if not position.can_play(col):
                continue
            if position.is_winning_move(col):
                win = 1 if weak else (self.geometry.cells + 1 - position.moves) // 2
                columns[col] = ColumnBounds(win, win)
            elif position.moves + 1 == self.geometry.cells:
                # The last cell, and not a win: the game ends drawn, with no child to solve.
                columns[col] = ColumnBounds(0, 0)
            else:
                child = position.play(col)
                children[col] = child
                cb = self.bounds(child, weak=weak)
                child_bounds[col] = cb
                columns[col] = ColumnBounds(-cb.high, -cb.low)
            if on_column is not None and columns[col].exact:
                on_column(col, columns[col])
        # A 12-ply position's own book score is the best column's: once every other
        # column is proven below it, the last one left needs no search.
        best = None
        if self.book is not None and position.moves == EXACT_PLY and not weak:
            best = self.book.exact_score(position.current, position.mask)
        pending = [col for col in children if not child_bounds[col].exact]
        # Sibling columns often score alike: once one is exact, the others first test
        # its score (twice at most each, then back to the binary search).
        guess: int | None = None
        guessed = dict.fromkeys(pending, 0)
        while pending:
            # Until there is a guess, the first column is solved alone.
            turn = pending[:1] if guess is None and not weak else list(pending)
            for col in turn:
                if col not in pending:
                    continue
                cb = child_bounds[col]
                use_guess = guess is not None and guessed[col] < 2
                guessed[col] += use_guess
                self.probe(children[col], cb, weak=weak, guess=guess if use_guess else None)
                if cb.exact and not weak:
                    guess = cb.low
                columns[col] = ColumnBounds(-cb.high, -cb.low)
                if cb.exact:
                    pending.remove(col)
                    if on_column is not None:
                        on_column(col, columns[col])
                if best is None:
                    continue
                contenders = [c for c, b in enumerate(columns) if b is not None and b.high >= best]
                if len(contenders) == 1 and contenders[0] in pending:
                    last = contenders[0]
                    child_bounds[last].low = child_bounds[last].high = -best
                    columns[last] = ColumnBounds(best, best)
                    pending.remove(last)
                    if on_column is not None:
                        on_column(last, columns[last])
        return columns


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
    columns = shared_solver(position.geometry).analyze(position, weak=weak)
    return [None if b is None else b.low for b in columns]
