"""Threats: the empty cells that would complete a line, their parity, and the zugzwang.

A threat of a side is an empty cell where one more stone of theirs completes a line of
`connect` (reachable now or not). Rows count from 1 at the bottom, as Connect Four
players count them, so on a board of even height the first player (●) wants *odd*
threats and the second player (○) *even* ones (Allis, "A Knowledge-based Approach of
Connect-Four", 1988, section 3.3): when the board fills up, ○ can always answer in the
column ● played in, which hands ● the odd rows and ○ the even ones, unless a threat makes
a cell poisoned for one side.

Which side the zugzwang favours is decided here by playing that filling out: with only
the threats on the board now (no new lines made), both sides drop stones, a side that
reaches its own threat cell wins, and nobody plays right under an opponent's threat
unless forced. Columns without threats are only tempo moves, so they count as a pool;
the rest is a small exact search. This agrees with Allis's rules (an odd threat of ●
with no even threat of ○ gives ● the zugzwang; with no threats ○ holds it and the board
fills to a draw) and settles mixed cases his rules leave to analysis.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from c4tui.engine.board.position import Position

FILL_STATES = 200_000  # the filling-out search gives up past this many states


@dataclass(frozen=True)
class Threat:
    """An empty cell (0-based `col` and `row`, row 0 at the bottom) where `player`'s
    next stone would complete a line."""

    player: int  # 0 is ● (moves first), 1 is ○
    col: int
    row: int

    @property
    def odd(self) -> bool:
        """On an odd row, counting rows from 1 at the bottom."""
        return self.row % 2 == 0

    @property
    def parity(self) -> str:
        return "odd" if self.odd else "even"

    def cell_words(self) -> str:
        """ "column 5, row 2": 1-based, as the board is labelled."""
        return f"column {self.col + 1}, row {self.row + 1}"


def stones_of(position: Position, player: int) -> int:
    """The bitboard of one side's stones."""
    return position.current if position.to_move == player else position.opponent_stones


def threat_cells(position: Position, player: int) -> int:
    """Bitboard of `player`'s threats: empty cells where their stone completes a line."""
    g = position.geometry
    return g.winning_spots(stones_of(position, player), position.mask)


def threats(position: Position) -> tuple[Threat, ...]:
    """Every threat of both sides, by column then row (● first on a shared cell)."""
    g = position.geometry
    cells = (threat_cells(position, 0), threat_cells(position, 1))
    found = []
    for col in range(g.width):
        for row in range(g.height):
            bit = g.bit(col, row)
            found += [Threat(p, col, row) for p in (0, 1) if cells[p] & bit]
    return tuple(found)


def playable_now(position: Position, threat: Threat) -> bool:
    """Whether the threat's cell is the next one its column fills."""
    return position.column_height(threat.col) == threat.row


def double_threat(position: Position, player: int) -> tuple[Threat, Threat] | None:
    """Two threats of `player` that the side to move cannot both stop, when there are:
    two threats playable now, or one playable now with another of theirs right above
    it (blocking the lower one lets them drop on the upper). None when the side to move
    can win at once itself, or has no such pair to face. By column, then row."""
    if position.to_move == player:
        return None
    mover = position.to_move
    if any(t.player == mover and playable_now(position, t) for t in threats(position)):
        return None  # the side to move wins first
    theirs = [t for t in threats(position) if t.player == player]
    now = [t for t in theirs if playable_now(position, t)]
    if len(now) >= 2:
        return now[0], now[1]
    cells = {(t.col, t.row) for t in theirs}
    for threat in now:
        if (threat.col, threat.row + 1) in cells:
            return threat, Threat(player, threat.col, threat.row + 1)
    return None


# ---- the zugzwang -----------------------------------------------------------------


@dataclass(frozen=True)
class Zugzwang:
    """Who wins when the board fills with today's threats alone: `favours` is 0 (●), 1 (○)
    or None (it fills to a draw)."""

    favours: int | None


def zugzwang(position: Position) -> Zugzwang | None:
    """Which side the zugzwang favours; None when it does not apply (odd height, game
    over) or the filling out is too large to settle (see FILL_STATES)."""
    g = position.geometry
    if g.height % 2 or position.is_over():
        return None
    by_column: dict[int, dict[int, int]] = {}  # col -> row -> bitmask of players (1, 2)
    for threat in threats(position):
        by_column.setdefault(threat.col, {})
        by_column[threat.col][threat.row] = by_column[threat.col].get(threat.row, 0) | (
            1 << threat.player
        )
    columns = tuple(sorted(by_column))
    cells = tuple(tuple(by_column[col].get(row, 0) for row in range(g.height)) for col in columns)
    heights = tuple(position.column_height(col) for col in columns)
    pool = sum(g.height - position.column_height(c) for c in range(g.width) if c not in by_column)
    value = _fill(cells, g.height, heights, pool, position.to_move)
    if value is None:
        return None
    return Zugzwang(None if value == 0 else position.to_move if value > 0 else 1 - position.to_move)


def _fill(
    cells: tuple[tuple[int, ...], ...], height: int, heights: tuple[int, ...], pool: int, mover: int
) -> int | None:
    """The filling-out game's value for `mover` (1 win, 0 draw, -1 loss), or None."""
    budget = [FILL_STATES]

    @cache
    def value(heights: tuple[int, ...], pool: int, mover: int) -> int:
        budget[0] -= 1
        if budget[0] < 0:
            raise _TooLarge
        mine, theirs = 1 << mover, 1 << (1 - mover)
        open_columns = [i for i, h in enumerate(heights) if h < height]
        if any(cells[i][heights[i]] & mine for i in open_columns):
            return 1  # a threat of the mover is playable: it wins now
        best = -2
        safe = []
        for i in open_columns:
            h = heights[i]
            if h + 1 < height and cells[i][h + 1] & theirs:
                continue  # right under the opponent's threat: they would play it
            safe.append(i)
        moves = [("pool", -1)] if pool else []
        moves += [("col", i) for i in safe]
        if not moves:
            if not open_columns:
                return 0  # the board is full
            return -1  # every column hands the opponent a threat
        for kind, i in moves:
            if kind == "pool":
                result = -value(heights, pool - 1, 1 - mover)
            else:
                grown = (*heights[:i], heights[i] + 1, *heights[i + 1 :])
                result = -value(grown, pool, 1 - mover)
            best = max(best, result)
            if best == 1:
                break
        return best

    try:
        return value(heights, pool, mover)
    except _TooLarge:
        return None


class _TooLarge(Exception):
    """The filling-out search passed its budget."""
