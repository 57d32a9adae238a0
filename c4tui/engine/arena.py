"""Headless matches between engines: the schedule of a round robin, one game, the runner.

Every game is a pure function of its `GameTask`: the two spec strings, the opening and
the seeds of both engines, derived from the tournament seed and the game's index. So a
tournament gives the same games whether it runs in one process or in eight (engines on
a time budget aside: how far they search depends on the machine's load).

Openings: deterministic engines would replay one game forever, so a round robin may
start its games from short random openings, each played once with each colour, as
engine-testing tools do. An opening is kept only when neither side has a winning spot
anywhere on the board yet (no immediate win, no threat); optionally also only when the
exact solver scores it near 0, so no colour starts from a position won early.

The results of the games are tallied in `standings.py`.
"""

from __future__ import annotations

import multiprocessing
import random
import signal
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed, wait
from dataclasses import dataclass, field
from itertools import combinations

from c4tui.engine.notation import format_moves
from c4tui.engine.position import Position
from c4tui.engine.search import SearchInfo
from c4tui.engine.specs import make_engine

RESULT_TEXT = {0: "1-0", 1: "0-1", None: "1/2-1/2"}


@dataclass(frozen=True)
class GameTask:
    """Everything one game needs, small enough to send to a worker process."""

    index: int  # position in the tournament's schedule; seeds derive from it
    first: int  # index of the engine that moves first, into the tournament's specs
    second: int
    first_spec: str
    second_spec: str
    opening: tuple[int, ...] = ()  # 0-based columns played before the engines take over
    first_seed: int = 0
    second_seed: int = 0


@dataclass
class MoveTally:
    """What one engine spent on its moves: sums, so tallies of many games add up."""

    moves: int = 0
    seconds: float = 0.0
    iterations: int = 0
    iteration_moves: int = 0  # moves that reported iterations
    nodes: int = 0
    node_moves: int = 0
    depth: int = 0
    depth_moves: int = 0

    def add_move(self, seconds: float, info: SearchInfo) -> None:
        self.moves += 1
        self.seconds += seconds
        iterations, nodes, depth = info.iterations, info.nodes, info.depth
        if iterations is not None:
            self.iterations += iterations
            self.iteration_moves += 1
        if nodes is not None:
            self.nodes += nodes
            self.node_moves += 1
        if depth is not None:
            self.depth += depth
            self.depth_moves += 1

    def merge(self, other: MoveTally) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def per_move(self) -> dict[str, float | None]:
        """Means per move; None for a figure the engine never reported."""

        def mean(total: float, count: int) -> float | None:
            return total / count if count else None

        return {
            "seconds_per_move": mean(self.seconds, self.moves),
            "iterations_per_move": mean(self.iterations, self.iteration_moves),
            "nodes_per_move": mean(self.nodes, self.node_moves),
            "depth": mean(self.depth, self.depth_moves),
        }


@dataclass
class GameRecord:
    """How one game went: its moves, who won, and what each side spent."""

    task: GameTask
    moves: tuple[int, ...]  # every column played, the opening included
    winner: int | None  # engine index into the tournament's specs, None for a draw
    termination: str  # "line", "full board" or "illegal move"
    first_tally: MoveTally = field(default_factory=MoveTally)
    second_tally: MoveTally = field(default_factory=MoveTally)

    @property
    def first_won(self) -> bool:
        return self.winner is not None and self.winner == self.task.first

    def to_json(self) -> dict:
        """The line `--save` writes: columns 1-based, as move strings."""
        task = self.task
        colour = None if self.winner is None else (0 if self.winner == task.first else 1)
        return {
            "game": task.index + 1,
            "first": task.first_spec,
            "second": task.second_spec,
            "opening": _moves_text(task.opening),
            "moves": _moves_text(self.moves),
            "result": RESULT_TEXT[colour],
            "winner": None if colour is None else (task.first_spec, task.second_spec)[colour],
            "termination": self.termination,
            "seeds": [task.first_seed, task.second_seed],
        }


def _moves_text(moves: Iterable[int]) -> str:
    return format_moves(tuple(moves))


class GameAborted(Exception):
    """The stop event was set while the game was still going."""


class EngineError(RuntimeError):
    """An engine raised instead of moving; the message names it, the game and the position."""


def play_game(task: GameTask, stop: threading.Event | None = None) -> GameRecord:
    """Play one game to its end; raises GameAborted as soon as `stop` is set."""
    engines = (
        make_engine(task.first_spec, seed=task.first_seed),
        make_engine(task.second_spec, seed=task.second_seed),
    )
    indices = (task.first, task.second)
    tallies = (MoveTally(), MoveTally())
    for engine in engines:
        engine.new_game()
    position = Position.start()
    for col in task.opening:
        position = position.play(col)
    while not position.is_over():
        side = position.to_move
        start = time.perf_counter()
        try:
            result = engines[side].search(position, stop=stop)
        except Exception as error:
            spec = (task.first_spec, task.second_spec)[side]
            raise EngineError(
                f"{spec} failed in position {position.to_moves()!r} "
                f"(game {task.index + 1}): {type(error).__name__}: {error}"
            ) from error
        seconds = time.perf_counter() - start
        if stop is not None and stop.is_set():
            raise GameAborted
        tallies[side].add_move(seconds, result.info)
        if not position.can_play(result.move):
            # An engine that breaks the rules forfeits, as in any tournament.
            return GameRecord(task, position.path, indices[1 - side], "illegal move", *tallies)
        position = position.play(result.move)
    colour = position.winner()
    winner = None if colour is None else indices[colour]
    termination = "line" if colour is not None else "full board"
    return GameRecord(task, position.path, winner, termination, *tallies)


# ---- the schedule ---------------------------------------------------------------------


def derive_seed(seed: int, *parts: object) -> int:
    """A 32-bit seed for one use of the tournament seed (string seeding is stable)."""
    return random.Random("/".join(map(str, (seed, *parts)))).getrandbits(32)


def is_balanced(position: Position) -> bool:
    """True when the game goes on and neither side has a cell that would complete a line."""
    if position.is_over():
        return False
    g = position.geometry
    return not (
        g.winning_spots(position.current, position.mask)
        or g.winning_spots(position.opponent_stones, position.mask)
    )


def random_openings(
    count: int, plies: int, seed: int, max_score: int | None = None
) -> list[tuple[int, ...]]:
    """`count` balanced openings of `plies` random moves, distinct up to mirroring.

    With `max_score`, an opening is kept only when the exact solver scores it within
    +-max_score (0: a draw with perfect play), so neither colour starts from a position
    that perfect play wins early. Short openings have few distinct positions (4 after
    one ply, up to mirroring); when there are fewer than `count`, the list repeats them.
    """
    if count <= 0 or plies <= 0:
        return [()] * max(count, 0)
    rng = random.Random(derive_seed(seed, "openings", plies))
    found: list[tuple[int, ...]] = []
    seen: set[int] = set()
    attempts = 0
    # Random play finds every opening of a few plies well within this many tries.
    while len(found) < count and attempts < 200 * count + 1000:
        attempts += 1
        position = Position.start()
        for _ in range(plies):
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(rng.choice(moves))
        if position.moves < plies or not is_balanced(position):
            continue
        key = min(position.key(), position.mirror().key())
        if key in seen:
            continue
        seen.add(key)
        if max_score is None or abs(exact_score(position)) <= max_score:
            found.append(position.path)
    if not found:
        within = "" if max_score is None else f" scored within +-{max_score}"
        raise ValueError(f"no balanced opening of {plies} plies{within} found")
    return [found[i % len(found)] for i in range(count)]


def exact_score(position: Position) -> int:
    """The solver's score; imported here so tournaments without the check never load it."""
    from c4tui.engine.solver import solve

    return solve(position)


def schedule(
    specs: Sequence[str],
    games: int,
    seed: int,
    opening_plies: int = 0,
    opening_max_score: int | None = None,
) -> list[GameTask]:
    """Every pair plays `games` games, alternating who moves first.

    Game g of a pair starts from opening g // 2, so each opening is played with both
    colours. The games of the pairs are interleaved, so a run stopped early has about
    as many games of every pair.
    """
    if len(specs) < 2:
        raise ValueError("a tournament needs at least two engines")
    if games < 1:
        raise ValueError("each pair must play at least one game")
    openings = random_openings((games + 1) // 2, opening_plies, seed, opening_max_score)
    tasks = []
    for g in range(games):
        for a, b in combinations(range(len(specs)), 2):
            first, second = (a, b) if g % 2 == 0 else (b, a)
            index = len(tasks)
            tasks.append(
                GameTask(
                    index=index,
                    first=first,
                    second=second,
                    first_spec=specs[first],
                    second_spec=specs[second],
                    opening=openings[g // 2],
                    first_seed=derive_seed(seed, index, "first"),
                    second_seed=derive_seed(seed, index, "second"),
                )
            )
    return tasks


# ---- running the games ----------------------------------------------------------------

_worker_stop: threading.Event | None = None


def _start_worker(stop: threading.Event) -> None:
    global _worker_stop
    _worker_stop = stop
    # Ctrl-C reaches the whole process group; only the parent decides what happens then.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play_in_worker(task: GameTask) -> GameRecord | None:
    try:
        return play_game(task, _worker_stop)
    except GameAborted:
        return None


class GameRunner:
    """Plays the scheduled games in `jobs` processes and yields each record as it ends.

    Use it as a context manager: entering starts the worker processes (before any
    thread of the caller's, such as a progress bar, since workers are forked from this
    process), leaving stops them. Ctrl-C (KeyboardInterrupt) while waiting for games
    stops the running ones at once, drops the ones not started, still yields the games
    that had finished, and sets `interrupted`.
    """

    def __init__(self, tasks: Sequence[GameTask], jobs: int = 1) -> None:
        if jobs < 1:
            raise ValueError("jobs must be at least 1")
        self.tasks = tasks
        self.jobs = min(jobs, max(len(tasks), 1))
        self.interrupted = False
        self._pool: ProcessPoolExecutor | None = None
        self._stop: threading.Event | None = None
        self._futures: list[Future] = []

    def __enter__(self) -> GameRunner:
        if self.jobs > 1 and self._pool is None:
            context = multiprocessing.get_context()
            self._stop = context.Event()
            self._pool = ProcessPoolExecutor(
                self.jobs, mp_context=context, initializer=_start_worker, initargs=(self._stop,)
            )
            self._futures = [self._pool.submit(_play_in_worker, task) for task in self.tasks]
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the running games, drop the queued ones, and end the worker processes."""
        if self._pool is None:
            return
        self._stop.set()
        for future in self._futures:
            future.cancel()
        self._pool.shutdown(wait=True)
        self._pool = None

    def __iter__(self) -> Iterator[GameRecord]:
        if self.jobs == 1:
            yield from self._in_process()
            return
        with self:
            yield from self._from_pool()

    def _in_process(self) -> Iterator[GameRecord]:
        for task in self.tasks:
            try:
                record = play_game(task)
            except KeyboardInterrupt:
                self.interrupted = True
                return
            yield record

    def _from_pool(self) -> Iterator[GameRecord]:
        futures = self._futures
        reported: set[Future] = set()
        try:
            for future in as_completed(futures):
                reported.add(future)
                record = future.result()
                if record is not None:
                    yield record
        except KeyboardInterrupt:
            self.interrupted = True
            self._stop.set()
            for future in futures:
                future.cancel()
            # Running games see the stop event within milliseconds and return None.
            wait(futures)
            for future in futures:
                if future in reported or future.cancelled() or future.exception() is not None:
                    continue
                record = future.result()
                if record is not None:
                    yield record
