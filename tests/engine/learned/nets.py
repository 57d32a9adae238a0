"""Small networks with seeded random weights, for tests that need no trained one."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from c4tui.engine.learned.network import PLANES, Network, expected_shapes, save


def random_network(
    width: int = 7,
    height: int = 6,
    connect: int = 4,
    *,
    hidden: int = 16,
    blocks: int = 1,
    seed: int = 0,
    planes: int = PLANES,
) -> Network:
    rng = np.random.default_rng(seed)
    shapes = expected_shapes(width, height, hidden, 8, blocks, planes)
    weights = {name: rng.normal(0, 0.5, shape).astype(np.float32) for name, shape in shapes.items()}
    return Network(width, height, connect, blocks, weights, {"made": "tests"}, planes)


def network_file(directory: Path, **size: int) -> Path:
    path = directory / "net.npz"
    save(path, random_network(**size))
    return path
