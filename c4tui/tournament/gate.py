"""The gate of a self-play run: is the new generation's network stronger than the best?

The sequential test of `c4tui sprt` (`sprt_run.SprtState`: pentanomial GSPRT over
pairs of games), played on the run's board by `alphazero` with each network file and
no solver (`prove=0`: the networks are measured, not the solver). Pair k is two games
from one opening, each network with each colour; the openings are a few random plies
drawn from the run's seed and the pair's index, so the same gate plays the same games.
Games run in the run's worker processes or on its Dask cluster (`task_map.py`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

import numpy as np

from c4tui.engine.board.position import Position
from c4tui.engine.learned.selfplay import random_opening
from c4tui.tournament.games import play_game
from c4tui.tournament.schedule import derive_seed
from c4tui.tournament.sprt_run import PairsInOrder, Settings, SprtState, pair_tasks
from c4tui.tournament.task_map import TaskMap

PAIRS_PER_WORKER = 2  # pairs sent to each worker before the test is looked at again


@dataclass(frozen=True)
class GateSettings:
    """The gate's games and its test."""

    sims: int = 32  # simulations a move of each network
    elo0: float = 0.0
    elo1: float = 100.0
    alpha: float = 0.05
    beta: float = 0.05
    games_most: int = 200
    opening_plies: tuple[int, int] = (2, 4)  # random plies before the networks play


def spec(network: Path, sims: int) -> str:
    return f"alphazero:sims={sims},prove=0,book=0,net={network}"


def opening(board: tuple[int, int, int], plies: tuple[int, int], seed: int) -> tuple[int, ...]:
    """Random plies from the empty board that neither win nor fill it (the way a
    self-play game opens: `selfplay.random_opening`)."""
    rng = np.random.default_rng(seed)
    count = int(rng.integers(plies[0], plies[1] + 1))
    return random_opening(Position.start(*board), count, rng).path


@dataclass(frozen=True)
class RandomOpenings:
    """Pair k's opening: a few random plies from the seed and k (sprt_run.Openings)."""

    board: tuple[int, int, int]
    plies: tuple[int, int]
    seed: int

    def opening(self, index: int) -> tuple[int, ...]:
        return opening(self.board, self.plies, derive_seed(self.seed, index, "opening"))


def run_gate(
    new: Path,
    old: Path,
    board: tuple[int, int, int],
    settings: GateSettings,
    seed: int,
    pool: TaskMap,
    *,
    on_pair: Callable[[SprtState], None] | None = None,
    stop: threading.Event | None = None,
) -> SprtState:
    """Play the gate to its verdict (or games_most, or `stop`); the test's state. The
    games go to `pool` a few pairs per worker at a time and count in pair order."""
    state = SprtState(
        Settings(
            new=spec(new, settings.sims),
            old=spec(old, settings.sims),
            elo0=settings.elo0,
            elo1=settings.elo1,
            alpha=settings.alpha,
            beta=settings.beta,
            model="logistic",
            seed=seed,
            openings=f"random {settings.opening_plies[0]}-{settings.opening_plies[1]} plies",
            adjudicate=0,
            games_most=settings.games_most,
        )
    )
    tasks = pair_tasks(state, RandomOpenings(board, settings.opening_plies, seed), board)
    pairs = PairsInOrder(0)
    while state.end is None and not (stop is not None and stop.is_set()):
        batch = list(islice(tasks, 2 * PAIRS_PER_WORKER * pool.workers))
        if not batch:
            break
        for game in pool.map(play_game, batch):
            for first, second in pairs.add(game):
                if state.end is None:
                    state.add_pair(first, second)
                    if on_pair is not None:
                        on_pair(state)
    return state
