"""Handicapped: the seed notebooks' random-move handicap around any engine.

When the handicap plays, the info says so (`handicap=True`, `best` and `pv` the random
move), so what a caller shows always agrees with the move played.
"""

from __future__ import annotations

import random
import threading
from dataclasses import replace

from c4tui.engine.position import Position
from c4tui.engine.search import Engine, InfoCallback, Limits, SearchResult


class Handicapped:
    """With probability `noise` play a uniformly random legal move instead of searching."""

    def __init__(self, engine: Engine, noise: float, seed: int | None = None) -> None:
        self.engine = engine
        self.noise = noise
        self.seed = seed
        # A separate stream, so the handicap never changes the engine's own random choices.
        self.rng = random.Random(None if seed is None else seed ^ 0x5EED)
        self.name = engine.name
        self.spec = engine.spec

    @property
    def limits(self) -> Limits:
        return self.engine.limits

    def new_game(self) -> None:
        self.rng = random.Random(None if self.seed is None else self.seed ^ 0x5EED)
        self.engine.new_game()

    def search(
        self,
        position: Position,
        limits: Limits | None = None,
        *,
        on_info: InfoCallback | None = None,
        stop: threading.Event | None = None,
    ) -> SearchResult:
        result = self.engine.search(position, limits, on_info=on_info, stop=stop)
        # Draw after the search so the stream is consumed the same way every move.
        if self.rng.random() < self.noise:
            move = self.rng.choice(position.legal_moves())
            info = replace(result.info, best=move, pv=(move,), handicap=True)
            if on_info is not None:
                on_info(info)
            return SearchResult(move, info)
        return result
