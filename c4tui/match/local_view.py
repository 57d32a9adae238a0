"""What an in-process match shows: its `MatchView` (interface.py), made from the match's
game, sides, search, hint and how its game ended, for the screen to draw. A part of the
match (controller.py), whose `view()` hands the work here."""

from __future__ import annotations

from typing import Protocol

from c4tui.engine.board.game import Game
from c4tui.engine.players.base import limits_on
from c4tui.match.hints import HintDesk
from c4tui.match.interface import MatchView, SearchView
from c4tui.match.opponents import Judge, engine_name
from c4tui.match.part import EnginesOwner
from c4tui.match.search_requests import Search


class Owner(EnginesOwner, Protocol):
    """What the view reads of its match."""

    game: Game
    hints: HintDesk
    resigned: int | None
    ending: str | None

    @property
    def search(self) -> Search | None: ...
    @property
    def thinking(self) -> bool: ...
    @property
    def over(self) -> bool: ...
    def is_ai(self, player: int) -> bool: ...
    def evaluation_line(self) -> tuple[list[float], Judge | None]: ...


def view_of(match: Owner) -> MatchView:
    """The match now, as a UI draws it."""
    search = match.search
    engine = search.engine if search else match.engines.get(1) or match.engines.get(0)
    shown = None
    if engine is not None:
        position = search.position if search else match.position
        # The budget on this board (the perfect player's depends on it).
        limits = limits_on(engine, position)
        info = search.info if search else None
        shown = SearchView(engine.spec, position, limits, info, engine_name(engine))
    result = match.game.result()
    winner, how, ending = None, None, None
    if result is not None:
        winner, how = result.winner, "full" if result.winner is None else "line"
    elif match.resigned is not None:
        winner, ending = 1 - match.resigned, match.ending
        how = "resigned" if match.ending in (None, "resigned") else "forfeit"
    values, whose = match.evaluation_line()
    return MatchView(
        game=match.game,
        sides=match.sides,
        names=(side_name(match, 0), side_name(match, 1)),
        movers=frozenset(p for p in (0, 1) if not match.is_ai(p)),
        paused=match.paused,
        thinking=match.thinking,
        search=shown,
        hint=match.hints.column,
        hint_reason=match.hints.reason or "",
        over=match.over,
        winner=winner,
        how=how,
        evaluations=tuple(values),
        evaluator=whose,
        ending=ending,
    )


def side_name(match: Owner, player: int) -> str:
    """What the screen calls a side: its engine by the name the engine goes by (an
    outside program's own, engine_name), a person as the sides say."""
    engine = match.engines.get(player)
    return engine_name(engine) if engine is not None else match.sides.name(player)
