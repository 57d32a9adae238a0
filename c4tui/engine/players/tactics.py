"""One-move tactics every engine but `random` must never miss: win now, block now."""

from __future__ import annotations

from c4tui.engine.board.geometry import non_losing
from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import win_now_score
from c4tui.engine.players.contract import ColumnStat


def winning_columns(position: Position) -> list[int]:
    """Columns where the side to move completes a line with its next stone."""
    g = position.geometry
    spots = g.winning_spots(position.current, position.mask) & g.playable(position.mask)
    return [c for c in range(g.width) if spots & g.column_masks[c]]


def threatened_columns(position: Position) -> list[int]:
    """Columns where the opponent would complete a line if we let them drop there."""
    g = position.geometry
    spots = g.winning_spots(position.opponent_stones, position.mask) & g.playable(position.mask)
    return [c for c in range(g.width) if spots & g.column_masks[c]]


def forced_move(position: Position) -> int | None:
    """The move tactics dictate: a win in one, else the block of the opponent's threat.

    With two or more threats the game is lost whatever we do; blocking one of them still
    makes the opponent find the other, so the leftmost threat is returned.
    """
    wins = winning_columns(position)
    if wins:
        return wins[0]
    threats = threatened_columns(position)
    return threats[0] if threats else None


def safe_columns(position: Position) -> list[int]:
    """Legal columns that do not put a stone right under an opponent's winning spot."""
    g = position.geometry
    opponent_spots = g.winning_spots(position.opponent_stones, position.mask)
    safe = []
    for c in position.legal_moves():
        above = (position.mask + g.bottom_masks[c]) & g.column_masks[c]
        if not (above << 1) & opponent_spots & g.column_masks[c]:
            safe.append(c)
    return safe


def hands_over_a_win(position: Position) -> list[int]:
    """Columns that do not win now and after which the opponent wins with their next stone.

    Such a column leaves an opponent's threat open (any column but the one block of a
    single threat), or drops a stone right under one of their winning spots: every
    column outside Pons's non-losing moves.
    """
    g = position.geometry
    wins = set(winning_columns(position))
    their_spots = g.winning_spots(position.opponent_stones, position.mask)
    safe = non_losing(g.playable(position.mask), their_spots)
    return [
        col for col in position.legal_moves() if col not in wins and not safe & g.column_masks[col]
    ]


def tactical_stats(position: Position) -> tuple[ColumnStat | None, ...]:
    """What one ply of tactics proves about each column: wins now, and losses in one.

    With no win now, a column that hands over a win (above) loses in one. Other columns
    get an empty ColumnStat, full ones None.
    """
    wins = set(winning_columns(position))
    losing = set(hands_over_a_win(position))
    stats: list[ColumnStat | None] = []
    for col in range(position.width):
        if not position.can_play(col):
            stats.append(None)
        elif col in wins:
            stats.append(ColumnStat(score=win_now_score(position), proven="win"))
        elif not wins and col in losing:
            loss = -win_now_score(position.play(col))
            stats.append(ColumnStat(score=loss, proven="loss"))
        else:
            stats.append(ColumnStat())
    return tuple(stats)
