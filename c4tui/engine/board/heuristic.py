"""How NegaMax judges a position it cannot search to the end: threats and open windows.

A window is `connect` cells in a row in one of the four directions. A window holding
only one player's stones is still open for that player; the more stones it holds,
the closer that player is to a line. A window holding `connect - 1` stones and one
empty cell makes that cell a winning spot (a threat), worth most of all, and more
when it sits on a row where the endgame's zugzwang favours its owner.

Everything works on whole bitboards (layout in `geometry.py`), so one evaluation costs
a few hundred integer operations whatever the board size.
"""

from __future__ import annotations

from functools import cache

from c4tui.engine.board.geometry import Geometry

# What an open window is worth by the stones in it: 1, 4, 16, ... The seed's streak
# weights (1, 8, 128) grow faster; with the threats counted on their own, a gentler
# ratio kept the solved result slightly more often (benchmarks/strength.py, depth 5).
STONE_RATIO = 4
THREAT = 96  # each winning spot, on top of the windows that make it
GOOD_ROW_THREAT = 64  # extra for a spot on a row the zugzwang gives to its owner
# The side to move is worth about this much more than the stones show: the other side
# has just used its move. It keeps the scores of odd and even depths closer together.
TEMPO = 16


class Heuristic:
    """The window and threat masks of one board size; get one with `heuristic_for()`."""

    def __init__(self, g: Geometry) -> None:
        self.geometry = g
        self.connect = n = g.connect
        h1 = g.height + 1
        self.empty_board = g.board
        # (step, cells where a window of `n` cells along that step may start)
        windows = []
        for step, dc, dr in ((1, 0, 1), (h1, 1, 0), (h1 - 1, 1, -1), (h1 + 1, 1, 1)):
            starts = 0
            for col in range(g.width):
                for row in range(g.height):
                    end_col, end_row = col + dc * (n - 1), row + dr * (n - 1)
                    if 0 <= end_col < g.width and 0 <= end_row < g.height:
                        starts |= g.bit(col, row)
            if starts:
                windows.append((step, starts))
        # The layout of `evaluate`'s stacked ints: theirs above mine, with a gap no window
        # can bridge, and the four directions' counts side by side.
        board_bits = g.width * h1
        self.side_offset = side = board_bits + n * (h1 + 1)
        stride = 2 * side
        self.windows = tuple(
            (step, starts | (starts << side), i * stride)
            for i, (step, starts) in enumerate(windows)
        )
        self.mine_half = sum(((1 << side) - 1) << (i * stride) for i in range(len(windows)))
        weights = tuple(0 if k == 0 else STONE_RATIO ** (k - 1) for k in range(n))
        self.terms = window_terms(weights)
        # Rows counted from the bottom: with an even number of rows the first player
        # profits from threats on odd rows (1, 3, 5) and the second from even ones.
        odd_rows = sum(g.bit(c, r) for c in range(g.width) for r in range(0, g.height, 2))
        self.good_rows = (odd_rows, g.board ^ odd_rows) if g.height % 2 == 0 else (0, 0)
        self.steps = (h1, h1 - 1, h1 + 1)  # the directions a spot can have stones on both sides
        if n == 4:
            self.spots = self._spots4  # type: ignore[method-assign]  # connect 4: the unrolled finder on this instance

    def spots(self, stones: int, empty: int) -> int:
        """Empty cells where one more of `stones` makes a line (as Geometry.winning_spots).

        (Replaced by `_spots4` on connect-4 boards when the object is built.)

        For each direction, `left[k]` marks cells whose k nearest neighbours on one side
        are all stones and `right[k]` the same on the other side; a cell with j on one
        side and `connect - 1 - j` on the other completes a line.
        """
        n = self.connect
        # Vertically a spot can only sit on top of its column's stones.
        found = stones << 1
        for k in range(2, n):
            found &= stones << k
        for step in self.steps:
            left = [-1]
            right = [-1]
            run_left = run_right = -1
            for k in range(1, n):
                run_left &= stones << (k * step)
                run_right &= stones >> (k * step)
                left.append(run_left)
                right.append(run_right)
            for j in range(n):
                found |= left[j] & right[n - 1 - j]
        return found & empty

    def spot_pair(self, mine: int, theirs: int, empty: int) -> tuple[int, int]:
        """`spots` of both sides in one pass: theirs ride above mine in one int, with the
        same gap `evaluate` uses, too wide for any line to reach across."""
        side = self.side_offset
        found = self.spots(mine | (theirs << side), empty | (empty << side))
        return found & empty, found >> side

    def _spots4(self, stones: int, empty: int) -> int:
        """`spots` written out for connect 4, the common case, where speed matters most."""
        found = (stones << 1) & (stones << 2) & (stones << 3)
        for step in self.steps:
            left1 = stones << step
            left2 = left1 & (stones << (2 * step))
            right1 = stones >> step
            right2 = right1 & (stones >> (2 * step))
            found |= (
                (left2 & (stones << (3 * step)))
                | (left2 & right1)
                | (left1 & right2)
                | (right2 & (stones >> (3 * step)))
            )
        return found & empty

    def evaluate(
        self, mine: int, theirs: int, empty: int, mover: int, my_spots: int, their_spots: int
    ) -> int:
        """The value of the position for the side to move (`mine`), who is player `mover`.

        `my_spots` and `their_spots` are `spots()` of each side, which the search has at
        hand already.
        """
        wide = self.connect > 4  # an open window may hold 4 or more stones: 3 count bits
        side = self.side_offset
        # Both players in one int, theirs shifted above mine with a gap wider than any
        # window, so every shift and count below serves the two of them at once.
        both = mine | (theirs << side)
        planes = [0, 0, 0]
        for step, starts, offset in self.windows:
            # Bit-sliced counters: for every window start, the bits c1, c2, c4 of how
            # many of its cells hold stones, and whether any does (`seen`).
            c1 = seen = both
            c2 = c4 = 0
            for shift in range(step, self.connect * step, step):
                x = both >> shift
                seen |= x
                carry = c1 & x
                c1 ^= x
                if wide:
                    c4 |= c2 & carry
                c2 ^= carry
            # A window is open for one side when the other side's half saw no stone.
            open_ = starts & ~((seen >> side) | (seen << side))
            planes[0] |= (open_ & c1) << offset
            planes[1] |= (open_ & c2) << offset
            if wide:
                planes[2] |= (open_ & c4) << offset
        mine_half = self.mine_half
        score = TEMPO
        for weight, first, rest in self.terms:
            x = planes[first]
            for plane in rest:
                x &= planes[plane]
            # Mine counted positively, theirs negatively: 2 * mine - (mine + theirs).
            score += weight * (2 * (x & mine_half).bit_count() - x.bit_count())
        mine_good, theirs_good = self.good_rows[mover], self.good_rows[1 - mover]
        score += THREAT * (my_spots.bit_count() - their_spots.bit_count())
        score += GOOD_ROW_THREAT * ((my_spots & mine_good).bit_count())
        score -= GOOD_ROW_THREAT * ((their_spots & theirs_good).bit_count())
        return score


def window_terms(weights: tuple[int, ...]) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """Write "weight of a window holding k stones" as a sum over the bits of k.

    With k's bits b0, b1, b2, any table f(k) equals a sum of c_S times the product of
    the bits in S, over subsets S (inclusion-exclusion), so the evaluation needs one
    popcount per non-zero c_S instead of one mask per k. Each term is (c_S, first plane,
    other planes).
    """

    def f(k: int) -> int:
        # Counts of `connect` or more never occur in an open window of a game still going,
        # so they may take any value: repeating the table every 4 makes the b2 terms
        # vanish when two bits suffice.
        k = k % 4 if len(weights) <= 4 else k
        return weights[k] if k < len(weights) else 0

    terms = []
    for subset in range(1, 8):
        coefficient = 0
        for part in range(subset + 1):
            if part & subset == part:
                sign = -1 if (subset ^ part).bit_count() & 1 else 1
                coefficient += sign * f(part)
        if coefficient:
            bits = [b for b in range(3) if subset >> b & 1]
            terms.append((coefficient, bits[0], tuple(bits[1:])))
    return tuple(terms)


@cache
def heuristic_for(g: Geometry) -> Heuristic:
    return Heuristic(g)
