"""Training on self-play's samples, generation after generation (JAX and optax).

One network is trained for the whole run, as in AlphaZero: each generation it takes
`steps` batches drawn from the replay window (the newest samples), each position also
taught as its mirror image, with the loss `training.py` defines (cross-entropy to the
search's visit shares, squared error to the game's result) and AdamW at a constant rate.
Its weights and the optimiser's state go into the run's checkpoint (`state_arrays`)
and come back on resume (`restore`). Needs the `train` extra, as `training.py` does.

With `LearnerSettings.average`, the network a generation plays and keeps is not the
latest weights but their exponential moving average over about that many steps: at a
constant rate the weights wander around the loss's valley from one generation to the
next (a 5x4 run's last generations erred on 1.20-1.36% of the measuring positions),
and their mean lies nearer its floor (the mean of that run's last 16 generations:
0.75%). The average's horizon grows with the steps taken, up to `average`, so the
first generations are not held back by the random weights they started from.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax
from numpy.typing import NDArray

from c4tui.engine.learned.network import STORED, Network, block_names, inputs, mirrored_rows
from c4tui.engine.learned.selfplay import LearnerSettings, Samples
from c4tui.engine.learned.training import (
    Config,
    Params,
    init_params,
    loss_fn,
    pack_state,
    unpack_state,
)


def mirrored(samples: Samples, width: int, height: int) -> tuple[NDArray[Any], NDArray[Any]]:
    """Every sample's planes and policy with their mirror images after them."""
    both = np.concatenate([samples.planes, mirrored_rows(samples.planes, width, height)])
    return both, np.concatenate([samples.policy, samples.policy[:, ::-1]])


class Learner:
    """The run's one network in training: `train` a generation, `network` to play it."""

    def __init__(self, board: tuple[int, int, int], settings: LearnerSettings, seed: int) -> None:
        self.board = board
        self.settings = settings
        width, height, connect = board
        self.config = Config(
            width=width,
            height=height,
            connect=connect,
            hidden=settings.hidden,
            value_hidden=settings.value_hidden,
            blocks=settings.blocks,
            batch=settings.batch,
            seed=seed,
            planes=settings.planes,
        )
        self.optimiser = optax.adamw(settings.learning_rate, weight_decay=settings.weight_decay)
        self.params: Params = init_params(self.config, jax.random.PRNGKey(seed))
        self.opt_state = self.optimiser.init(self.params)
        self.mean: Params = dict(self.params)  # the moving average (`settings.average`)
        self.steps_taken = 0
        blocks = settings.blocks

        def update(params: Params, opt_state: Any, batch: dict[str, jax.Array]) -> Any:
            (_loss, figures), grads = jax.value_and_grad(loss_fn, has_aux=True)(
                params, batch, blocks
            )
            updates, opt_state = self.optimiser.update(grads, opt_state, params)
            return optax.apply_updates(params, updates), opt_state, figures

        def follow(mean: Params, params: Params, keep: jax.Array) -> Params:
            return {name: keep * mean[name] + (1 - keep) * params[name] for name in mean}

        self._update = jax.jit(update)
        self._follow = jax.jit(follow)

    def keep_share(self) -> float:
        """How much of the average the next step keeps: its horizon is a tenth of the
        steps taken so far, at most `settings.average` (the weights' first steps, far
        from any good network, leave the average soon)."""
        horizon = min(self.settings.average, 1 + self.steps_taken / 10)
        return 1.0 - 1.0 / horizon

    def train(self, window: Samples, steps: int, seed: int) -> dict[str, float]:
        """`steps` batches from the window; the mean policy and value losses."""
        width, height, connect = self.board
        planes, policy = mirrored(window, width, height)
        value = np.concatenate([window.value, window.value])
        next_cells = planes.reshape(-1, STORED, width * height)[:, 2]
        x = inputs(planes, width, height, connect, self.settings.planes, np.uint8)
        legal = np.asarray(next_cells.reshape(-1, width, height).any(axis=2))
        # "accuracy" in loss_fn: the top prior is one of the search's most visited columns.
        top = policy >= policy.max(axis=1, keepdims=True)
        rng = np.random.default_rng(seed)
        sums = {"policy": 0.0, "value": 0.0}
        for _ in range(steps):
            rows = rng.integers(0, len(value), min(self.settings.batch, len(value)))
            batch = {
                "x": jnp.asarray(x[rows], jnp.float32),
                "legal": jnp.asarray(legal[rows]),
                "policy": jnp.asarray(policy[rows]),
                "value": jnp.asarray(value[rows]),
                "keeps": jnp.asarray(top[rows], jnp.float32),
            }
            self.params, self.opt_state, figures = self._update(self.params, self.opt_state, batch)
            if self.settings.average:
                self.mean = self._follow(self.mean, self.params, self.keep_share())
            self.steps_taken += 1
            for name in sums:
                sums[name] += float(figures[name])
        return {name: total / max(steps, 1) for name, total in sums.items()}

    def network(self, about: dict[str, Any]) -> Network:
        width, height, connect = self.board
        blocks = self.settings.blocks
        played = self.mean if self.settings.average else self.params
        weights = {name: np.asarray(played[name]) for name in block_names(blocks)}
        made = {"trained": "c4tui train selfplay", "learner": asdict(self.settings)}
        return Network(width, height, connect, blocks, weights, made | about, self.settings.planes)

    def state_arrays(self) -> dict[str, NDArray[Any]]:
        # The average only where it is kept: without one it is a copy of nothing used.
        mean = {f"mean_{name}": np.asarray(weights) for name, weights in self.mean.items()}
        steps = {"steps_taken": np.array(self.steps_taken)}
        kept = mean if self.settings.average else {}
        return pack_state(self.params, self.opt_state) | kept | steps

    def restore(self, arrays: Any) -> None:
        self.params, self.opt_state = unpack_state(arrays, self.params, self.opt_state)
        # A checkpoint from before the average was kept starts it at the weights.
        files = set(arrays)
        self.mean = {
            name: jnp.asarray(arrays[f"mean_{name}"]) if f"mean_{name}" in files else weights
            for name, weights in self.params.items()
        }
        self.steps_taken = int(arrays["steps_taken"]) if "steps_taken" in files else 0
