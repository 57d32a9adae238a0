"""The gate of a self-play run: is the new generation's network stronger than the best?

The sequential test of `c4tui sprt` (`sprt_run.SprtState`: pentanomial GSPRT over
pairs of games), played on the run's board by `alphazero` with each network file and
no solver (`prove=0`: the networks are measured, not the solver). Pair k is two games
from one opening, each network with each colour; the openings are a few random plies
drawn from the run's seed and the pair's index, so the same gate plays the same games.
Games run in the run's worker processes or on its Dask cluster (`task_map.py`).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from c4tui.engine.board.position import Position
from c4tui.tournament.games import GameTask, play_game
from c4tui.tournament.schedule import derive_seed
from c4tui.tournament.sprt_run import NEW, OLD, PairsInOrder, Settings, SprtState
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
    """Random plies from the empty board that neither win nor fill it."""
    rng = random.Random(seed)
    position = Position.start(*board)
    for _ in range(rng.randint(*plies)):
        safe = [c for c in position.legal_moves() if not position.is_winning_move(c)]
        if not safe or position.moves + 1 >= position.geometry.cells:
            break
        position = position.play(rng.choice(safe))
    return position.path


def gate_tasks(
    state: SprtState, board: tuple[int, int, int], plies: tuple[int, int]
) -> Iterator[GameTask]:
    """The games of the pairs not counted yet, until the test ends."""
    s = state.settings
    specs = (s.new, s.old)
    pair = state.pairs
    while state.end is None and 2 * pair < s.games_most:
        start = opening(board, plies, derive_seed(s.seed, pair, "opening"))
        for index in (2 * pair, 2 * pair + 1):
            first, second = (NEW, OLD) if index % 2 == 0 else (OLD, NEW)
            yield GameTask(
                index=index,
                first=first,
                second=second,
                first_spec=specs[first],
                second_spec=specs[second],
                opening=start,
                board=board,
            )
        pair += 1


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
    tasks = gate_tasks(state, board, settings.opening_plies)
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
