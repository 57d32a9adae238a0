"""Bit masks and alignment tricks for one board size, shared by every engine.

A board of `width` columns and `height` rows is stored Pons-style: each column takes
`height + 1` bits, bottom cell first, and the extra top bit of every column stays empty
so that shifting a bitboard by one column or one diagonal step never wraps a line of
stones from one column into the next. Bit `col * (height + 1) + row` is the cell at
`col` (0 = leftmost) and `row` (0 = bottom).

Python ints have no 64-bit limit, so the same code serves every size from 4x4 to 10x10.
Hot loops (solver, MCTS playouts) read the plain int attributes of a `Geometry` into
locals; everything here is computed once per board size and cached.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache

MIN_WIDTH, MAX_WIDTH = 4, 10
MIN_HEIGHT, MAX_HEIGHT = 4, 10
MIN_CONNECT, MAX_CONNECT = 3, 6
SIZE_LIMITS = {
    "width": (MIN_WIDTH, MAX_WIDTH),
    "height": (MIN_HEIGHT, MAX_HEIGHT),
    "connect": (MIN_CONNECT, MAX_CONNECT),
}


@dataclass(frozen=True, eq=False)
class Geometry:
    """The masks of one (width, height, connect) board; get one with `geometry()`."""

    width: int
    height: int
    connect: int
    # Shifts that step one cell along each of the four line directions:
    # vertical (1), horizontal (h+1), and the two diagonals (h and h+2).
    directions: tuple[int, ...] = field(init=False)
    run_shifts: tuple[tuple[int, int, int], ...] = field(init=False)  # see has_alignment
    bottom: int = field(init=False)  # the bottom cell of every column
    board: int = field(init=False)  # every playable cell
    column_masks: tuple[int, ...] = field(init=False)
    bottom_masks: tuple[int, ...] = field(init=False)
    top_masks: tuple[int, ...] = field(init=False)  # the highest playable cell per column
    cells: int = field(init=False)  # width * height
    max_score: int = field(init=False)  # score of a win with the mover's first stone

    def __post_init__(self) -> None:
        h1 = self.height + 1
        column_masks = tuple(((1 << self.height) - 1) << (c * h1) for c in range(self.width))
        bottom_masks = tuple(1 << (c * h1) for c in range(self.width))
        top_masks = tuple(1 << (self.height - 1 + c * h1) for c in range(self.width))
        set_ = object.__setattr__
        set_(self, "directions", (1, h1, h1 - 1, h1 + 1))
        set_(self, "run_shifts", tuple(run_shifts(self.connect, s) for s in self.directions))
        set_(self, "bottom", sum(bottom_masks))
        set_(self, "board", sum(column_masks))
        set_(self, "column_masks", column_masks)
        set_(self, "bottom_masks", bottom_masks)
        set_(self, "top_masks", top_masks)
        set_(self, "cells", self.width * self.height)
        set_(self, "max_score", (self.width * self.height + 1) // 2)

    def bit(self, col: int, row: int) -> int:
        return 1 << (col * (self.height + 1) + row)

    def has_alignment(self, stones: int) -> bool:
        """True when `stones` holds `connect` in a row in any direction."""
        # Doubling: after `m = s & s >> a` a bit marks a run of 2, after `m &= m >> b` a
        # run of 4 (or 3), and a last `m &= m >> c` stretches it to 5 or 6 (c = 0 when
        # no stretch is needed). Playouts call this after every stone.
        for a, b, c in self.run_shifts:
            m = stones & (stones >> a)
            m &= m >> b
            if m & (m >> c):
                return True
        return False

    def alignment_starts(self, stones: int, step: int) -> int:
        """The first cell of every line of `connect` cells of `stones` along `step`."""
        starts = stones
        for i in range(1, self.connect):
            starts &= stones >> (i * step)
        return starts

    def alignment_cells(self, stones: int) -> int:
        """Every cell of `stones` that is part of a line of `connect` or more."""
        cells = 0
        for s in self.directions:
            starts = self.alignment_starts(stones, s)
            for i in range(self.connect):
                cells |= starts << (i * s)
        return cells

    def alignments(self, stones: int) -> list[int]:
        """Every line of `connect` cells within `stones`, each as its cells."""
        lines = []
        for s in self.directions:
            starts = self.alignment_starts(stones, s)
            while starts:
                start = starts & -starts
                starts ^= start
                lines.append(sum(start << (i * s) for i in range(self.connect)))
        return lines

    def winning_spots(self, stones: int, mask: int) -> int:
        """Empty cells (reachable or not) where one more stone of `stones` makes a line.

        Along each direction, a cell is a spot when, for some j, the j cells after it
        and the `connect - 1 - j` cells before it are all stones. The runs after and
        before each cell are built once per direction and shared by every j.
        """
        spots = 0
        for s in self.directions:
            after = [-1]  # after[k]: cells whose next k cells along s are all stones
            before = [-1]  # before[k]: the same, looking back along s
            run_after = run_before = -1
            for k in range(1, self.connect):
                run_after &= stones >> (k * s)
                run_before &= stones << (k * s)
                after.append(run_after)
                before.append(run_before)
            for j in range(self.connect):
                spots |= after[j] & before[-1 - j]
        return spots & (self.board ^ mask)

    def mirror(self, stones: int) -> int:
        """The stones reflected left to right: column c moves to column width-1-c."""
        h1 = self.height + 1
        column_bits = (1 << h1) - 1
        out = 0
        for col in range(self.width):
            out |= ((stones >> (col * h1)) & column_bits) << ((self.width - 1 - col) * h1)
        return out

    def playable(self, mask: int) -> int:
        """The cell each non-full column would fill next, as one bitboard."""
        return (mask + self.bottom) & self.board

    def column_of(self, bit: int) -> int:
        return (bit.bit_length() - 1) // (self.height + 1)

    def top_stones(self, mask: int, owner: int) -> Iterator[int]:
        """The top stone of each column of `mask` whose top stone is one of `owner`'s:
        the stones that could be taken back, as a one-stone bitboard each."""
        for column in self.column_masks:
            stones = mask & column
            if stones:
                top = 1 << (stones.bit_length() - 1)
                if top & owner:
                    yield top


def centre_distance(col: int, width: int) -> int:
    """How far `col` is from the board's middle, in half columns (a whole number on an
    even width too): 0 for the centre column of 7, 1 for both middle columns of 6."""
    return abs(2 * col - (width - 1))


def centre_first(width: int) -> tuple[int, ...]:
    """Columns from the centre outwards, left first on ties: the usual best first guesses
    (a centre column takes part in the most lines). The one reference of this order."""
    return tuple(sorted(range(width), key=lambda col: (centre_distance(col, width), col)))


def non_losing(playable: int, their_spots: int) -> int:
    """Pons's filter: the playable stones that do not lose at once (0: every move loses).

    An opponent's spot that is playable must be blocked now, and two of them cannot
    both be; and a stone right below an opponent's spot lets them win on top of it.
    `their_spots` are the opponent's winning spots (empty cells).
    """
    forced = playable & their_spots
    if forced:
        if forced & (forced - 1):
            return 0  # two threats: one of them stays open
        playable = forced
    return playable & ~(their_spots >> 1)


def run_shifts(connect: int, step: int) -> tuple[int, int, int]:
    """The three shifts by which `has_alignment` finds runs of `connect` along `step`."""
    if connect <= 4:
        return (step, (connect - 2) * step, 0)
    return (step, 2 * step, (connect - 4) * step)


class SizeError(ValueError):
    """A board size the engines do not support: `setting` is the one at fault ("width",
    "height" or "connect") and `reason` says what is wrong with it."""

    def __init__(self, setting: str, reason: str) -> None:
        super().__init__(f"{setting} {reason}")
        self.setting, self.reason = setting, reason


def validate_size(width: int, height: int, connect: int) -> None:
    """Raise SizeError naming the first setting outside what the engines support (the
    one home of these rules: the game file, the command line and the settings ask it)."""
    for setting, value in (("width", width), ("height", height), ("connect", connect)):
        low, high = SIZE_LIMITS[setting]
        if not low <= value <= high:
            raise SizeError(setting, f"{value} is outside {low}..{high}")
    if connect > max(width, height):
        raise SizeError("connect", f"{connect} cannot fit on a {width}x{height} board")


@cache
def geometry(width: int = 7, height: int = 6, connect: int = 4) -> Geometry:
    validate_size(width, height, connect)
    return Geometry(width, height, connect)
