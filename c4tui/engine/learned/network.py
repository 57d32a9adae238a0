"""The policy/value network in NumPy: what it reads of a position, its file, its answer.

The network is a small residual multilayer perceptron. It reads planes of the board,
one value per cell in column-major order (column 0's cells bottom up, then column 1's):
the mover's stones, the opponent's stones, and the cell each open column fills next
(the three a position is stored as: `encode`), and, for a network of format version 2,
two planes derived from those: the empty cells where one more stone of the mover's,
then of the opponent's, makes a line (their *winning spots*, playable yet or not). A
multilayer perceptron cannot see a line of four as a convolution does: it has to learn
each of the board's alignments as a pattern of its own, and most of the first shipped
network's own-choice mistakes were moves that let the opponent complete a line (`spots`,
docs/learned-engine.md). It answers the prior
of each column (a softmax over the legal ones) and the position's value in [-1, 1] for
the side to move (tanh).

    hidden = relu(inputs(planes) @ w_in + b_in)
    for each block:  hidden = relu(hidden + relu(hidden @ w_a + b_a) @ w_b + b_b)
    priors = softmax(hidden @ w_policy + b_policy) over legal columns
    value  = tanh(relu(hidden @ w_v1 + b_v1) @ w_v2 + b_v2)

The file is one `.npz` (NumPy's zip of arrays, read with `allow_pickle=False`): a
`header` array holding a JSON text (format name, version, board size, block count, the
planes it reads (version 2; version 1 files read the three stored ones), and where it
came from) and the weights by the names above (`w_a0`, `b_a0`, ... per block).
A file is checked in full when it is read: a bad one is a `NetworkError` that says
what is wrong, never a crash later in a search. Training (`train.py`) writes the same
format with `save`, so one module owns it.
"""

from __future__ import annotations

import json
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
from c4tui.engine.regular_files import NoSuchFile, UnreadableFile, read_arrays, write_whole

FORMAT = "c4tui-net"
VERSION = 2  # 2: the header says how many planes the network reads; 1: always three
READS = (1, 2)  # the versions this c4tui reads
STORED = 3  # the planes a position is stored as: the mover's stones, the opponent's, next cells
PLANES = 5  # what a network made now reads: the stored three, then both sides' spots

Array = NDArray[np.float32]
# Batches of up to this many rows go through the layers a row at a time: OpenBLAS
# multiplies one row by a 512 x 512 matrix in 29 µs, and two rows together in 108.
FEW_ROWS = 4
# The largest network file read (and what its weights unpack to): the shipped one is
# 3.2 MB, one at the 1 ms budget's edge about 16 MB at 32 bits. A file past this is no
# network of ours, and reading it would only take the memory.
MAX_NETWORK_BYTES = 256 << 20


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
    """A position as stored (labelled data, self-play's samples): STORED * width * height
    values, 0 or 1. `inputs` makes a network's input of them."""
    return _planes(position, STORED)


def features(position: Position, planes: int) -> Array:
    """One position's network input, made from its bitboards: the same row as `inputs`
    of its `encode`, in a fifth of the time (24 against 130 µs on 7x6), because one
    position's spots are a few shifts of its bitboards (`Geometry.winning_spots`) where
    `inputs` gathers every line of a batch. The search evaluates one position at a time."""
    return _planes(position, planes).astype(np.float32)


def _planes(position: Position, planes: int) -> NDArray[np.uint8]:
    g = position.geometry
    cells = cell_bits(g.width, g.height)
    nbytes = (g.width * (g.height + 1) + 7) // 8
    mine = position.current
    theirs = position.current ^ position.mask
    boards = [mine, theirs, g.playable(position.mask)]
    if planes == PLANES:
        boards += [g.winning_spots(mine, position.mask), g.winning_spots(theirs, position.mask)]
    return np.concatenate([_bits(b, nbytes, cells) for b in boards])


@cache
def line_partners(width: int, height: int, connect: int) -> NDArray[np.intp]:
    """For each cell (column-major), the other cells of every line through it: an index
    array `(lines, connect - 1, cells)` into the cells, where `cells` (one past the last)
    stands for off the board. A cell takes each of the `connect` places of a line along
    each of the four directions: 4 * connect lines, some of them partly off the board."""
    cells = width * height
    partners = []
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        for j in range(connect):
            line = []
            for k in range(connect):
                if k == j:
                    continue
                index = []
                for col in range(width):
                    for row in range(height):
                        c, r = col + (k - j) * dc, row + (k - j) * dr
                        on = 0 <= c < width and 0 <= r < height
                        index.append(c * height + r if on else cells)
                line.append(index)
            partners.append(line)
    return np.array(partners, dtype=np.intp)


def spots(stones: NDArray[np.bool_], empty: NDArray[np.bool_], connect: int) -> NDArray[np.bool_]:
    """The winning spots of a batch of boards, `(n, width, height)` each: the empty cells
    where one more of `stones` completes `connect` in a row, in any of the four
    directions (`Geometry.winning_spots` on one bitboard; a test holds the two to each
    other). One gather of every line's other cells, a few array operations whatever
    the batch, so one position costs as little as it can in NumPy."""
    n, width, height = stones.shape
    partners = line_partners(width, height, connect)
    flat = np.zeros((n, width * height + 1), dtype=bool)  # the last: off the board
    flat[:, :-1] = stones.reshape(n, width * height)  # (not -1: a batch may be empty)
    found = np.zeros((n, width * height), dtype=bool)
    for start in range(0, n, 4096):  # a gather's rows are lines x partners x cells
        lines = np.all(flat[start : start + 4096][:, partners], axis=2)
        found[start : start + 4096] = np.any(lines, axis=1)
    return found.reshape(n, width, height) & empty


def mirrored_rows(rows: NDArray[Any], width: int, height: int) -> NDArray[Any]:
    """Rows of planes (stored ones, or a network's inputs) reflected left to right:
    column c becomes width-1-c. A mirror image's spots are the spots reflected, so
    an input row is reflected as it is, not made again."""
    rows = np.asarray(rows)
    planes = rows.reshape(len(rows), -1, width, height)[:, :, ::-1, :]
    return planes.reshape(len(rows), -1)


def inputs(
    stored: NDArray[Any],
    width: int,
    height: int,
    connect: int,
    planes: int,
    dtype: type[np.floating[Any]] | type[np.uint8] = np.float32,
) -> NDArray[Any]:
    """A network's input (rows of `planes` planes) for rows of stored planes; training
    keeps its millions of rows as bytes (`dtype`) and makes floats a batch at a time."""
    cells = width * height
    stored = np.asarray(stored)[:, : STORED * cells].astype(bool)
    if planes == STORED:
        return stored.astype(dtype)
    board = stored.reshape(-1, STORED, width, height)
    empty = ~(board[:, 0] | board[:, 1])
    mine, theirs = (spots(board[:, side], empty, connect) for side in (0, 1))
    rows = len(stored)
    return np.concatenate(
        [stored, mine.reshape(rows, cells), theirs.reshape(rows, cells)], axis=1
    ).astype(dtype)


def block_names(blocks: int) -> list[str]:
    names = ["w_in", "b_in"]
    for i in range(blocks):
        names += [f"w_a{i}", f"b_a{i}", f"w_b{i}", f"b_b{i}"]
    return [*names, "w_policy", "b_policy", "w_v1", "b_v1", "w_v2", "b_v2"]


def expected_shapes(
    width: int, height: int, hidden: int, value_hidden: int, blocks: int, planes: int
) -> dict[str, tuple[int, ...]]:
    """The shape of every weight of a network of that size."""
    shapes: dict[str, tuple[int, ...]] = {
        "w_in": (planes * width * height, hidden),
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
    planes: int = PLANES  # what it reads: STORED, or PLANES (the spots too)

    def fits(self, g: Geometry) -> bool:
        return (g.width, g.height, g.connect) == (self.width, self.height, self.connect)

    @property
    def hidden(self) -> int:
        """The width of its layers."""
        return int(self.weights["w_in"].shape[1])

    @property
    def value_hidden(self) -> int:
        """The width of the value head's layer."""
        return int(self.weights["w_v1"].shape[1])

    @property
    def parameters(self) -> int:
        return sum(int(w.size) for w in self.weights.values())

    def read(self, stored: NDArray[Any]) -> tuple[Array, Array]:
        """(policy logits, values) of rows of stored planes (`encode`'s)."""
        return self.forward(inputs(stored, self.width, self.height, self.connect, self.planes))

    def forward(self, features: Array) -> tuple[Array, Array]:
        """(policy logits, values) of a batch of inputs (`inputs`' rows)."""
        if 1 < len(features) <= FEW_ROWS:
            answers = [self.forward(features[i : i + 1]) for i in range(len(features))]
            return np.concatenate([a[0] for a in answers]), np.concatenate([a[1] for a in answers])
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
        """`evaluate` of several positions in one pass (`forward`)."""
        logits, values = self.forward(np.stack([features(p, self.planes) for p in positions]))
        return masked_softmax(logits, _legal(positions, self.width)).tolist(), values.tolist()

    def evaluate_both_ways(self, position: Position) -> tuple[list[float], float]:
        """`evaluate` read from the board and from its mirror image, averaged: the
        network's own choice with no search (`alphazero:sims=0`). See `both_ways`."""
        row = features(position, self.planes)[None, :]
        mirrored = mirrored_rows(row, self.width, self.height)
        priors, values = self.both_ways(row, mirrored, _legal([position], self.width))
        return priors[0].tolist(), float(values[0])

    def both_ways(
        self, rows: Array, mirrored: Array, legal: NDArray[np.bool_]
    ) -> tuple[Array, Array]:
        """(priors, values) of a batch read as it stands and as its mirror images
        (`mirrored`: the same positions' inputs reflected), averaged. The network learned
        every position with its mirror image, so both readings estimate the same priors,
        and their mean errs less: on Pons's six sets the shipped network's own choice
        gave up the result in 13.5 positions in 1,000 summed over the sets, against 15.3
        read one way (docs/learned-engine.md). Twice the work, so the search reads one way."""
        logits, values = self.forward(rows)
        m_logits, m_values = self.forward(mirrored)
        priors = masked_softmax(logits, legal) + masked_softmax(m_logits, legal[:, ::-1])[:, ::-1]
        half = np.float32(0.5)
        return np.asarray(priors * half), np.asarray((values + m_values) * half)


def _legal(positions: Sequence[Position], width: int) -> NDArray[np.bool_]:
    return np.array([[p.can_play(c) for c in range(width)] for p in positions], dtype=bool)


def masked_softmax(logits: Array, legal: NDArray[np.bool_]) -> Array:
    """Softmax of each row over its legal columns; illegal columns get 0."""
    shifted = np.where(legal, logits, -np.inf)
    shifted = shifted - shifted.max(axis=1, keepdims=True)
    exp = np.where(legal, np.exp(shifted), 0.0)
    return np.asarray(exp / exp.sum(axis=1, keepdims=True), dtype=np.float32)


# ---- the file ------------------------------------------------------------------------


def save(path: Path, network: Network, *, half: bool = False) -> None:
    """Write a network file (the format `load` reads). `half` stores the weights as 16-bit
    floats: half the file (the shipped network's is so), answers changed by about 1e-3;
    `load` makes them 32-bit floats again."""
    header = {
        "format": FORMAT,
        "version": VERSION,
        "width": network.width,
        "height": network.height,
        "connect": network.connect,
        "blocks": network.blocks,
        "planes": network.planes,
        "about": dict(network.about),
    }
    dtype = np.float16 if half else np.float32
    arrays = {
        name: np.asarray(network.weights[name], dtype=dtype) for name in block_names(network.blocks)
    }
    text = np.array(json.dumps(header))
    write_whole(path, lambda out: np.savez_compressed(out, header=text, **arrays))  # type: ignore[arg-type]


def load(path: Path | str) -> Network:
    """Read and check a network file; NetworkError says what is wrong with a bad one."""
    path = Path(path)
    try:
        files = read_arrays(path, limit=MAX_NETWORK_BYTES)
    except NoSuchFile:
        raise NetworkError(f"{path}: no such network file") from None
    except UnreadableFile as error:
        raise NetworkError(f"{path}: not a network file ({error.reason})") from None
    return from_arrays(files, str(path))


def from_arrays(files: Mapping[str, NDArray[Any]], where: str) -> Network:
    """The network in a file's arrays, checked: the header, then every weight's shape."""
    try:
        header = json.loads(str(files["header"]))
    except (KeyError, ValueError):
        raise NetworkError(f"{where}: no readable header") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise NetworkError(f"{where}: not a {FORMAT} file")
    version = header.get("version")
    if version not in READS:
        raise NetworkError(f"{where}: format version {version!r}; this c4tui reads 1 and {VERSION}")
    try:
        width, height, connect, blocks = (
            int(header[key]) for key in ("width", "height", "connect", "blocks")
        )
        planes = STORED if version == 1 else int(header["planes"])
        hidden = files["w_in"].shape[1]
        value_hidden = files["w_v1"].shape[1]
    except (KeyError, TypeError, ValueError, IndexError):
        raise NetworkError(f"{where}: the header or the weights are incomplete") from None
    if not (4 <= width <= 10 and 4 <= height <= 10 and 3 <= connect <= 6 and 0 <= blocks <= 64):
        raise NetworkError(f"{where}: no board {width}x{height} connect {connect} here")
    if planes not in (STORED, PLANES):
        known = f"this c4tui knows {STORED} and {PLANES}"
        raise NetworkError(f"{where}: reads {planes} planes; {known}")
    weights: dict[str, Array] = {}
    shapes = expected_shapes(width, height, hidden, value_hidden, blocks, planes)
    for name, shape in shapes.items():
        array = files.get(name)
        if array is None or array.shape != shape or array.dtype.kind != "f":
            got = "missing" if array is None else f"{array.dtype} {array.shape}"
            raise NetworkError(f"{where}: weight {name} should be float {shape}, is {got}")
        if not np.isfinite(array).all():
            raise NetworkError(f"{where}: weight {name} is not finite")
        weights[name] = array.astype(np.float32)
    about = header.get("about", {})
    return Network(
        width, height, connect, blocks, weights, about if isinstance(about, dict) else {}, planes
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
