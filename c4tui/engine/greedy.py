"""The greedy player: win now, else block, else avoid handing the opponent a win, else random.

This is the seed notebooks' RandomGreedy agent. It looks one move ahead for itself and
one for the opponent, and picks uniformly at random among the moves that survive.
"""

from __future__ import annotations

import threading

from c4tui.engine.base import BaseEngine, Clock
from c4tui.engine.position import Position
from c4tui.engine.search import InfoCallback, Limits, SearchInfo, SearchResult
from c4tui.engine.tactics import forced_move, safe_columns, tactical_stats


class GreedyEngine(BaseEngine):
    name = "greedy"

    def search(
        self,
        position: Position,
        limits: Limits | None = None,
        *,
        on_info: InfoCallback | None = None,
        stop: threading.Event | None = None,
    ) -> SearchResult:
        clock = Clock(self.resolve(limits), stop)
        legal = position.legal_moves()
        if not legal:
            raise ValueError("the game is over: there is no move to make")
        move = forced_move(position)
        if move is None:
            # Stones right under an opponent's winning spot lose at once; avoid them if we can.
            candidates = safe_columns(position) or list(legal)
            move = self.rng.choice(candidates)
        info = SearchInfo(
            engine=self.name,
            elapsed=clock.elapsed(),
            depth=1,
            columns=tactical_stats(position),
            best=move,
            pv=(move,),
        )
        if on_info is not None:
            on_info(info)
        return SearchResult(move, info)
