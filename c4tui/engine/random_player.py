"""The random player: a uniformly random legal move (named so it never shadows `random`)."""

from __future__ import annotations

import threading

from c4tui.engine.base import BaseEngine, Clock, finished_info
from c4tui.engine.position import Position
from c4tui.engine.search import InfoCallback, Limits, SearchResult


class RandomEngine(BaseEngine):
    name = "random"

    def search(
        self,
        position: Position,
        limits: Limits | None = None,
        *,
        on_info: InfoCallback | None = None,
        stop: threading.Event | None = None,
    ) -> SearchResult:
        clock = Clock(self.resolve(limits), stop)
        move = self.rng.choice(position.legal_moves())
        info = finished_info(self.name, position, move, clock)
        if on_info is not None:
            on_info(info)
        return SearchResult(move, info)
