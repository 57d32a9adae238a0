"""Training a network on labelled positions, with JAX and optax (the `train` extra).

This module imports JAX: only `c4tui train` loads it, and the default install never
does (inference is `network.py`, NumPy alone). JAX does the gradients and optax the
optimiser (AdamW on a cosine schedule); the forward pass here is `Network.forward`
written in `jax.numpy`, and a test holds the two to the same answers.

A run is reproducible from its seed: the initial weights, the held-out split and the
order of the examples all come from it. Checkpoints (`.npz`: the weights, the
optimiser's state, the step, the configuration) let a run resume where it stopped.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax
from numpy.typing import NDArray

from c4tui.engine.learned.labels import Labelled
from c4tui.engine.learned.network import (
    MAX_NETWORK_BYTES,
    PLANES,
    STORED,
    Network,
    block_names,
    expected_shapes,
    inputs,
)
from c4tui.engine.learned.targets import legal_of, policy_targets, value_targets
from c4tui.engine.learned.teacher import one_ply_policy
from c4tui.engine.regular_files import read_arrays, write_whole

Params = dict[str, jax.Array]


@dataclass(frozen=True)
class Config:
    """What a run trains: the board, the network's size, the schedule, the seed."""

    width: int = 7
    height: int = 6
    connect: int = 4
    hidden: int = 256
    value_hidden: int = 64
    blocks: int = 3
    epochs: int = 10
    batch: int = 512
    learning_rate: float = 2e-3
    weight_decay: float = 1e-4
    held_out: float = 0.05  # share of the positions kept out of training, to measure
    seed: int = 0
    planes: int = PLANES  # what the network reads (`network.inputs`)
    # The SHA-256 of the network file the run starts from ("": random weights), so a
    # checkpoint is never resumed by a run that starts elsewhere.
    start: str = ""
    # The teacher's (`teacher.py`; "": none) and its share of the policy target.
    teacher: str = ""
    teacher_share: float = 0.0

    def shapes(self) -> dict[str, tuple[int, ...]]:
        """The shape of each of the network's weights (`network.expected_shapes`)."""
        c = self
        return expected_shapes(c.width, c.height, c.hidden, c.value_hidden, c.blocks, c.planes)


def init_params(config: Config, key: jax.Array) -> Params:
    """He-initialised weights (zero biases) of every layer `network.py` names."""
    shapes = config.shapes()
    params: Params = {}
    for name, shape in shapes.items():
        key, sub = jax.random.split(key)
        if name.startswith("b_"):
            params[name] = jnp.zeros(shape, jnp.float32)
        else:
            # The second layer of each block starts small, so a block starts near identity.
            scale = math.sqrt(2.0 / shape[0]) * (0.1 if name.startswith("w_b") else 1.0)
            params[name] = scale * jax.random.normal(sub, shape, jnp.float32)
    return params


def config_for(network: Network, **schedule: Any) -> Config:
    """The configuration of a run that goes on from `network`: its board and size, with
    the schedule (epochs, batch, learning rate, seed...) given."""
    return Config(
        width=network.width,
        height=network.height,
        connect=network.connect,
        hidden=network.hidden,
        value_hidden=network.value_hidden,
        blocks=network.blocks,
        planes=network.planes,
        **schedule,
    )


def start_params(config: Config, network: Network) -> Params:
    """A network's weights as a run's first ones (float32, whatever the file stored)."""
    shapes = config.shapes()
    wrong = [name for name, shape in shapes.items() if network.weights[name].shape != shape]
    board = (network.width, network.height, network.connect, network.planes)
    if wrong or board != (config.width, config.height, config.connect, config.planes):
        raise ValueError("the network is of another board or size than the run")
    return {name: jnp.asarray(network.weights[name], jnp.float32) for name in shapes}


def forward(params: Params, features: jax.Array, blocks: int) -> tuple[jax.Array, jax.Array]:
    """`Network.forward` in jax.numpy: (policy logits, values) of a batch."""
    hidden = jax.nn.relu(features @ params["w_in"] + params["b_in"])
    for i in range(blocks):
        inner = jax.nn.relu(hidden @ params[f"w_a{i}"] + params[f"b_a{i}"])
        hidden = jax.nn.relu(hidden + inner @ params[f"w_b{i}"] + params[f"b_b{i}"])
    logits = hidden @ params["w_policy"] + params["b_policy"]
    value_hidden = jax.nn.relu(hidden @ params["w_v1"] + params["b_v1"])
    values = jnp.tanh(value_hidden @ params["w_v2"] + params["b_v2"])[:, 0]
    return logits, values


def loss_fn(
    params: Params, batch: dict[str, jax.Array], blocks: int
) -> tuple[jax.Array, dict[str, jax.Array]]:
    logits, values = forward(params, batch["x"], blocks)
    logits = jnp.where(batch["legal"], logits, -1e9)
    policy = optax.softmax_cross_entropy(logits, batch["policy"]).mean()
    value = jnp.mean((values - batch["value"]) ** 2)
    # Whether the top prior keeps the result: the accuracy the benchmark measures.
    chosen = jnp.argmax(logits, axis=1)
    keeps = jnp.take_along_axis(batch["keeps"], chosen[:, None], axis=1)[:, 0]
    return policy + value, {"policy": policy, "value": value, "accuracy": keeps.mean()}


@dataclass(frozen=True)
class Examples:
    """Positions as the network reads them, with their targets (NumPy arrays)."""

    x: NDArray[np.uint8]  # the network's inputs, 0 or 1: floats a batch at a time
    legal: NDArray[np.bool_]
    policy: NDArray[np.float32]
    value: NDArray[np.float32]
    keeps: NDArray[np.float32]  # 1 for the columns that keep the result

    def __len__(self) -> int:
        return len(self.value)

    def take(self, rows: NDArray[np.intp]) -> dict[str, jax.Array]:
        batch = {
            name: jnp.asarray(getattr(self, name)[rows])
            for name in ("legal", "policy", "value", "keeps")
        }
        return batch | {"x": jnp.asarray(self.x[rows], jnp.float32)}


def examples(data: Labelled, config: Config, *, mirrored: bool = True) -> Examples:
    """The labelled positions (and, `mirrored`, their mirror images) as training rows."""
    c = config
    bits = np.unpackbits(data.features, axis=1)[:, : STORED * c.width * c.height]
    scores = data.scores
    if mirrored:
        planes = bits.reshape(-1, STORED, c.width, c.height)[:, :, ::-1, :]
        bits = np.concatenate([bits, planes.reshape(len(bits), -1)])
        scores = np.concatenate([scores, scores[:, ::-1]])
    from c4tui.engine.learned.targets import best_results, results

    keeps = legal_of(scores) & (results(scores) == best_results(scores)[:, None])
    return Examples(
        inputs(bits, c.width, c.height, c.connect, c.planes, np.uint8),
        legal_of(scores),
        policy_targets(scores),
        value_targets(scores),
        keeps.astype(np.float32),
    )


@dataclass
class Progress:
    """What a running training reports after each step."""

    step: int
    steps: int
    epoch: int
    loss: float
    held_out: dict[str, float] | None = None  # the held-out figures, after each epoch


class Trainer:
    """One run: data split, optimiser, steps, held-out figures, checkpoints and export."""

    def __init__(
        self,
        config: Config,
        data: Labelled,
        start: Network | None = None,
        teacher: Network | None = None,
    ) -> None:
        """`start`: a network to go on training (fine-tuning) instead of random weights;
        `config` is then `config_for(start, ...)`'s. `teacher`: a network whose judgement
        one ply ahead makes `config.teacher_share` of the policy target (`teacher.py`);
        the held-out figures stay the solver's."""
        self.config = config
        rng = np.random.default_rng(config.seed)
        order = rng.permutation(len(data))
        cut = int(len(data) * config.held_out)
        # Hold out positions, not rows: a position's mirror image stays on its side.
        held = Labelled(
            data.features[order[:cut]], data.scores[order[:cut]], data.moves[order[:cut]]
        )
        kept = Labelled(
            data.features[order[cut:]], data.scores[order[cut:]], data.moves[order[cut:]]
        )
        self.train = examples(kept, config)
        if teacher is not None and config.teacher_share > 0:
            taught = one_ply_policy(teacher, self.train.x)
            share = config.teacher_share
            mixed = (1 - share) * self.train.policy + share * taught
            self.train = replace(self.train, policy=mixed.astype(np.float32))
        self.test = examples(held, config, mirrored=False)
        self.steps_per_epoch = max(1, len(self.train) // config.batch)
        self.steps = self.steps_per_epoch * config.epochs
        warmup = min(500, self.steps // 10 + 1)
        # The schedule's length counts its warm-up and must pass it (a run of one step).
        schedule = optax.warmup_cosine_decay_schedule(
            0.0, config.learning_rate, warmup, max(self.steps, warmup + 1)
        )
        self.optimiser = optax.adamw(schedule, weight_decay=config.weight_decay)
        if start is not None:
            self.params = start_params(config, start)
        else:
            self.params = init_params(config, jax.random.PRNGKey(config.seed))
        self.opt_state = self.optimiser.init(self.params)
        self.step = 0
        blocks = config.blocks

        def update(params: Params, opt_state: Any, batch: dict[str, jax.Array]) -> Any:
            (loss, _), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, batch, blocks)
            updates, opt_state = self.optimiser.update(grads, opt_state, params)
            return optax.apply_updates(params, updates), opt_state, loss

        self._update = jax.jit(update)
        self._measure = jax.jit(lambda params, batch: loss_fn(params, batch, blocks)[1])

    def run(
        self,
        on_progress: Callable[[Progress], None],
        checkpoint: Path | None = None,
        every: int = 1000,
    ) -> None:
        """Train to the configured number of steps, from wherever the run stands."""
        config = self.config
        while self.step < self.steps:
            epoch = self.step // self.steps_per_epoch
            # Each epoch's order comes from the seed and the epoch: a resumed run takes
            # the same batches as one never stopped.
            order = np.random.default_rng([config.seed, epoch]).permutation(len(self.train))
            start = self.step % self.steps_per_epoch
            for index in range(start, self.steps_per_epoch):
                rows = order[index * config.batch : (index + 1) * config.batch]
                self.params, self.opt_state, loss = self._update(
                    self.params, self.opt_state, self.train.take(rows)
                )
                self.step += 1
                held = self.held_out() if index == self.steps_per_epoch - 1 else None
                if checkpoint is not None and (self.step % every == 0 or held is not None):
                    self.save_checkpoint(checkpoint)
                on_progress(Progress(self.step, self.steps, epoch, float(loss), held))

    def held_out(self) -> dict[str, float]:
        """Policy and value loss and the share of held-out positions whose top prior
        keeps the result."""
        sums: dict[str, float] = {}
        size = len(self.test)
        if not size:
            return {}
        for start in range(0, size, 4096):
            rows = np.arange(start, min(size, start + 4096))
            figures = self._measure(self.params, self.test.take(rows))
            for name, value in figures.items():
                sums[name] = sums.get(name, 0.0) + float(value) * len(rows)
        return {name: total / size for name, total in sums.items()}

    def network(self, about: dict[str, Any] | None = None) -> Network:
        c = self.config
        weights = {name: np.asarray(self.params[name]) for name in block_names(c.blocks)}
        made = {"trained": "c4tui train distill", "config": asdict(c), "steps": self.step}
        about = made | (about or {})
        return Network(c.width, c.height, c.connect, c.blocks, weights, about, c.planes)

    # ---- checkpoints ------------------------------------------------------------------

    def save_checkpoint(self, path: Path) -> None:
        arrays = pack_state(self.params, self.opt_state)
        header = json.dumps({"config": asdict(self.config), "step": self.step})
        text = np.array(header)
        # Whole or not at all: a run killed while writing keeps its last checkpoint.
        write_whole(path, lambda out: np.savez(out, header=text, **arrays))  # type: ignore[arg-type]

    def resume(self, path: Path) -> None:
        """Continue from a checkpoint of a run with the same configuration."""
        # The weights and AdamW's two moments of each.
        saved = read_arrays(path, limit=3 * MAX_NETWORK_BYTES)
        header = json.loads(str(saved["header"]))
        # A field added since the checkpoint was written takes its default there.
        if Config(**header["config"]) != self.config:
            raise ValueError(f"{path}: a checkpoint of another configuration")
        self.params, self.opt_state = unpack_state(saved, self.params, self.opt_state)
        self.step = int(header["step"])


def pack_state(params: Params, opt_state: Any) -> dict[str, NDArray[Any]]:
    """The weights and the optimiser's state as named arrays, for a checkpoint file."""
    leaves = jax.tree_util.tree_leaves(opt_state)
    arrays = {f"param_{name}": np.asarray(v) for name, v in params.items()}
    return arrays | {f"opt_{i}": np.asarray(leaf) for i, leaf in enumerate(leaves)}


def unpack_state(saved: Any, params: Params, opt_state: Any) -> tuple[Params, Any]:
    """`pack_state`'s arrays back, shaped as `params` and `opt_state` (a fresh run's)."""
    restored = {name: jnp.asarray(saved[f"param_{name}"]) for name in params}
    leaves, treedef = jax.tree_util.tree_flatten(opt_state)
    state = jax.tree_util.tree_unflatten(
        treedef, [jnp.asarray(saved[f"opt_{i}"]) for i in range(len(leaves))]
    )
    return restored, state
