"""The perfect player: solves every column exactly and keeps the best result.

Among the columns with the best exact score it therefore wins as fast, or loses as
slowly, as possible; remaining ties go to the centre, or to a seeded random choice
with `vary=1`. With a time limit (`perfect:time=5`) it answers when the time is up
even if the solve is not finished: it never plays a column already proven worse than
another, and reports `exact: false`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import replace
from typing import ClassVar

from c4tui.engine.board.geometry import centre_first
from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import proven_of
from c4tui.engine.players.base import BaseEngine, Clock, rate
from c4tui.engine.players.contract import (
    ColumnStat,
    Figures,
    InfoCallback,
    Limits,
    Reading,
    SearchInfo,
)
from c4tui.engine.players.options import TIME, Option
from c4tui.engine.solver import ColumnBounds, SearchStopped, shared_solver
from c4tui.engine.solver.book import has_book
from c4tui.engine.solver.line import best_line

# The principal variation may search a quarter of the solve's nodes, at least LINE_NODES
# (about 30 ms in C): on a hard position the line's first moves cost more than the solve,
# and no player, hint or arena game should wait for a line only the panel shows. The
# node bound gives the same line on any machine, however busy. A player on a clock (a
# time limit) also gives the line a quarter of the solve's time, at least LINE_SECONDS,
# as the backstop for one move of the line that alone takes long; a player without one
# has no clock anywhere in its move, so a fixed seed gives the same line every time.
LINE_SHARE = 0.25
LINE_NODES = 200_000
LINE_SECONDS = 0.03

# A move without a time in the spec still has one where the solve may take long. On
# 7x6 connect 4 the opening book answers any position in well under a second, so there
# no clock touches the move (the same move and line on any machine); the other boards
# have no book, and an empty 8x7 or 10x10 board could take hours: there a move gets
# this many seconds, then plays the best it has proven (`exact: false`), as with a time.
BOOKLESS_SECONDS = 10.0

VARY = Option(int, 0, 1, help="1: break ties between equal columns at random (seeded)")


def column_stat(bounds: ColumnBounds | None) -> ColumnStat | None:
    """What is proven of one column: its exact score, or at least win/draw/loss."""
    if bounds is None:
        return None
    if bounds.exact:
        return ColumnStat(score=bounds.low, proven=proven_of(bounds.low))
    if bounds.low > 0:
        return ColumnStat(proven="win")
    if bounds.high < 0:
        return ColumnStat(proven="loss")
    return ColumnStat()


def choose_column(
    columns: list[ColumnBounds | None],
    width: int,
    pick: Callable[[list[int]], int] | None = None,
) -> tuple[int, list[int]]:
    """The column to play and the columns tied with it, from what is known.

    A column is out when its best possible score is below another column's proven
    minimum. Of the rest, the highest proven minimum wins, then the highest possible
    score; ties go to the centre, or to `pick(candidates)` when given.
    """
    known = [(col, b) for col, b in enumerate(columns) if b is not None]
    floor = max(b.low for _, b in known)
    alive = [(col, b) for col, b in known if b.high >= floor]
    top = max((b.low, b.high) for _, b in alive)
    tied = [col for col, b in alive if (b.low, b.high) == top]
    candidates = [col for col in centre_first(width) if col in tied]
    move = pick(candidates) if pick is not None else candidates[0]
    return move, candidates


class PerfectEngine(BaseEngine):
    name = "perfect"
    TITLE = "Perfect"
    READING = Reading(figures=Figures.EXACT, solver=True)
    OPTIONS: ClassVar[dict[str, Option]] = {"time": TIME, "vary": VARY}

    def __init__(
        self,
        *,
        seed: int | None = None,
        limits: Limits | None = None,
        time: float | None = None,
        vary: int = 0,
    ) -> None:
        super().__init__(seed=seed, limits=limits, time=time)
        self.vary = bool(vary)

    def budget_on(self, position: Position, limits: Limits | None = None) -> Limits:
        limits = super().budget_on(position, limits)
        if limits.time is None and not has_book(position.geometry):
            return replace(limits, time=BOOKLESS_SECONDS)
        return limits

    def think(
        self, position: Position, limits: Limits, clock: Clock, on_info: InfoCallback | None
    ) -> SearchInfo:
        stop = clock.stop
        # The process-wide solver of this board size: its table outlives the move and
        # the engine, and two perfect players never hold two tables.
        solver = shared_solver(position.geometry)
        start_nodes = solver.nodes
        columns: list[ColumnBounds | None] = [None] * position.width

        solve_nodes: int | None = None  # the line's probes are not the search's work

        def snapshot() -> SearchInfo:
            known = [b for b in columns if b is not None]
            exact = len(known) == len(position.legal_moves()) and all(b.exact for b in known)
            move = choose_column(columns, position.width)[0] if known else None
            nodes = (solver.nodes if solve_nodes is None else solve_nodes) - start_nodes
            elapsed = clock.elapsed()
            return SearchInfo(
                engine=self.name,
                elapsed=elapsed,
                nodes=nodes,
                rate=rate(nodes, elapsed),
                columns=tuple(column_stat(b) for b in columns),
                best=move,
                # While it solves, the column is only the best so far: no line yet.
                pv=(),
                exact=exact,
            )

        def report(*_: object) -> None:
            # As each column is solved, and every TICK_SECONDS while the solver works
            # (the bounds it has narrowed so far, and the nodes searched).
            if on_info is not None:
                on_info(snapshot())

        pick = self.rng.choice if self.vary else None
        with solver.working(stop=stop):
            with suppress(SearchStopped):
                solver.analyze(
                    position,
                    deadline=clock.deadline,
                    tick=report if on_info else None,
                    on_column=report,
                    columns=columns,
                )
            move, _ = choose_column(columns, position.width, pick)
            chosen = columns[move]
            line: tuple[int, ...] = (move,)
            solve_nodes = solver.nodes
            if chosen is not None and chosen.exact:
                # Perfect play from here on, for bounded work (see LINE_SHARE).
                budget = max(LINE_NODES, int(LINE_SHARE * (solve_nodes - start_nodes)))
                deadline = None
                if clock.deadline is not None:
                    spare = max(LINE_SECONDS, LINE_SHARE * clock.elapsed())
                    deadline = min(time.perf_counter() + spare, clock.deadline)
                line = best_line(
                    solver, position, move, chosen.low, nodes=budget, deadline=deadline
                )
        return replace(snapshot(), best=move, pv=line)
