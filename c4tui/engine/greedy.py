"""The greedy player: win now, else block, else avoid handing the opponent a win, else random.

This is the seed notebooks' RandomGreedy agent. It looks one move ahead for itself and
one for the opponent, and picks uniformly at random among the moves that survive.
"""

from __future__ import annotations

import threading

from c4tui.engine.base import BaseEngine, Clock
from c4tui.engine.position import Position
from c4tui.engine.scores import win_now_score
from c4tui.engine.search import ColumnStat, InfoCallback, Limits, SearchInfo, SearchResult
from c4tui.engine.tactics import forced_move, safe_columns, threatened_columns, winning_columns


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
            columns=column_stats(position),
            best=move,
            pv=(move,),
        )
        if on_info is not None:
            on_info(info)
        return SearchResult(move, info)


def column_stats(position: Position) -> tuple[ColumnStat | None, ...]:
    """What one ply of tactics proves about each column: the wins, and the losses in one."""
    wins = set(winning_columns(position))
    threats = set(threatened_columns(position))
    safe = set(safe_columns(position))
    stats: list[ColumnStat | None] = []
    for col in range(position.width):
        if not position.can_play(col):
            stats.append(None)
        elif col in wins:
            stats.append(ColumnStat(score=win_now_score(position), proven="win"))
        elif wins:
            stats.append(ColumnStat())
        elif (threats and threats != {col}) or col not in safe:
            # Leaves a threat unblocked, or drops a stone under one: the opponent wins next.
            loss = -win_now_score(position.play(col))
            stats.append(ColumnStat(score=loss, proven="loss"))
        else:
            stats.append(ColumnStat())
    return tuple(stats)
