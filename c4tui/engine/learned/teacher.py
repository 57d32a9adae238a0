"""A network's judgement one ply ahead, as a policy target (`train distill --teacher`).

The network's value head, read on the position after each column, chooses better than
its own priors do: on Pons's six test sets the shipped network's priors gave up the
result in 13.5 positions of a thousand summed over the sets, and its value head one ply
ahead in 10.8 (docs/learned-engine.md). The priors are what `sims=0` plays and what the
search starts from, so a network goes on learning with its policy target mixed from the
solver's (`targets.policy_targets`) and this one: a softmax over the columns of the
teacher's value of each move (a win at once is worth 1), cool enough that the best
column takes most of the weight and its near rivals keep some. Measured (tenth
session): the shipped network fine-tuned on a million fresh positions so errs on 2.32%
of held-out ones against 2.41% for the same steps on the solver's target alone (2.59%
before); on Pons's sets the two differ by less than their spread (13.1 and 13.2 summed).

NumPy only: the teacher's values are a batched forward pass, made once before training.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from c4tui.engine.learned.network import STORED, Network, spots

# The softmax's temperature over values in [-1, 1]: a column 0.1 worse than the best
# gets e^-1 of its weight.
TEMPERATURE = 0.1
CHUNK = 8192  # children evaluated a pass: a few tens of MB of activations


def one_ply_policy(network: Network, stored: NDArray[np.uint8]) -> NDArray[np.float32]:
    """For rows of stored planes (`network.encode`'s: the mover's stones, the opponent's,
    each open column's next cell), the teacher's policy: a softmax over the legal
    columns of the mover's value after the column (TEMPERATURE), 0 for full ones."""
    width, height, connect = network.width, network.height, network.connect
    n = len(stored)
    board = np.asarray(stored[:, : STORED * width * height], dtype=bool)
    board = board.reshape(n, STORED, width, height)
    mine, theirs, next_cells = board[:, 0], board[:, 1], board[:, 2]
    wins = spots(mine, ~(mine | theirs), connect)
    values = np.full((n, width), -np.inf, dtype=np.float32)
    for column in range(width):
        rows = np.flatnonzero(next_cells[:, column].any(axis=1))
        if not len(rows):
            continue
        row = next_cells[rows, column].argmax(axis=1)  # the cell the stone fills
        every = np.arange(len(rows))
        # The position after the stone, from the opponent's side: the sides swap.
        child = np.zeros((len(rows), STORED, width, height), dtype=np.uint8)
        child[:, 0] = theirs[rows]
        child[:, 1] = mine[rows]
        child[every, 1, column, row] = 1
        child[:, 2] = next_cells[rows]
        child[every, 2, column, row] = 0
        up = row + 1 < height
        child[every[up], 2, column, row[up] + 1] = 1
        flat = child.reshape(len(rows), -1)
        theirs_value = np.concatenate(
            [network.read(flat[start : start + CHUNK])[1] for start in range(0, len(rows), CHUNK)]
        )
        values[rows, column] = np.where(wins[rows, column, row], 1.0, -theirs_value)
    legal = np.isfinite(values)
    scaled = np.where(legal, values / TEMPERATURE, -np.inf)
    weights = np.where(legal, np.exp(scaled - scaled.max(axis=1, keepdims=True)), 0.0)
    return np.asarray(weights / weights.sum(axis=1, keepdims=True), dtype=np.float32)
