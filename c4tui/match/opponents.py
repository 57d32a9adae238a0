"""What a match asks of its engines: what their search says a move is worth, and which
engine gives hints."""

from __future__ import annotations

import math

from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import SearchInfo


def evaluation_of(info: SearchInfo, move: int, mover: int) -> float | None:
    """The AI's value of its move in [-1, 1], from the first player's (●) side."""
    if not 0 <= move < len(info.columns) or info.columns[move] is None:
        return None
    stat = info.columns[move]
    assert stat is not None
    if stat.score is not None and (stat.proven is not None or info.exact):
        value: float = (stat.score > 0) - (stat.score < 0)
    elif stat.value is not None:
        value = stat.value
    elif stat.score is not None:
        # NegaMax heuristic scores are unbounded; squash them so the line stays readable.
        value = math.tanh(stat.score / 100)
    else:
        return None
    return value if mover == 0 else -value


HINT_SECONDS = 3


def hint_spec(position: Position) -> str:
    """The strongest helper in time: the perfect player on the book's board, else MCTS."""
    standard = (position.width, position.height, position.connect) == (7, 6, 4)
    if standard or position.width * position.height <= 30:
        # Time-boxed: in pure Python a hard middle game can take a minute to solve; cut
        # short, the perfect player still never suggests a column proven worse.
        return f"perfect:time={HINT_SECONDS:g}"
    return "mcts:time=1"
