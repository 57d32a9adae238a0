"""A naive exact minimax over `Position`, the reference the solver is checked against.

No pruning, no ordering, no bit tricks beyond what `Position` offers: every line is
played out. A memo keyed by the position only avoids re-solving transpositions, which
keeps boards up to 5x4 within a second or two.
"""

from __future__ import annotations

from c4tui.engine.board.position import Position


def brute_force_score(position: Position, memo: dict | None = None) -> int:
    """The exact score of a position that is not over (convention of `scores.py`)."""
    memo = {} if memo is None else memo
    if position in memo:
        return memo[position]
    g = position.geometry
    best = None
    for col in position.legal_moves():
        if position.is_winning_move(col):
            score = (g.cells + 1 - position.moves) // 2
        else:
            child = position.play(col)
            score = 0 if child.is_draw() else -brute_force_score(child, memo)
        if best is None or score > best:
            best = score
    memo[position] = best
    return best


def brute_force_columns(position: Position, memo: dict | None = None) -> list[int | None]:
    """Every column's exact score from the mover's side (None when full)."""
    memo = {} if memo is None else memo
    g = position.geometry
    scores: list[int | None] = []
    for col in range(g.width):
        if not position.can_play(col):
            scores.append(None)
        elif position.is_winning_move(col):
            scores.append((g.cells + 1 - position.moves) // 2)
        else:
            child = position.play(col)
            scores.append(0 if child.is_draw() else -brute_force_score(child, memo))
    return scores
