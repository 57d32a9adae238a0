"""Flat Monte Carlo: random games from each column in turn; play the best-scoring column.

The seed's browser AI: no tree, just uniformly random playouts to the end of the game,
taken round-robin over the root columns until the time or playout budget is spent.
Each column's value is the mean result for the side to move (win 1, draw 0, loss -1).

Wins in one are played and single threats blocked before any playout, and a column
that tactics prove to lose in one is only chosen when every column does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from c4tui.engine.board.position import Position
from c4tui.engine.players.base import BaseEngine, Clock, rate, timed_by_default
from c4tui.engine.players.contract import (
    ColumnStat,
    Figures,
    InfoCallback,
    Limits,
    Reading,
    SearchInfo,
)
from c4tui.engine.players.options import COUNT, TIME, Option
from c4tui.engine.players.playout import random_game_for
from c4tui.engine.players.tactics import forced_move, tactical_stats

DEFAULT_TIME = 1.0
INFO_EVERY = 256  # playouts between progress reports


class FlatMonteCarloEngine(BaseEngine):
    name = "flat"
    TITLE = "Flat MC"
    READING = Reading(figures=Figures.FLAT, counts="playouts")
    OPTIONS: ClassVar[dict[str, Option]] = {"time": TIME, "playouts": COUNT}

    def __init__(
        self,
        *,
        seed: int | None = None,
        time: float | None = None,
        playouts: int | None = None,
        limits: Limits | None = None,
    ) -> None:
        super().__init__(seed=seed, limits=limits, time=time, iterations=playouts)

    def budget(self, limits: Limits) -> Limits:
        return timed_by_default(limits, DEFAULT_TIME)

    def think(
        self, position: Position, limits: Limits, clock: Clock, on_info: InfoCallback | None
    ) -> SearchInfo:
        legal = position.legal_moves()
        tactics = tactical_stats(position)
        forced = forced_move(position)
        if forced is not None:
            return SearchInfo(
                engine=self.name,
                elapsed=clock.elapsed(),
                iterations=0,
                columns=tactics,
                best=forced,
                pv=(forced,),
            )

        totals = dict.fromkeys(legal, 0)
        counts = dict.fromkeys(legal, 0)
        playout = Playout(position, self.rng.getrandbits)
        budget = limits.iterations
        played = 0
        # Every column gets its first playout whatever the budget, so each has a value.
        while played < len(legal) or not (
            (budget is not None and played >= budget) or clock.expired()
        ):
            col = legal[played % len(legal)]
            totals[col] += playout.result_after(col)
            counts[col] += 1
            played += 1
            if on_info is not None and played % INFO_EVERY == 0:
                on_info(self._info(position, tactics, totals, counts, played, clock))
        return self._info(position, tactics, totals, counts, played, clock)

    def _info(
        self,
        position: Position,
        tactics: tuple[ColumnStat | None, ...],
        totals: dict[int, int],
        counts: dict[int, int],
        played: int,
        clock: Clock,
    ) -> SearchInfo:
        columns: list[ColumnStat | None] = []
        for col, known in enumerate(tactics):
            if known is None:
                columns.append(None)
                continue
            visits = counts[col]
            value = totals[col] / visits if visits else None
            columns.append(ColumnStat(visits=visits, value=value, proven=known.proven))
        best = choose(columns)
        elapsed = clock.elapsed()
        return SearchInfo(
            engine=self.name,
            elapsed=elapsed,
            iterations=played,
            rate=rate(played, elapsed),
            columns=tuple(columns),
            best=best,
            pv=() if best is None else (best,),
        )


def choose(columns: list[ColumnStat | None]) -> int | None:
    """The column with the best mean result, avoiding proven losses while others remain."""
    candidates = [
        (col, stat) for col, stat in enumerate(columns) if stat is not None and stat.visits
    ]
    if not candidates:
        return None
    safe = [(col, stat) for col, stat in candidates if stat.proven != "loss"]
    col, _ = max(safe or candidates, key=lambda item: (item[1].value, item[1].visits))
    return col


class Playout:
    """Uniformly random games to the end from the children of one position."""

    def __init__(self, position: Position, random_bits: Callable[[int], int]) -> None:
        self.position = position
        self.random_bits = random_bits
        # The same game as MCTS's (playout.py): in C where it is built.
        self.random_game = random_game_for(position.geometry)
        # Per column, worked out once: a settled result (1 a win now, 0 the last cell),
        # or the child's (stones of its side to move, all stones) to play on from.
        self.after: dict[int, int | tuple[int, int]] = {}

    def result_after(self, col: int) -> int:
        """Play `col`, then random moves until the game ends: 1, 0 or -1 for the mover."""
        after = self.after.get(col)
        if after is None:
            after = self.after[col] = self._after(col)
        if isinstance(after, int):
            return after
        # The child's side to move is the opponent: its result, seen from our side.
        return -self.random_game(after[0], after[1], self.random_bits)

    def _after(self, col: int) -> int | tuple[int, int]:
        pos = self.position
        if pos.is_winning_move(col):
            return 1
        child = pos.play(col)
        if child.moves == child.geometry.cells:
            return 0
        return child.current, child.mask
