"""Training with JAX (the `train` extra; skipped without it)."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")

from c4tui.engine.learned.labels import Batch, Labelled, label_batch  # noqa: E402
from c4tui.engine.learned.network import load, save  # noqa: E402
from c4tui.engine.learned.training import (  # noqa: E402
    Config,
    Trainer,
    config_for,
    examples,
    forward,
)

CONFIG = Config(
    width=5,
    height=4,
    connect=3,
    hidden=32,
    value_hidden=8,
    blocks=1,
    epochs=10,
    batch=64,
    held_out=0.3,
    seed=2,
)


@pytest.fixture(scope="module")
def data() -> Labelled:
    return Labelled.join(
        [
            label_batch(Batch(seed=s, games=20, kind="random", width=5, height=4, connect=3))
            for s in range(3)
        ]
    )


def test_the_jax_forward_pass_is_the_numpy_one(data, tmp_path):
    trainer = Trainer(CONFIG, data)
    save(tmp_path / "n.npz", trainer.network())
    network = load(tmp_path / "n.npz")
    rows = examples(data, CONFIG, mirrored=False).x[:50]
    logits, values = forward(trainer.params, jax.numpy.asarray(rows), CONFIG.blocks)
    np_logits, np_values = network.forward(rows)
    assert np.allclose(logits, np_logits, atol=1e-4) and np.allclose(values, np_values, atol=1e-5)


def test_training_lowers_the_held_out_policy_and_value_losses(data):
    trainer = Trainer(CONFIG, data)
    before = trainer.held_out()
    losses = []
    trainer.run(lambda progress: losses.append(progress.loss))
    after = trainer.held_out()
    assert len(losses) == trainer.steps
    assert after["policy"] < before["policy"] and after["value"] < before["value"]


def test_a_resumed_run_ends_where_an_unbroken_one_does(data, tmp_path):
    unbroken = Trainer(CONFIG, data)
    unbroken.run(lambda _: None)
    checkpoint = tmp_path / "run.npz"
    first = Trainer(CONFIG, data)

    class Stop(Exception):
        pass

    def stop_midway(progress):
        if progress.step == first.steps // 2:
            raise Stop

    with pytest.raises(Stop):
        first.run(stop_midway, checkpoint, every=1)
    resumed = Trainer(CONFIG, data)
    resumed.resume(checkpoint)
    assert resumed.step == first.steps // 2
    resumed.run(lambda _: None)
    for name, weights in unbroken.params.items():
        assert np.allclose(weights, resumed.params[name], atol=1e-6), name


def test_a_run_started_from_a_network_goes_on_from_its_weights(data, tmp_path):
    first = Trainer(CONFIG, data)
    first.run(lambda _: None)
    save(tmp_path / "n.npz", first.network())
    network = load(tmp_path / "n.npz")
    config = config_for(network, epochs=1, batch=64, held_out=0.3, seed=2, start="n")
    assert (config.hidden, config.value_hidden, config.blocks) == (32, 8, 1)
    again = Trainer(config, data, network)
    for name, weights in first.params.items():
        assert np.allclose(weights, again.params[name], atol=1e-6), name
    # Same weights, same held-out rows: the same figures before any step.
    assert again.held_out() == pytest.approx(first.held_out(), abs=1e-6)


def test_a_network_of_another_size_is_no_start(data):
    network = Trainer(CONFIG, data).network()
    wider = Config(**{**CONFIG.__dict__, "hidden": 64})
    with pytest.raises(ValueError, match="another board or size"):
        Trainer(wider, data, network)
