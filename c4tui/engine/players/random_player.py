"""The random player: a uniformly random legal move (named so it never shadows `random`)."""

from __future__ import annotations

from c4tui.engine.board.position import Position
from c4tui.engine.players.base import BaseEngine, Clock, empty_columns
from c4tui.engine.players.contract import InfoCallback, Limits, Reading, SearchInfo


class RandomEngine(BaseEngine):
    name = "random"
    TITLE = "Random"
    READING = Reading(at_random=True)

    def think(
        self, position: Position, limits: Limits, clock: Clock, on_info: InfoCallback | None
    ) -> SearchInfo:
        move = self.rng.choice(position.legal_moves())
        return SearchInfo(
            engine=self.name,
            elapsed=clock.elapsed(),
            columns=empty_columns(position),
            best=move,  # the column it picked; nothing follows from it (no pv)
        )
