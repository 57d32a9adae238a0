"""What every engine shares: the frame of a search, its budget, its random source, a clock.

`BaseEngine.search` is the one frame of every engine's search: it refuses a finished
game (`GameOverError`), settles the limits, runs the engine's own `think`, sends the
final info and makes the result from it, so the move played is always `info.best`.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Mapping
from typing import ClassVar

from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import (
    Bundle,
    ColumnStat,
    Engine,
    GameOverError,
    InfoCallback,
    Limits,
    Reading,
    SearchInfo,
    SearchResult,
)
from c4tui.engine.players.options import Option


class BaseEngine:
    """Subclasses set `name`, `TITLE`, `OPTIONS`, and implement `think` (and `budget` if
    they need one)."""

    name: ClassVar[str] = ""
    TITLE: ClassVar[str] = ""  # what the screen and the tables call the engine: "MCTS"
    OPTIONS: ClassVar[dict[str, Option]] = {}
    READING: ClassVar[Reading] = Reading()
    left_running = ""  # see Engine.left_running: only outside engines set it

    def __init__(
        self,
        *,
        seed: int | None = None,
        limits: Limits | None = None,
        time: float | None = None,
        iterations: int | None = None,
        depth: int | None = None,
    ) -> None:
        """`limits`, or else the spec's budget (`time`, `iterations`, `depth`) with the
        engine's own defaults where it sets none (its `budget`, the one home of them)."""
        self.seed = seed
        self.rng = random.Random(seed)
        if limits is None:
            limits = self.budget(Limits(time=time, iterations=iterations, depth=depth))
        self.limits = limits
        self.spec = self.name

    def new_game(self) -> None:
        """Forget everything learned during the last game (and restart the random source)."""
        self.rng = random.Random(self.seed)

    def close(self) -> None:
        """End what the engine holds outside this process (nothing, for most)."""

    @classmethod
    def bundle(cls, options: Mapping[str, object]) -> Bundle | None:
        """What a standalone agent of this engine with these settings carries (Bundle);
        None for one that cannot stand alone. Most need only their own module."""
        return Bundle(modules=(cls.__module__,))

    def search(
        self,
        position: Position,
        limits: Limits | None = None,
        *,
        on_info: InfoCallback | None = None,
        stop: threading.Event | None = None,
    ) -> SearchResult:
        if position.is_over():
            raise GameOverError(position)
        limits = self.budget_on(position, limits)
        info = self.think(position, limits, Clock(limits, stop), on_info)
        if on_info is not None:
            on_info(info)
        # A game not over has a legal move, and every engine's think names one.
        assert info.best is not None, f"{self.name} named no move"
        return SearchResult(info.best, info)

    def budget(self, limits: Limits) -> Limits:
        """The limits a search runs to; engines that cannot run unbounded fill in defaults."""
        return limits

    def budget_on(self, position: Position, limits: Limits | None = None) -> Limits:
        """The limits a search of `position` runs to (`limits`, else the engine's own):
        `budget`'s, and an engine whose work depends on the board adds its defaults here."""
        return self.budget(limits if limits is not None else self.limits)

    def think(
        self, position: Position, limits: Limits, clock: Clock, on_info: InfoCallback | None
    ) -> SearchInfo:
        """Search an unfinished position; the final info's `best` is the move to play.

        `on_info` is for progress on the way: the frame sends the final info itself.
        """
        raise NotImplementedError


class Clock:
    """Elapsed time and the stop conditions of one search."""

    __slots__ = ("deadline", "start", "stop")

    def __init__(self, limits: Limits, stop: threading.Event | None) -> None:
        self.start = time.perf_counter()
        self.deadline = None if limits.time is None else self.start + limits.time
        self.stop = stop

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def expired(self) -> bool:
        """True once the time budget is spent or someone set the stop event."""
        if self.stop is not None and self.stop.is_set():
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline


def limits_on(engine: Engine, position: Position) -> Limits:
    """The budget `engine` searches `position` with, for a caller to show before the
    search ends: an engine of ours says it for that board, any other its spec's."""
    if isinstance(engine, BaseEngine):
        return engine.budget_on(position)
    return engine.limits


def share_of_clock(seconds_left: float, increment: float) -> float:
    """What a move may spend from a clock with `seconds_left`: a twentieth of it plus the
    increment, never more than half of it (a clock run down still gets a millisecond)."""
    return max(min(seconds_left / 20 + increment, seconds_left / 2), 0.001)


def timed_by_default(limits: Limits, seconds: float) -> Limits:
    """`limits`, or `seconds` a move when they set neither a time nor a count (the Monte
    Carlo engines' budget: a depth means nothing to them)."""
    if limits.time is None and limits.iterations is None:
        return Limits(time=seconds)
    return limits


def empty_columns(position: Position) -> tuple[ColumnStat | None, ...]:
    """A ColumnStat() per playable column and None for full ones."""
    return tuple(ColumnStat() if position.can_play(c) else None for c in range(position.width))


def rate(count: int | None, elapsed: float) -> float | None:
    """Count per second; None when nothing was counted (an answer known at once has no rate)."""
    return None if not count or elapsed <= 0 else count / elapsed
