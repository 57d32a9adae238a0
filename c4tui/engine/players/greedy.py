"""The greedy player: win now, else block, else avoid handing the opponent a win, else random.

This is the seed notebooks' RandomGreedy agent. It looks one move ahead for itself and
one for the opponent, and picks uniformly at random among the moves that survive.
"""

from __future__ import annotations

from c4tui.engine.board.position import Position
from c4tui.engine.players.base import BaseEngine, Clock
from c4tui.engine.players.contract import InfoCallback, Limits, SearchInfo
from c4tui.engine.players.tactics import forced_move, safe_columns, tactical_stats


class GreedyEngine(BaseEngine):
    name = "greedy"
    TITLE = "Greedy"

    def think(
        self, position: Position, limits: Limits, clock: Clock, on_info: InfoCallback | None
    ) -> SearchInfo:
        move = forced_move(position)
        if move is None:
            # Stones right under an opponent's winning spot lose at once; avoid them if we can.
            candidates = safe_columns(position) or list(position.legal_moves())
            move = self.rng.choice(candidates)
        return SearchInfo(
            engine=self.name,
            elapsed=clock.elapsed(),
            depth=1,
            columns=tactical_stats(position),
            best=move,
            pv=(move,),
        )
