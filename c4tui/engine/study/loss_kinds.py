"""Why a game was lost, in a word: the threats coach's reason for the move that lost it.

The move that lost a game is the loser's last move that lost a result class
(accuracy.losing_move); the coach (explain.py) reads the solver's refutation of it in
threats' terms. A game lost without such a move was lost before the loser's first
choice (an opening lost for its colour).
"""

from __future__ import annotations

from c4tui.engine.board.position import Position
from c4tui.engine.study.explain import refutation, why_it_loses

# The coach's reasons (explain.Kind), and the two kinds a loss has besides.
KIND_WORDS: dict[str, str] = {
    "open": "left a threat open (a win in one)",
    "under": "dropped a stone under a threat",
    "kept": "did not stop a threat it faced",
    "double": "allowed a double threat",
    "new": "allowed a new threat",
    "zugzwang": "lost the zugzwang (threat parity)",
    "deeper": "lost deeper than threats show",
    "start": "lost before its first choice",
}


def loss_kind(before: Position, column: int) -> str:
    """The kind of the losing move `column` in `before` (a key of KIND_WORDS)."""
    reason = why_it_loses(before, column, refutation(before.play(column)))
    return "deeper" if reason is None else reason.kind
