"""What every engine shares: its name and spec, its budget, its random source, a clock."""

from __future__ import annotations

import random
import threading
import time
from typing import ClassVar

from c4tui.engine.position import Position
from c4tui.engine.search import ColumnStat, Limits, SearchInfo
from c4tui.engine.specs import Option


class BaseEngine:
    """Subclasses set `name`, `OPTIONS`, and implement `search`."""

    name: ClassVar[str] = ""
    OPTIONS: ClassVar[dict[str, Option]] = {}

    def __init__(self, *, seed: int | None = None, limits: Limits | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.limits = limits or Limits()
        self.spec = self.name

    def new_game(self) -> None:
        """Forget everything learned during the last game (and restart the random source)."""
        self.rng = random.Random(self.seed)

    def resolve(self, limits: Limits | None) -> Limits:
        """The limits a search uses: the caller's, or the engine's own budget."""
        return limits if limits is not None else self.limits


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


def empty_columns(position: Position) -> tuple[ColumnStat | None, ...]:
    """A ColumnStat() per playable column and None for full ones."""
    return tuple(ColumnStat() if position.can_play(c) else None for c in range(position.width))


def rate(count: int | None, elapsed: float) -> float | None:
    """Count per second; None when nothing was counted (an answer known at once has no rate)."""
    return None if not count or elapsed <= 0 else count / elapsed


def finished_info(name: str, position: Position, move: int, clock: Clock) -> SearchInfo:
    """The info of a search that did no counting (random, greedy)."""
    return SearchInfo(
        engine=name, elapsed=clock.elapsed(), columns=empty_columns(position), best=move, pv=(move,)
    )
