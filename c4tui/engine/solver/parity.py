"""What the follow-up guarantees: Allis's claimeven, as bounds found without a search.

With an even number of empty cells, the side not to move (the follower) can answer
every move on top of it, in the same column. Pair each column's empty cells from its
lowest up: the mover (the leader) always takes a pair's lower cell, the follower its
upper one, which the lower one has just made playable. A column with an odd number of
empty cells leaves its lowest empty cell out of the pairs; those cells (one a column,
an even number of them in all) pair among themselves: a move on one is answered on
another, and both stay playable until then, as each is its column's lowest empty cell.

So the leader gets only the lower cells of the pairs (the "pair lows": the rows an even
number of rows below the top) and one of each pair of left-out cells. When no line fits
in its stones and those cells, it never completes one: its score is at most 0 (a draw
at best). When moreover a line fits in the follower's stones and the cells it gets, the
follower completes it, by the last cell at the latest: at most -1 (Pons's scores: -1 is
a loss to the opponent's last stone). That is the leader's ceiling. With an odd number
of empty cells, the mover is the one who can become the follower, after a move: its
floor is the best of its moves after which the opponent's ceiling holds.

Allis's aftereven saves the follower's lines when the leader's cells do hold a line.
The follower gets every empty cell of its own line, each as the cell below it is
played: once the line's columns are filled up to it, the line is complete. A leader's
line that needs, in each of those columns, a cell above it is complete only after
that, when the follower has already won. When every line of the leader's is refuted so
by a line of the follower's, the leader's ceiling is -1 again.

The odd threat turns the follow-up around. With an odd number of empty cells, the
opponent (who moved last) answers every move on top of it too; but one column, holding
one of its winning spots on a pair low and above the column's lowest empty cell, it
pairs from its lowest empty cell up (when that cell is a pair low, it is left out and
paired with the other columns' left-out cells instead), so that the spot is the upper
cell of a pair: the mover can never play right under it without losing to it at once.
That column then stays open under the spot until every other cell is full, when the
mover must play there. When no line fits in the mover's stones and the cells it gets
(the other columns' pair lows and left-out cells, and the spot column's cells below the
spot off the pair lows), it never completes one, and it loses to the spot at the latest
with every cell above the spot still empty: that loss is its ceiling. With an even
number of empty cells, a move that makes such a threat is the mover's floor.

In the search (search.py, kernels/search_body.h) both rules are tried at every node with
an odd number of empty cells: the follower's floor when the window's floor is below 1,
the odd threat's ceiling when the opponent has a spot on a pair low. On the 15 slowest
known positions they take 91.0 M nodes to 49.0 M and 4.8 s to 3.2 s (docs/results-
solver.md). The leader's ceiling would be tried at the other nodes, but there the
parent's floor has always said it first; and the odd threat's floor there finds 9% fewer
nodes but costs more time than it saves: `Solver.bounds` alone uses those two. The
aftereven, part of the leader's ceiling and so of the follower's floor, takes the 26
slowest known from 97.0 M nodes to 75.3 M and 6.2 s to 5.6 s. The one
line test is Geometry.has_alignment (in C, `spots(stones) & stones`: a stone that would
complete a line of the others is in a whole line).
"""

from __future__ import annotations

from functools import cache

from c4tui.engine.board.geometry import Geometry
from c4tui.engine.board.heuristic import heuristic_for

# The follower's lines an aftereven looks at, at most (search_body.h's AFTEREVEN_GROUPS:
# its array's size; past it a bound is missed, never wrong).
AFTEREVEN_GROUPS = 32


def pair_lows(g: Geometry) -> int:
    """The lower cell of every pair: rows height - 2, height - 4, ... of each column."""
    lows = 0
    for col in range(g.width):
        for row in range(g.height - 2, -1, -2):
            lows |= g.bit(col, row)
    return lows


class FollowUp:
    """The follow-up's bounds on one board size; get one with `follow_up_for()`."""

    def __init__(self, g: Geometry) -> None:
        self.geometry = g
        self.board, self.cells = g.board, g.cells
        self.lows = pair_lows(g)
        self.has_line = g.has_alignment
        spots, board = heuristic_for(g).spots, g.board

        def spots_of(stones: int) -> int:
            """Every cell where `stones` would complete a line (occupied or not)."""
            return spots(stones, board)

        self.spots = spots_of

    def leader_ceiling(self, cur: int, mask: int) -> int | None:
        """The mover's ceiling (0 or -1) at an even number of empty cells, or None."""
        lows, has_line = self.lows, self.has_line
        empty = self.board ^ mask
        left_out = self.geometry.playable(mask) & ~lows
        lead = cur | (empty & lows) | left_out
        follow = (cur ^ mask) | (empty & ~lows & ~left_out)
        if not has_line(lead):
            return -1 if has_line(follow) else 0
        # A line of the leader's clear of every cell above the follower's lines is
        # refuted by none of them: a cheap test that ends most calls here (9 in 10).
        if has_line(lead & ~self.above_lines(follow, empty)):
            return None
        return -1 if self.aftereven(lead, follow, empty) else None

    def above(self, cells: int) -> int:
        """Every cell above one of `cells` in its column."""
        board, up, out = self.board, cells, 0
        for _ in range(self.geometry.height - 1):
            up = (up << 1) & board
            out |= up
        return out

    def above_lines(self, follow: int, empty: int) -> int:
        """Every cell above an empty cell of a line within `follow`: a leader's line clear
        of them all is refuted by no aftereven (the cheap test before `aftereven`)."""
        return self.above(self.geometry.alignment_cells(follow) & empty)

    def aftereven(self, lead: int, follow: int, empty: int) -> bool:
        """Whether each line within `lead` has, in every column of some line within
        `follow`, a cell above that line's empty cells (Allis's aftereven).

        Under the follow-up the follower gets every empty cell of its line, each when
        the cell below it is played: once the line's columns are filled up to it, the
        line is complete. A leader's line needing a cell above it in each of those
        columns can be complete only after that, when the follower has won."""
        groups = []  # per follower line: the cells above its empty ones, per column
        for line in self.geometry.alignments(follow):
            cells, columns = line & empty, []
            while cells:
                cell = cells & -cells
                cells ^= cell
                # A vertical line's empty cells are its top ones: the highest counts.
                if cells & self.geometry.column_masks[self.geometry.column_of(cell)]:
                    continue
                columns.append(self.above(cell))
            if columns:
                groups.append(columns)
                if len(groups) == AFTEREVEN_GROUPS:
                    break
        return all(
            any(all(line & above for above in columns) for columns in groups)
            for line in self.geometry.alignments(lead)
        )

    def follower_floor(self, cur: int, mask: int, moves: int) -> int | None:
        """The mover's floor (0 or 1) at an odd number of empty cells: the best of its
        `moves` (one-cell bitboards ORed) after which the opponent's ceiling holds."""
        lows = self.lows
        opp, empty = cur ^ mask, self.board ^ mask
        left_out = self.geometry.playable(mask) & ~lows
        # The opponent gets these cells after any of the moves, and the mover at most
        # `maybe`: a line there that no line of the mover's can refute (leader_ceiling's
        # test), and none works (the usual case far from the end, for a test or two
        # instead of several a move).
        sure = opp | (((empty & lows) | left_out) & ~moves)
        if self.has_line(sure):
            maybe = cur | moves | (empty & ~lows)
            if self.has_line(sure & ~self.above_lines(maybe, empty)):
                return None
        floor = None
        while moves:
            move = moves & -moves
            moves ^= move
            ceiling = self.leader_ceiling(opp, mask | move)
            if ceiling is not None and (floor is None or -ceiling > floor):
                floor = -ceiling
                if floor == 1:  # the most it gives
                    break
        return floor

    def odd_threat_ceiling(self, cur: int, mask: int, their_spots: int) -> int | None:
        """The mover's ceiling at an odd number of empty cells when the opponent holds an
        odd threat the follow-up makes good (the module's docstring), or None.

        `their_spots`: every cell where the opponent's stones would complete a line."""
        lows, g = self.lows, self.geometry
        empty = self.board ^ mask
        bottoms = g.playable(mask)
        spots = their_spots & empty & lows & ~bottoms
        ceiling = None
        while spots:
            spot = spots & -spots
            spots ^= spot
            column = g.column_masks[g.column_of(spot)]
            below = column & (spot - 1) & empty
            # The mover's cells: the pair lows of the other columns, the others' lowest
            # cells off the pair lows (paired among themselves, as the spot column's
            # lowest when it is a pair low), and the spot column's cells below the spot
            # off the pair lows.
            mine = (
                cur
                | (empty & lows & ~column)
                | (bottoms & ~lows & ~column)
                | (bottoms & column & lows)
                | (below & ~lows)
            )
            if self.has_line(mine):
                continue
            above = (column & ~(spot | (spot - 1))).bit_count()
            # The loss to the spot at the latest: every cell above it left empty.
            score = -((above + 2) // 2)
            if ceiling is None or score < ceiling:
                ceiling = score
        return ceiling

    def odd_threat_floor(self, cur: int, mask: int, moves: int) -> int | None:
        """The mover's floor at an even number of empty cells: the best of its `moves`
        after which it holds an odd threat the follow-up makes good, or None."""
        floor = None
        while moves:
            move = moves & -moves
            moves ^= move
            ceiling = self.odd_threat_ceiling(cur ^ mask, mask | move, self.spots(cur | move))
            if ceiling is not None and (floor is None or -ceiling > floor):
                floor = -ceiling
        return floor

    def bounds(self, cur: int, mask: int, moves: int) -> tuple[int | None, int | None]:
        """Every bound the follow-up gives a position of `moves` stones (floor, ceiling),
        None where it gives none."""
        playable = self.geometry.playable(mask)
        if (self.cells - moves) % 2 == 0:
            return self.odd_threat_floor(cur, mask, playable), self.leader_ceiling(cur, mask)
        return self.follower_floor(cur, mask, playable), self.odd_threat_ceiling(
            cur, mask, self.spots(cur ^ mask)
        )


@cache
def follow_up_for(g: Geometry) -> FollowUp:
    return FollowUp(g)
