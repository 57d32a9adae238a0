"""The teacher's policy (`teacher.py`): the network's value one ply ahead, as a softmax."""

from __future__ import annotations

import random

import numpy as np
import pytest

from c4tui.engine.board.position import Position
from c4tui.engine.learned.network import encode
from c4tui.engine.learned.teacher import TEMPERATURE, one_ply_policy
from tests.engine.learned.nets import random_network


def reference(network, position):
    """The teacher read slowly: each legal column's position made by the rules and
    evaluated from its bitboards (`Network.evaluate`), a win at once worth 1."""
    values = np.full(position.width, -np.inf)
    for column in position.legal_moves():
        if position.is_winning_move(column):
            values[column] = 1.0
        else:
            with np.errstate(invalid="ignore"):  # a full board's priors: none to share
                values[column] = -network.evaluate(position.play(column))[1]
    weights = np.exp((values - values.max()) / TEMPERATURE)
    return weights / weights.sum()


def random_positions(width, height, connect, count, seed):
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        position = Position.start(width, height, connect)
        for _ in range(rng.randrange(width * height)):
            if position.is_over():
                break
            position = position.play(rng.choice(position.legal_moves()))
        if not position.is_over():
            positions.append(position)
    return positions


@pytest.mark.parametrize("board", [(7, 6, 4), (5, 4, 4), (6, 5, 3)])
def test_the_teacher_is_the_value_of_each_move_read_one_at_a_time(board):
    network = random_network(*board, seed=3)
    positions = random_positions(*board, count=60, seed=5)
    taught = one_ply_policy(network, np.stack([encode(p) for p in positions]))
    for position, row in zip(positions, taught, strict=True):
        assert np.allclose(row, reference(network, position), atol=1e-5)
        assert all(row[c] == 0 for c in range(position.width) if not position.can_play(c))


def test_a_win_at_once_takes_the_weight_and_full_columns_none():
    # Column 1 (0-based) completes the mover's vertical line; column 4 is full.
    position = Position.from_moves("21212155555536")
    assert position.is_winning_move(1) and not position.can_play(4)
    (row,) = one_ply_policy(random_network(seed=1), encode(position)[None, :])
    assert row.argmax() == 1 and row[4] == 0 and abs(row.sum() - 1) < 1e-6


def test_a_trainer_with_a_teacher_mixes_its_policy_into_the_target():
    pytest.importorskip("jax")
    from c4tui.engine.learned import training
    from c4tui.engine.learned.labels import Batch, label_batch

    data = label_batch(Batch(seed=2, games=2, kind="random", width=5, height=4, connect=4))
    teacher = random_network(5, 4, 4, seed=4)
    config = training.Config(width=5, height=4, hidden=16, blocks=1, epochs=1)
    plain = training.Trainer(config, data)
    share = training.Config(**(vars(config) | {"teacher": "x", "teacher_share": 0.25}))
    taught = training.Trainer(share, data, teacher=teacher)
    expected = 0.75 * plain.train.policy + 0.25 * one_ply_policy(teacher, plain.train.x)
    assert np.allclose(taught.train.policy, expected)
    assert np.array_equal(taught.test.policy, plain.test.policy)  # held out: the solver's
