"""Positions labelled by the exact solver: what `c4tui train distill` learns from.

Games are played from the empty board; every position on the way is analysed by the
solver (`analyze`: each column's exact score) and kept with its scores. How the games
move decides which positions the network sees:
- `random`: every move uniformly at random, the positions of Pascal Pons's test sets'
  kind (the openings of the opening book among them: the solver answers those from it);
- `guided`: each move keeps the position's result with probability 1 - `wander`, else
  is random, so games stay balanced longer and reach the middle games good play reaches;
- `late`: random moves that never lose at once (and take a win at once half the time),
  so games last into the endgame; only positions from LATE_PLY stones on are labelled.
  Random games end early and the guided ones pay the solver for every opening, so
  this is the cheap source of the middle and end games (Pons's End and Middle sets);
- `levels`: the calibrated levels' games (levels.py), each side a level from 1 to 8
  drawn for the game, each move chosen by that level's own rule from the scores the
  labelling has just computed (`human.exact_weights`; level 8 plays a best column):
  the positions people meet when they play the app's opponents, with the mistakes
  people make;
- `hard`: uniformly random games, as `random`, but of each game only HARD_PER_GAME
  positions from HARD_FROM_PLY stones on are analysed, and only those the solver needs
  at least HARD_NODES positions to analyse are kept: the kind Pons's Medium and Hard
  sets are binned as, and where the network errs (the network shipped before this kind,
  on 11,851 random-play positions: 0.3% of the middle games the solver settles in
  under a thousand positions, 6.7% of those that take it 100,000 to a million). The
  count is of a solver of one thread whose table is emptied at each batch's start, so
  the same batch keeps the same positions on any machine.

The work is split into batches of games, each with its own seed, run in worker
processes (`label_in_parallel`), so the same seed makes the same data with any number
of workers. A data file is an `.npz`: `features` (packed bits of `network.encode`),
`scores` (int8 per column; FULL for a full column) and `moves` (the ply of each).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import cache
from multiprocessing import get_context
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from c4tui.engine.board.geometry import non_losing
from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import result_class
from c4tui.engine.learned import KINDS as KINDS  # the kinds named below
from c4tui.engine.learned.network import STORED, encode
from c4tui.engine.players.human import exact_weights, level_care
from c4tui.engine.players.levels import LEVELS
from c4tui.engine.regular_files import UnreadableFile, read_arrays, write_whole

if TYPE_CHECKING:
    from c4tui.engine.solver.exact import Solver

FULL = -128  # the score stored for a full column
# The most a data file may hold, on disk or unpacked: 24 bytes a 7x6 position, so about
# 90 million positions (the shipped network learned from 1.4 million).
MAX_LABELLED_BYTES = 2 << 30
LATE_PLY = 14
GAMES_PER_BATCH = 20
HARD_PER_GAME = 3
HARD_FROM_PLY = 6
HARD_NODES = 10_000


@dataclass(frozen=True)
class Labelled:
    """Positions and their exact column scores, as arrays (see the module's file format)."""

    features: NDArray[np.uint8]  # packed bits, one row per position
    scores: NDArray[np.int8]  # (positions, width)
    moves: NDArray[np.int8]

    def __len__(self) -> int:
        return int(self.scores.shape[0])

    @staticmethod
    def join(parts: list[Labelled]) -> Labelled:
        return Labelled(
            np.concatenate([p.features for p in parts]),
            np.concatenate([p.scores for p in parts]),
            np.concatenate([p.moves for p in parts]),
        )

    def save(self, path: Path) -> None:
        """Write the positions to `path` whole (never half a file; the name as given,
        where NumPy's own saving would add `.npz` to it)."""
        arrays = {"features": self.features, "scores": self.scores, "moves": self.moves}
        write_whole(path, lambda handle: np.savez_compressed(handle, **arrays))  # type: ignore[arg-type]

    @staticmethod
    def load(path: Path) -> Labelled:
        """A data file's positions; UnreadableFile (an OSError) says what is wrong with
        one that is not a file of them, without reading more than MAX_LABELLED_BYTES."""
        arrays = read_arrays(path, limit=MAX_LABELLED_BYTES)
        missing = [name for name in ("features", "scores", "moves") if name not in arrays]
        if missing:
            raise UnreadableFile(path, f"no {missing[0]} array: not labelled positions")
        data = Labelled(arrays["features"], arrays["scores"], arrays["moves"])
        problem = data.problem()
        if problem is not None:
            raise UnreadableFile(path, problem)
        return data

    def problem(self) -> str | None:
        """What makes these arrays no labelled positions (None when they are): the
        trainer divides by each row's legal columns and reads bytes of planes."""
        f, s, m = self.features, self.scores, self.moves
        if f.dtype != np.uint8 or f.ndim != 2:
            return f"features should be rows of bytes, not {f.dtype} of {f.ndim} dimensions"
        if s.dtype != np.int8 or s.ndim != 2:
            return f"scores should be rows of int8, not {s.dtype} of {s.ndim} dimensions"
        if m.dtype.kind not in "iu" or m.ndim != 1:
            return f"moves should be one whole number a position, not {m.dtype} {m.shape}"
        if not len(f) == len(s) == len(m):
            return f"{len(f)} features, {len(s)} scores and {len(m)} moves: one each a position"
        if len(s) and not (s != FULL).any(axis=1).all():
            return "a position with no column to play"
        return None

    def board_problem(self, width: int, height: int) -> str | None:
        """What makes these positions another board's than width x height (None when
        they are this one's)."""
        row = (STORED * width * height + 7) // 8
        if self.scores.shape[1] != width or self.features.shape[1] != row:
            columns = self.scores.shape[1]
            return f"positions of a {columns}-column board, not {width}x{height}"
        return None


@dataclass(frozen=True)
class Batch:
    """One worker's task: `games` games of one kind on one board, from one seed."""

    seed: int
    games: int
    kind: str
    width: int = 7
    height: int = 6
    connect: int = 4
    wander: float = 0.5


def label_batch(batch: Batch) -> Labelled:
    """Play and label the games of one batch (in a worker process)."""
    rng = random.Random(batch.seed)
    features, scores, moves = [], [], []
    seen: set[int] = set()
    made = hard_positions(batch, rng) if batch.kind == "hard" else played_positions(batch, rng)
    for position, column_scores in made:
        key = position.key()
        if key not in seen:
            seen.add(key)
            features.append(np.packbits(encode(position)))
            scores.append([FULL if s is None else s for s in column_scores])
            moves.append(position.moves)
    # Shaped even when empty (a late game over before LATE_PLY labels nothing), so that
    # `Labelled.join` takes it beside the others.
    row_bytes = -(-STORED * batch.width * batch.height // 8)
    return Labelled(
        np.array(features, dtype=np.uint8).reshape(-1, row_bytes),
        np.array(scores, dtype=np.int8).reshape(-1, batch.width),
        np.array(moves, dtype=np.int8),
    )


def played_positions(
    batch: Batch, rng: random.Random
) -> Iterator[tuple[Position, list[int | None]]]:
    """The positions of the batch's games as its kind plays them, with their scores."""
    from c4tui.engine.solver import analyze

    for _ in range(batch.games):
        position = Position.start(batch.width, batch.height, batch.connect)
        # Each side's level, drawn only for `levels` games: the other kinds' games stay
        # those their seeds made before this kind was added.
        levels = (
            (rng.choice(list(LEVELS)), rng.choice(list(LEVELS)))
            if batch.kind == "levels"
            else (0, 0)
        )
        while not position.is_over():
            if batch.kind == "late" and position.moves < LATE_PLY:
                position = position.play(unforced_column(position, rng))
                continue
            column_scores = analyze(position)
            yield position, column_scores
            level = levels[position.moves % 2]
            position = position.play(next_column(position, column_scores, batch, rng, level))


def hard_positions(batch: Batch, rng: random.Random) -> Iterator[tuple[Position, list[int | None]]]:
    """The `hard` kind's positions of one batch, with their scores (see the module's doc)."""
    from c4tui.engine.solver import exact_scores

    start = Position.start(batch.width, batch.height, batch.connect)
    solver = counting_solver(batch.width, batch.height, batch.connect)
    solver.reset()  # an empty table: the counts are the batch's own
    for _ in range(batch.games):
        position, path = start, []
        while not position.is_over():
            if position.moves >= HARD_FROM_PLY:
                path.append(position)
            position = position.play(rng.choice(position.legal_moves()))
        chosen = rng.sample(range(len(path)), min(HARD_PER_GAME, len(path)))
        for at in sorted(chosen):
            before = solver.nodes
            column_scores = exact_scores(solver.analyze(path[at]))
            if solver.nodes - before >= HARD_NODES:
                yield path[at], column_scores


@cache
def counting_solver(width: int, height: int, connect: int) -> Solver:
    """The `hard` kind's solver in this process: one thread, so its counts of positions
    are the same on any machine (a second thread's share of the work is not)."""
    from c4tui.engine.solver.exact import Solver

    return Solver(Position.start(width, height, connect).geometry, threads=1)


def unforced_column(position: Position, rng: random.Random) -> int:
    """A random column that does not lose at once; a win at once half the time."""
    legal = position.legal_moves()
    wins = [c for c in legal if position.is_winning_move(c)]
    if wins and rng.random() < 0.5:
        return rng.choice(wins)
    g = position.geometry
    safe = non_losing(
        g.playable(position.mask), g.winning_spots(position.opponent_stones, position.mask)
    )
    columns = [c for c in legal if safe & g.column_masks[c]]
    return rng.choice(columns or legal)


def next_column(
    position: Position, scores: list[int | None], batch: Batch, rng: random.Random, level: int
) -> int:
    legal = position.legal_moves()
    if batch.kind == "late":
        return unforced_column(position, rng)
    if batch.kind == "levels":
        return level_column(position, scores, level, rng)
    if batch.kind == "random" or rng.random() < batch.wander:
        return rng.choice(legal)
    best = max(result_class(s) for s in scores if s is not None)
    keeping = [c for c in legal if result_class(scores[c] or 0) == best and scores[c] is not None]
    return rng.choice(keeping)


def level_column(
    position: Position, scores: list[int | None], level: int, rng: random.Random
) -> int:
    """The column `level` plays, by its own rule, from the position's exact scores."""
    settings = level_care(level)
    if settings is None:  # the perfect player: a best column (the quickest win)
        best = max(s for s in scores if s is not None)
        return rng.choice([col for col, s in enumerate(scores) if s == best])
    weights = exact_weights(position, scores, *settings)
    columns = sorted(weights)
    return rng.choices(columns, [weights[col] for col in columns])[0]


def batches(seed: int, games: int, kind: str, **board: int) -> Iterator[Batch]:
    """`games` games cut into batches, each seeded from `seed` and its index."""
    for index, start in enumerate(range(0, games, GAMES_PER_BATCH)):
        count = min(GAMES_PER_BATCH, games - start)
        yield Batch(seed * 1_000_003 + index, count, kind, **board)


def label_in_parallel(
    work: list[Batch], workers: int, on_batch: Callable[[Labelled], None] | None = None
) -> Labelled:
    """Every batch labelled in `workers` processes, in the batches' order."""
    if workers <= 1:
        parts = []
        for one in work:
            parts.append(label_batch(one))
            if on_batch is not None:
                on_batch(parts[-1])
    else:
        parts = []
        with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
            for part in pool.map(label_batch, work):
                parts.append(part)
                if on_batch is not None:
                    on_batch(part)
    return Labelled.join(parts)
