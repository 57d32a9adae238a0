"""Handicapped: the seed notebooks' random-move handicap around any engine."""

from __future__ import annotations

import random
import threading

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
            return SearchResult(self.rng.choice(position.legal_moves()), result.info)
        return result
