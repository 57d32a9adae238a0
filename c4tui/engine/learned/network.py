"""The policy/value network in NumPy: what it reads of a position, its file, its answer.

The network is a small residual multilayer perceptron. It reads three planes of the
board, one value per cell in column-major order (column 0's cells bottom up, then
column 1's): the mover's stones, the opponent's stones, and the cell each open column
fills next. It answers the prior of each column (a softmax over the legal ones) and
the position's value in [-1, 1] for the side to move (tanh).

    hidden = relu(features @ w_in + b_in)
    for each block:  hidden = relu(hidden + relu(hidden @ w_a + b_a) @ w_b + b_b)
    priors = softmax(hidden @ w_policy + b_policy) over legal columns
    value  = tanh(relu(hidden @ w_v1 + b_v1) @ w_v2 + b_v2)

The file is one `.npz` (NumPy's zip of arrays, read with `allow_pickle=False`): a
`header` array holding a JSON text (format name, version, board size, block count, and
where it came from) and the weights by the names above (`w_a0`, `b_a0`, ... per block).
A file is checked in full when it is read: a bad one is a `NetworkError` that says
what is wrong, never a crash later in a search. Training (`train.py`) writes the same
format with `save`, so one module owns it.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from c4tui.engine.board.geometry import Geometry
from c4tui.engine.board.position import Position

FORMAT = "c4tui-net"
VERSION = 1
PLANES = 3  # the mover's stones, the opponent's, the cells playable next

Array = NDArray[np.float32]


class NetworkError(ValueError):
    """A network file that cannot be used: missing, not ours, damaged, or for another board."""


@cache
def cell_bits(width: int, height: int) -> NDArray[np.intp]:
    """The bitboard bit of each cell, in the planes' column-major order."""
    h1 = height + 1
    return np.array([c * h1 + r for c in range(width) for r in range(height)], dtype=np.intp)


def _bits(stones: int, nbytes: int, cells: NDArray[np.intp]) -> NDArray[np.uint8]:
    raw = np.frombuffer(stones.to_bytes(nbytes, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[cells]


def encode(position: Position) -> NDArray[np.uint8]:
    """The network's input for a position: PLANES * width * height values, 0 or 1."""
    g = position.geometry
    cells = cell_bits(g.width, g.height)
    nbytes = (g.width * (g.height + 1) + 7) // 8
    mine = position.current
    theirs = position.current ^ position.mask
    return np.concatenate(
        [_bits(s, nbytes, cells) for s in (mine, theirs, g.playable(position.mask))]
    )


def block_names(blocks: int) -> list[str]:
    names = ["w_in", "b_in"]
    for i in range(blocks):
        names += [f"w_a{i}", f"b_a{i}", f"w_b{i}", f"b_b{i}"]
    return [*names, "w_policy", "b_policy", "w_v1", "b_v1", "w_v2", "b_v2"]


def expected_shapes(
    width: int, height: int, hidden: int, value_hidden: int, blocks: int
) -> dict[str, tuple[int, ...]]:
    """The shape of every weight of a network of that size."""
    shapes: dict[str, tuple[int, ...]] = {
        "w_in": (PLANES * width * height, hidden),
        "b_in": (hidden,),
    }
    for i in range(blocks):
        shapes |= {
            f"w_a{i}": (hidden, hidden),
            f"b_a{i}": (hidden,),
            f"w_b{i}": (hidden, hidden),
            f"b_b{i}": (hidden,),
        }
    return shapes | {
        "w_policy": (hidden, width),
        "b_policy": (width,),
        "w_v1": (hidden, value_hidden),
        "b_v1": (value_hidden,),
        "w_v2": (value_hidden, 1),
        "b_v2": (1,),
    }


@dataclass(frozen=True)
class Network:
    """A loaded network for one board size; `evaluate` answers priors and value."""

    width: int
    height: int
    connect: int
    blocks: int
    weights: Mapping[str, Array]
    about: Mapping[str, Any] = field(default_factory=dict)  # how it was made (header)

    def fits(self, g: Geometry) -> bool:
        return (g.width, g.height, g.connect) == (self.width, self.height, self.connect)

    @property
    def parameters(self) -> int:
        return sum(int(w.size) for w in self.weights.values())

    def forward(self, features: Array) -> tuple[Array, Array]:
        """(policy logits, values) of a batch of encoded positions (rows)."""
        w = self.weights
        hidden = np.maximum(features @ w["w_in"] + w["b_in"], 0)
        for i in range(self.blocks):
            inner = np.maximum(hidden @ w[f"w_a{i}"] + w[f"b_a{i}"], 0)
            hidden = np.maximum(hidden + inner @ w[f"w_b{i}"] + w[f"b_b{i}"], 0)
        logits = hidden @ w["w_policy"] + w["b_policy"]
        value_hidden = np.maximum(hidden @ w["w_v1"] + w["b_v1"], 0)
        values = np.tanh(value_hidden @ w["w_v2"] + w["b_v2"])[:, 0]
        return logits, values

    def evaluate(self, position: Position) -> tuple[list[float], float]:
        """The priors of every column (0 for full ones; they sum to 1) and the value of
        the position for the side to move, in [-1, 1]."""
        (priors,), (value,) = self.evaluate_many([position])
        return priors, value

    def evaluate_many(self, positions: Sequence[Position]) -> tuple[list[list[float]], list[float]]:
        """`evaluate` of several positions in one pass (one matrix product per layer)."""
        features = np.stack([encode(p) for p in positions]).astype(np.float32)
        logits, values = self.forward(features)
        legal = np.array(
            [[p.can_play(c) for c in range(self.width)] for p in positions], dtype=bool
        )
        return masked_softmax(logits, legal).tolist(), [float(v) for v in values]


def masked_softmax(logits: Array, legal: NDArray[np.bool_]) -> Array:
    """Softmax of each row over its legal columns; illegal columns get 0."""
    shifted = np.where(legal, logits, -np.inf)
    shifted = shifted - shifted.max(axis=1, keepdims=True)
    exp = np.where(legal, np.exp(shifted), 0.0)
    return np.asarray(exp / exp.sum(axis=1, keepdims=True), dtype=np.float32)


# ---- the file ------------------------------------------------------------------------


def save(path: Path, network: Network) -> None:
    """Write a network file (the format `load` reads)."""
    header = {
        "format": FORMAT,
        "version": VERSION,
        "width": network.width,
        "height": network.height,
        "connect": network.connect,
        "blocks": network.blocks,
        "about": dict(network.about),
    }
    arrays = {
        name: np.asarray(network.weights[name], dtype=np.float32)
        for name in block_names(network.blocks)
    }
    with path.open("wb") as out:
        np.savez_compressed(out, header=np.array(json.dumps(header)), **arrays)  # type: ignore[arg-type]


def load(path: Path | str) -> Network:
    """Read and check a network file; NetworkError says what is wrong with a bad one."""
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as archive:
            files = {name: archive[name] for name in archive.files}
    except FileNotFoundError:
        raise NetworkError(f"{path}: no such network file") from None
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        raise NetworkError(f"{path}: not a network file ({error})") from None
    return from_arrays(files, str(path))


def from_arrays(files: Mapping[str, NDArray[Any]], where: str) -> Network:
    """The network in a file's arrays, checked: the header, then every weight's shape."""
    try:
        header = json.loads(str(files["header"]))
    except (KeyError, ValueError):
        raise NetworkError(f"{where}: no readable header") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise NetworkError(f"{where}: not a {FORMAT} file")
    if header.get("version") != VERSION:
        raise NetworkError(
            f"{where}: format version {header.get('version')!r}; this c4tui reads {VERSION}"
        )
    try:
        width, height, connect, blocks = (
            int(header[key]) for key in ("width", "height", "connect", "blocks")
        )
        hidden = files["w_in"].shape[1]
        value_hidden = files["w_v1"].shape[1]
    except (KeyError, TypeError, ValueError, IndexError):
        raise NetworkError(f"{where}: the header or the weights are incomplete") from None
    if not (4 <= width <= 10 and 4 <= height <= 10 and 3 <= connect <= 6 and 0 <= blocks <= 64):
        raise NetworkError(f"{where}: no board {width}x{height} connect {connect} here")
    weights: dict[str, Array] = {}
    for name, shape in expected_shapes(width, height, hidden, value_hidden, blocks).items():
        array = files.get(name)
        if array is None or array.shape != shape or array.dtype.kind != "f":
            got = "missing" if array is None else f"{array.dtype} {array.shape}"
            raise NetworkError(f"{where}: weight {name} should be float {shape}, is {got}")
        if not np.isfinite(array).all():
            raise NetworkError(f"{where}: weight {name} is not finite")
        weights[name] = array.astype(np.float32)
    about = header.get("about", {})
    return Network(
        width, height, connect, blocks, weights, about if isinstance(about, dict) else {}
    )


# ---- the networks shipped with c4tui -----------------------------------------------


def shipped_name(g: Geometry) -> str:
    return f"c4-{g.width}x{g.height}-connect{g.connect}.npz"


def shipped_file(width: int, height: int, connect: int) -> Path | None:
    """Where the network c4tui ships for that board lies, or None where it ships none."""
    from c4tui.engine.board.geometry import geometry

    name = shipped_name(geometry(width, height, connect))
    resource = resources.files("c4tui.engine.learned.nets").joinpath(name)
    if not resource.is_file():
        return None
    return Path(str(resource))


@cache
def shipped(width: int, height: int, connect: int) -> Network | None:
    """The network c4tui ships for that board, or None where it ships none."""
    path = shipped_file(width, height, connect)
    return None if path is None else load(path)
