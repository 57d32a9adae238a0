"""What the network is taught from the solver's scores: its targets, and its mistakes.

The policy target spreads half its weight over the columns that keep the position's
result (win, draw or loss) and half over the columns of the best score (the fastest
win, the slowest loss): a network that keeps the result at every move wins every won
game, and the quicker win is the one a person expects. The value target is the
result itself, 1, 0 or -1 for the side to move. NumPy only: the benchmark and the
tests read mistakes with the same functions the trainer learns from.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from c4tui.engine.learned.labels import FULL

Scores = NDArray[np.int8]


def legal_of(scores: Scores) -> NDArray[np.bool_]:
    return np.asarray(scores != FULL)


def results(scores: Scores) -> NDArray[np.int8]:
    """Each column's result for the side to move: 1, 0, -1 (0 for full columns too)."""
    return np.sign(np.where(legal_of(scores), scores, 0)).astype(np.int8)


def best_results(scores: Scores) -> NDArray[np.int8]:
    """The position's result for the side to move under perfect play."""
    return np.asarray(np.where(legal_of(scores), results(scores), -2).max(axis=1), dtype=np.int8)


def policy_targets(scores: Scores) -> NDArray[np.float32]:
    legal = legal_of(scores)
    keeping = legal & (results(scores) == best_results(scores)[:, None])
    best = np.where(legal, scores.astype(np.int16), -999).max(axis=1)
    top = legal & (scores == best[:, None])
    keep_share = keeping / keeping.sum(axis=1, keepdims=True)
    top_share = top / top.sum(axis=1, keepdims=True)
    return np.asarray(0.5 * keep_share + 0.5 * top_share, dtype=np.float32)


def value_targets(scores: Scores) -> NDArray[np.float32]:
    return best_results(scores).astype(np.float32)


def loses_result(scores: Scores, chosen: NDArray[np.intp]) -> NDArray[np.bool_]:
    """Whether each chosen column gives up the position's result (a win or a draw)."""
    rows = np.arange(len(chosen))
    return np.asarray(results(scores)[rows, chosen] < best_results(scores))


def below_best(scores: Scores, chosen: NDArray[np.intp]) -> NDArray[np.bool_]:
    """Whether each chosen column's exact score is below the best column's."""
    rows = np.arange(len(chosen))
    best = np.where(legal_of(scores), scores.astype(np.int16), -999).max(axis=1)
    return np.asarray(scores[rows, chosen] < best)
