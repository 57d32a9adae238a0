"""Every column of a position scored exactly: what `analyze`, the overlay and the review show."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from c4tui.engine.board.geometry import Geometry, centre_first
from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import win_now_score, win_score
from c4tui.engine.solver.book import EXACT_PLY, OpeningBook
from c4tui.engine.solver.search import SearchStopped


@dataclass
class ColumnBounds:
    """What is known of one column's score (mover's view): low <= score <= high."""

    low: int
    high: int

    @property
    def exact(self) -> bool:
        return self.low == self.high


def exact_scores(columns: Sequence[ColumnBounds | None]) -> list[int | None]:
    """The scores of a finished column analysis (`Solver.analyze`): each column's exact
    score, None for a full column."""
    return [None if bounds is None else bounds.low for bounds in columns]


def least_grandparent(book: OpeningBook, position: Position) -> int | None:
    """The least book score (each from its own mover's view) of the 12-ply positions two
    stones before a 14-ply `position`: a top stone of the player who moved last taken
    back, then one of the other's; None when the book has none."""
    g = position.geometry
    cur, mask = position.current, position.mask
    least = None
    for top in g.top_stones(mask, cur ^ mask):
        parent = mask ^ top
        for below in g.top_stones(parent, cur):
            score = book.exact_score(cur ^ below, parent ^ below)
            if score is not None and (least is None or score < least):
                least = score
    return least


class Prober(Protocol):
    """What the column analysis asks of the Solver (`exact.py`), which owns it."""

    geometry: Geometry
    book: OpeningBook | None

    def bounds(self, position: Position, *, weak: bool = False) -> ColumnBounds: ...

    def probe(
        self, position: Position, bounds: ColumnBounds, *, weak: bool, guess: int | None
    ) -> None: ...

    def out_of_time(self) -> bool: ...


def analyze_columns(
    solver: Prober,
    position: Position,
    *,
    weak: bool,
    on_column: Callable[[int, ColumnBounds], None] | None,
    columns: list[ColumnBounds | None],
    known: tuple[int, int] | None = None,
) -> list[ColumnBounds | None]:
    """Fill `columns` with every column's score (see `Solver.analyze`; `known` too)."""
    g = solver.geometry
    children: dict[int, Position] = {}
    child_bounds: dict[int, ColumnBounds] = {}
    # Sibling columns often score alike: once one is exact, the others first test
    # its score (twice at most each, then back to the binary search).
    guess: int | None = None
    wins_now = False
    for col in centre_first(g.width):
        if not position.can_play(col):
            continue
        if position.is_winning_move(col):
            win = 1 if weak else win_now_score(position)
            columns[col] = ColumnBounds(win, win)
            wins_now = True
        elif position.moves + 1 == g.cells:
            # The last cell, and not a win: the game ends drawn, with no child to solve.
            columns[col] = ColumnBounds(0, 0)
        elif known is not None and col == known[0]:
            # Known beforehand: no search, and the others' first guess.
            columns[col] = ColumnBounds(known[1], known[1])
            guess = None if weak else -known[1]
        else:
            child = position.play(col)
            children[col] = child
            cb = solver.bounds(child, weak=weak)
            child_bounds[col] = cb
            columns[col] = ColumnBounds(-cb.high, -cb.low)
        bounds = columns[col]
        if on_column is not None and bounds is not None and bounds.exact:
            on_column(col, bounds)
    # A 12-ply position's own book score is the best column's: once every other
    # column is proven below it, the last one left needs no search.
    best = None
    if solver.book is not None and position.moves == EXACT_PLY and not weak:
        best = solver.book.exact_score(position.current, position.mask)
    if guess is None and not weak and not wins_now:
        # The position's own floor before any search (a 12-ply position's book score,
        # a 13-ply one's floor from the 12-ply book) is the first guess: the best
        # column scores at least that, often just that, and siblings score alike (on
        # 150 random 12-ply and 150 13-ply positions 2-3% fewer nodes, the slowest no
        # slower). Elsewhere only the follow-up (parity.py) gives a floor above the
        # trivial one, at an odd number of empty cells: a draw or a win at the last cell.
        root_low = solver.bounds(position).low
        if root_low > -win_score(g.cells, position.moves + 1):
            guess = -root_low
        elif solver.book is not None and position.moves == EXACT_PLY + 2:
            # Two stones past the book no floor is known, but the 12-ply grandparents
            # are: the least of their scores guesses best (150 random 14-ply positions
            # 5.4% fewer nodes, the greatest 1.6%; three stones back, either is worse
            # than no guess).
            least = least_grandparent(solver.book, position)
            if least is not None:
                guess = -least
    pending = [col for col in children if not child_bounds[col].exact]
    # A deadline already past or a stop already set: no search at all (the first check
    # would otherwise come only after CHECK_EVERY nodes, when a small search is done).
    if pending and solver.out_of_time():
        raise SearchStopped
    guessed = dict.fromkeys(pending, 0)
    # A 12-ply position's children have floors from the book and often score just that:
    # each one's first probe asks "more than the floor?" (on 100 random 12-ply positions
    # and the 21 slowest known, 114.0 M nodes -> 108.8 M; the slowest, 125137331631,
    # 11.7 M -> 9.7 M).
    floor_first = set()
    if solver.book is not None and position.moves == EXACT_PLY and not weak:
        trivial = -win_score(g.cells, position.moves + 2)
        floor_first = {col for col in pending if child_bounds[col].low > trivial}
    while pending:
        # Until there is a guess, the first column is solved alone.
        turn = pending[:1] if guess is None and not weak else list(pending)
        for col in turn:
            if col not in pending:
                continue
            cb = child_bounds[col]
            if col in floor_first:
                floor_first.discard(col)
                solver.probe(children[col], cb, weak=weak, guess=cb.low)
            else:
                use_guess = guess is not None and guessed[col] < 2
                guessed[col] += use_guess
                solver.probe(children[col], cb, weak=weak, guess=guess if use_guess else None)
            if cb.exact and not weak:
                guess = cb.low
            proven = columns[col] = ColumnBounds(-cb.high, -cb.low)
            if cb.exact:
                pending.remove(col)
                if on_column is not None:
                    on_column(col, proven)
            if best is None:
                continue
            contenders = [c for c, b in enumerate(columns) if b is not None and b.high >= best]
            if len(contenders) == 1 and contenders[0] in pending:
                last = contenders[0]
                child_bounds[last].low = child_bounds[last].high = -best
                settled = columns[last] = ColumnBounds(best, best)
                pending.remove(last)
                if on_column is not None:
                    on_column(last, settled)
    return columns
