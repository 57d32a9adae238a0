"""How often a network alone (no search) gives up a position's result, by the exact solver.

The positions are drawn from play: distinct positions of uniformly random games from
the empty board (the `random` games of `labels.py`), labelled by the solver with every
column's exact score. A mistake is the network's own choice (its top prior, read both
ways as `alphazero:sims=0` plays) whose column's result (win, draw, loss) is worse than
the position's (`targets.loses_result`). NumPy only: the positions are
made once per run and every generation's network is measured on the same ones.
"""

from __future__ import annotations

import numpy as np

from c4tui.engine.learned.labels import Batch, Labelled, batches
from c4tui.engine.learned.network import Network, inputs, mirrored_rows
from c4tui.engine.learned.targets import legal_of, loses_result

# Random games on a small board repeat their openings: a game gives a few new positions.
NEW_POSITIONS_PER_GAME = 6


def sample_batches(board: tuple[int, int, int], positions: int, seed: int) -> list[Batch]:
    """The labelling work for about `positions` distinct positions (`distinct` trims)."""
    width, height, connect = board
    games = max(1, positions // NEW_POSITIONS_PER_GAME + 1)
    return list(batches(seed, games, "random", width=width, height=height, connect=connect))


def distinct(data: Labelled, positions: int, seed: int) -> Labelled:
    """At most `positions` of the labelled positions, each once, drawn by `seed`."""
    _, first = np.unique(data.features, axis=0, return_index=True)
    rows = np.random.default_rng(seed).permutation(np.sort(first))[:positions]
    rows.sort()
    return Labelled(data.features[rows], data.scores[rows], data.moves[rows])


def mistakes(network: Network, data: Labelled, chunk: int = 8192) -> int:
    """How many of the positions the network's own choice gives up the result in: its
    top prior read both ways (`Network.both_ways`), as `alphazero:sims=0` plays."""
    w, h, connect, planes = network.width, network.height, network.connect, network.planes
    count = 0
    for start in range(0, len(data), chunk):
        scores = data.scores[start : start + chunk]
        stored = np.unpackbits(data.features[start : start + chunk], axis=1)
        rows = inputs(stored, w, h, connect, planes)
        priors, _ = network.both_ways(rows, mirrored_rows(rows, w, h), legal_of(scores))
        count += int(loses_result(scores, priors.argmax(axis=1)).sum())
    return count
