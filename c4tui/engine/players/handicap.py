"""Handicapped: the seed notebooks' random-move handicap around any engine.

When the handicap plays, the info says so (`handicap=True`, `best` and `pv` the random
move), so what a caller shows always agrees with the move played.
"""

from __future__ import annotations

from dataclasses import replace

from c4tui.engine.board.position import Position
from c4tui.engine.players.base import BaseEngine, Clock, limits_on
from c4tui.engine.players.contract import Engine, InfoCallback, Limits, SearchInfo


class Handicapped(BaseEngine):
    """With probability `noise` play a uniformly random legal move instead of searching.

    It is an engine like the others (the search frame refuses a finished game alike)
    whose thinking is the wrapped engine's search followed by the handicap's draw.
    """

    def __init__(self, engine: Engine, noise: float, seed: int | None = None) -> None:
        # A separate stream, so the handicap never changes the engine's own random choices.
        super().__init__(seed=None if seed is None else seed ^ 0x5EED, limits=engine.limits)
        self.engine = engine
        self.noise = noise
        self.name = engine.name  # type: ignore[misc]  # it plays as the engine it wraps
        self.spec = engine.spec

    def budget_on(self, position: Position, limits: Limits | None = None) -> Limits:
        return limits_on(self.engine, position) if limits is None else limits

    def new_game(self) -> None:
        super().new_game()
        self.engine.new_game()

    def close(self) -> None:
        self.engine.close()
        self.left_running = self.engine.left_running

    def think(
        self, position: Position, limits: Limits, clock: Clock, on_info: InfoCallback | None
    ) -> SearchInfo:
        info = self.engine.search(position, limits, on_info=on_info, stop=clock.stop).info
        # Draw after the search so the stream is consumed the same way every move.
        if self.rng.random() < self.noise:
            move = self.rng.choice(position.legal_moves())
            return replace(info, best=move, pv=(move,), handicap=True)
        return info
