"""The pure-Python null-window search: the readable reference the C search is tested against.

`make_search` returns a negamax over one board size and one table. It is plain code
with the board constants and the table in local variables of the enclosing function
(a call per node is the main cost of a Python solver). The C search (kernels/search.c) is the
same algorithm, books included, and stores the same entries.
"""

from __future__ import annotations

from collections.abc import Callable

from c4tui.engine.board.geometry import Geometry, centre_first, non_losing
from c4tui.engine.board.heuristic import heuristic_for
from c4tui.engine.solver.book import EXACT_PLY, OUTCOME_PLY, OpeningBook
from c4tui.engine.solver.parity import follow_up_for
from c4tui.engine.solver.table import DEEP_ENTRIES, Coding, deep_region

# Check the clock and the stop event once per this many nodes (a power of two minus 1).
CHECK_EVERY = 1023
# Enhanced transposition cutoffs at nodes with more empty cells than this (kernels/solver.c's
# ETC_MIN_EMPTY): nearer the end, reading the children's entries costs more than it saves.
ETC_MIN_EMPTY = 6
# Only nodes with at least this many empty cells have table entries (kernels/table.h's
# tt_keeps, which says why every such node has one): the search below a node with fewer
# costs less than its entry's cache misses.
KEEP_MIN_EMPTY = 6
# Moves of equal weight are ranked by their open lines (open_lines) at nodes with at
# least this many empty cells (kernels/search_body.h's LINES_MIN_EMPTY). Such nodes are
# a small part of the search, but most of the nodes searched in vain are under their
# moves tried before the one that cuts, most often moves of the same weight. Tried from
# 18 to 28 on 3,000 random positions: 20-22 cut the most (docs/results-solver.md).
LINES_MIN_EMPTY = 20


class SearchStopped(Exception):
    """The time ran out or the stop event was set in the middle of a search."""


Negamax = Callable[[int, int, int, int, int, int, int, int], int]


def _not_in_book(first: int, mask: int) -> int | None:
    """What a search without a book reads from one: nothing."""
    return None


def make_search(
    g: Geometry,
    table: memoryview | list[int],
    mirror: dict[int, int],
    book: OpeningBook | None,
    expired: Callable[[], bool],
) -> tuple[Negamax, Callable[[], int]]:
    """The search `negamax` over `table` and a `count()` of the nodes it visited."""
    board, bottom, cells = g.board, g.bottom, g.cells
    # Slots key % size in the main part, and in the deep region for nodes of at least
    # deep_moves stones (table.py's deep_region).
    size, deep_moves = deep_region(len(table), cells)
    etc_until = cells - ETC_MIN_EMPTY
    coding = Coding.of(g)
    # An entry is key << key_shift | its bounds' bits (table.py's Coding: one bound, or
    # where they fit both, a floor and a ceiling).
    key_shift = coding.key_shift
    bounds_mask = (1 << key_shift) - 1
    bounds_of, with_floor, with_ceiling, exact_bits = (
        coding.bounds,
        coding.with_floor,
        coding.with_ceiling,
        coding.exact,
    )
    no_bound = coding.bound_offset  # beyond every score
    # A move's rank packs 15 - (its place in the centre-first order): higher goes first.
    ranked_columns = [(15 - i, g.column_masks[col]) for i, col in enumerate(centre_first(g.width))]
    # The evaluation's winning-spot finder, written out for connect 4 (as fast as the
    # unrolled code once generated here, and tested against Geometry.winning_spots).
    spots_of = heuristic_for(g).spots
    directions, connect = g.directions, g.connect
    follow_up = follow_up_for(g)
    follower_floor, odd_threat_ceiling, lows = (
        follow_up.follower_floor,
        follow_up.odd_threat_ceiling,
        follow_up.lows,
    )

    def open_lines(own: int, other: int) -> int:
        """The lines free of `other`'s stones, each worth 1 with one of `own`'s stones in
        it and 3 with two or more, less one for each line free of `own`'s stones with
        `other`'s stones in it. (C ranks by what the move's stone adds to this, the
        lines through its cell only: the same order.)"""
        free_of_other, free_of_own = board & ~other, board & ~own
        worth = 0
        for step in directions:
            # Bit p of `mine` (`theirs`): the line from p on, `step` apart, is free of
            # other's (own's) stones; `one`, `two`: it holds one, two or more of own's.
            mine, theirs, one, two, seen = free_of_other, free_of_own, own, 0, other
            for k in range(1, connect):
                shift = k * step
                following = own >> shift
                mine &= free_of_other >> shift
                theirs &= free_of_own >> shift
                two |= one & following
                one |= following
                seen |= other >> shift
            worth += (mine & one).bit_count() + 2 * (mine & two).bit_count()
            worth -= (theirs & seen).bit_count()
        return worth

    # Without a book these are never called (each call is behind `book is not None`).
    book_exact = book.exact_score if book else _not_in_book
    book_outcome = book.outcome if book else _not_in_book
    nodes = 0

    def negamax(
        cur: int, mask: int, mcur: int, mmask: int, moves: int, alpha: int, beta: int, threats: int
    ) -> int:
        """Score of the position if inside (alpha, beta), else a bound beyond it.

        The side to move (stones `cur`) cannot win with its next stone. `mcur` and
        `mmask` are the mirror image, kept along for symmetric table keys. `threats`
        are the opponent's winning spots, which the parent worked out to sort its moves.
        """
        nonlocal nodes
        nodes += 1
        if not nodes & CHECK_EVERY and expired():
            raise SearchStopped
        empty = board ^ mask
        threats &= empty
        possible = non_losing((mask + bottom) & board, threats)
        # The scores below are scores.win_score at later plies, written out: this loop
        # is the reference search's hottest, and a call per node costs a tenth of it.
        if not possible:
            return -((cells - moves) // 2)
        if moves >= cells - 2:
            return 0
        low = -((cells - 2 - moves) // 2)
        if alpha < low:
            alpha = low
            if alpha >= beta:
                return alpha
        high = (cells - 1 - moves) // 2
        if beta > high:
            beta = high
            if alpha >= beta:
                return beta
        # Only nodes with enough empty cells have entries.
        keeps = cells - moves >= KEEP_MIN_EMPTY
        if keeps:
            key = min(cur + mask, mcur + mmask)
            slot = key % size if moves < deep_moves else size + key % DEEP_ENTRIES
            entry = table[slot]
            # The entry's bounds of this node (kept on the write below), if it is this node's.
            was = entry & bounds_mask if entry >> key_shift == key else 0
            floor, ceiling = bounds_of(was)
            if alpha < floor:
                alpha = floor
                if alpha >= beta:
                    return alpha
            if beta > ceiling:
                beta = ceiling
                if alpha >= beta:
                    return beta
        # With an odd number of empty cells, a move after which the follow-up holds is
        # a floor (parity.py; at an even number the parent's floor has said it first),
        # tried once the entry has not ended the node (as in C: less work than before it).
        if (cells - moves) & 1:
            if alpha < 1:
                least = follower_floor(cur, mask, possible)
                if least is not None and alpha < least:
                    alpha = least
                    if alpha >= beta:
                        return alpha
            # And a ceiling when the opponent holds an odd threat the follow-up makes good.
            if threats & lows:
                most = odd_threat_ceiling(cur, mask, threats)
                if most is not None and beta > most:
                    beta = most
                    if alpha >= beta:
                        return beta
        if book is not None:
            if moves == EXACT_PLY:
                exact = book_exact(cur, mask)
                if exact is not None:
                    return exact
            elif moves == OUTCOME_PLY:
                # Win / draw / loss only: a draw is exact, a win or loss a bound.
                outcome = book_outcome(cur, mask)
                if outcome == 0:
                    return 0
                if outcome == 1:
                    alpha = max(alpha, 1)
                elif outcome == -1:
                    beta = min(beta, -1)
                if alpha >= beta:
                    return alpha if outcome == 1 else beta
        opp = cur ^ mask
        mopp = mcur ^ mmask
        if keeps:
            key <<= key_shift
        if book is not None and moves == EXACT_PLY - 1:
            # Every child is a book position: take the best of their exact scores
            # without a call per child (a child missing from the book falls through).
            best = -100
            for _, column in ranked_columns:
                move = possible & column
                if not move:
                    continue
                child = book_exact(opp, mask | move)
                if child is None:
                    break
                if -child > best:
                    best = -child
                    if best >= beta:
                        if keeps:
                            table[slot] = key | with_floor(was, best)
                        return best
            else:
                if keeps:
                    table[slot] = key | exact_bits(best)
                return best
        if moves < etc_until:
            # Enhanced transposition cutoff: a child whose stored ceiling already lifts
            # this node to beta ends the search before any child is searched.
            # (C reads these entries after sorting the moves, to hide its cache misses
            # behind that work; the same reads in the same order, so the same cutoffs.)
            for _, column in ranked_columns:
                move = possible & column
                if move:
                    child = min(opp + (mask | move), mopp + (mmask | mirror[move]))
                    entry = table[
                        child % size if moves + 1 < deep_moves else size + child % DEEP_ENTRIES
                    ]
                    if entry >> key_shift == child:
                        # A ceiling of the child's score is a floor of this node's.
                        floor = -bounds_of(entry & bounds_mask)[1]
                        if floor >= beta:
                            return floor
        # Sort by the winning spots each move makes, weighed (ties: centre first). A
        # spot counts 2; one right above an opponent's spot counts nothing (when the
        # mover blocks that spot, the opponent blocks this one on top of it), one right
        # below an opponent's spot 1 more (of two stacked spots the lower one rules the
        # column). Against the plain count of spots (Pons's): 5-7% fewer nodes, and as
        # many fewer of the dear ones, with more than 11 empty cells, on the slowest
        # positions past the book and on random ones (docs/results-solver.md).
        # Far from the end, ties go to the move of the best open lines (LINES_MIN_EMPTY
        # says why), then to the centre.
        below_threats, above_threats = threats >> 1, threats << 1
        lines = cells - moves >= LINES_MIN_EMPTY
        children = []
        for rank, column in ranked_columns:
            move = possible & column
            if move:
                spots = spots_of(cur | move, empty)
                useful = spots & ~above_threats
                weight = 2 * useful.bit_count() + (useful & below_threats).bit_count()
                # Within +-3 x 440 (10 x 11 boards, connect 3): 12 bits with the offset.
                tie = open_lines(cur | move, opp) + 2048 if lines else 0
                children.append(((weight << 16) | (tie << 4) | rank, move, spots))
        children.sort(reverse=True)
        # Fail-soft: below alpha, the best child's score is this node's ceiling, often
        # lower than alpha (a tighter bound for the entry and for the probe's window).
        alpha_in, best = alpha, -no_bound
        for _, move, spots in children:
            score = -negamax(
                opp, mask | move, mopp, mmask | mirror[move], moves + 1, -beta, -alpha, spots
            )
            if score >= beta:
                if keeps:
                    table[slot] = key | with_floor(was, score)
                return score
            best = max(best, score)
            alpha = max(alpha, score)
        if keeps:
            # A child's score above alpha_in and below beta was exact, and so is this node's.
            table[slot] = key | (exact_bits(best) if best > alpha_in else with_ceiling(was, best))
        return best

    def count() -> int:
        return nodes

    return negamax, count
