"""The self-play learner (the `train` extra; skipped without it): the moving average of
its weights is the network it hands out, and it survives a checkpoint."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("jax")

from c4tui.engine.board.position import Position
from c4tui.engine.learned.learner import Learner
from c4tui.engine.learned.network import encode
from c4tui.engine.learned.selfplay import LearnerSettings, Samples

BOARD = (5, 4, 4)


def samples(count: int = 64) -> Samples:
    rng = random.Random(3)
    planes, policy = [], []
    for _ in range(count):
        position = Position.start(*BOARD)
        for _ in range(rng.randrange(8)):
            position = position.play(rng.choice(position.legal_moves()))
        planes.append(encode(position))
        shares = np.array([position.can_play(c) for c in range(BOARD[0])], np.float32)
        policy.append(shares / shares.sum())
    value = np.array([rng.choice((-1.0, 0.0, 1.0)) for _ in range(count)], np.float32)
    return Samples(np.array(planes, np.uint8), np.array(policy), value, np.zeros(1, np.int8))


def learner(average: int) -> Learner:
    return Learner(BOARD, LearnerSettings(hidden=16, blocks=1, batch=16, average=average), 5)


def test_without_an_average_the_latest_weights_play():
    one = learner(0)
    one.train(samples(), 3, seed=1)
    network = one.network({})
    assert all(np.array_equal(network.weights[n], np.asarray(w)) for n, w in one.params.items())


def test_the_network_handed_out_is_the_moving_average_of_the_weights():
    one = learner(1000)
    window = samples()
    expected = None
    for step in range(4):
        keep = one.keep_share()
        one.train(window, 1, seed=step)
        latest = {name: np.asarray(w) for name, w in one.params.items()}
        expected = (
            latest
            if expected is None
            else {name: keep * expected[name] + (1 - keep) * latest[name] for name in latest}
        )
    assert one.steps_taken == 4 and 0 < one.keep_share() < 1
    network = one.network({})
    for name, weights in expected.items():
        assert np.allclose(network.weights[name], weights, atol=1e-6), name
    assert not np.allclose(network.weights["w_in"], np.asarray(one.params["w_in"]))


def test_the_average_comes_back_from_a_checkpoint_and_starts_at_the_weights_in_old_ones():
    one = learner(1000)
    one.train(samples(), 5, seed=1)
    arrays = one.state_arrays()
    again = learner(1000)
    again.restore(_Arrays(arrays))
    assert again.steps_taken == 5
    assert np.array_equal(again.network({}).weights["w_in"], one.network({}).weights["w_in"])
    old = {name: a for name, a in arrays.items() if not name.startswith("mean_")}
    del old["steps_taken"]
    older = learner(1000)
    older.restore(_Arrays(old))
    assert older.steps_taken == 0
    assert np.array_equal(older.network({}).weights["w_in"], np.asarray(one.params["w_in"]))


class _Arrays(dict):
    """A checkpoint's arrays as `np.load` gives them: a mapping with `files`."""

    @property
    def files(self) -> list[str]:
        return list(self)
