"""The engines' turns: when an engine searches, on the match's runner, and what its
reports do (a snapshot shown, a move played, a failure said). A part of the match
(controller.py), which hands the runner's reports here.

A report whose search id is not the running search's is stale and dropped (see
search_desk.py), and so is a result for a position no longer on the board.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from c4tui.engine.board.game import Evaluation
from c4tui.engine.players.contract import Engine, SearchInfo, SearchResult
from c4tui.engine.turns import column_refusal
from c4tui.match.interface import (
    MatchEvent,
    SearchDone,
    SearchProgress,
    SearchRunner,
    SearchStarted,
)
from c4tui.match.opponents import evaluation_of, proven
from c4tui.match.part import EnginesOwner
from c4tui.match.search_desk import SearchDesk


class Owner(EnginesOwner, Protocol):
    """What the engines' turns ask of their match."""

    runner: SearchRunner | None
    searches: SearchDesk

    @property
    def over(self) -> bool: ...
    def emit(self, event: MatchEvent) -> None: ...
    def play_move(self, col: int, evaluation: Evaluation | None = None) -> None: ...
    def forfeit(self, player: int, reason: str) -> None: ...


class EngineTurns:
    """Starts the engines' searches and takes their reports, for the match it is given."""

    def __init__(self, match: Owner) -> None:
        self._match = match

    def engine_to_move(self) -> Engine | None:
        """The engine to start when it is an engine's turn and nobody is searching."""
        match = self._match
        mover = match.position.to_move
        if match.searches.running or match.over or match.paused:
            return None
        return match.engines.get(mover)

    def run(self, engine: Engine | None, delay: float = 0.0) -> bool:
        """Start `engine`'s search on the runner (after `delay` seconds), if the match
        has one; whether it did."""
        match = self._match
        if engine is None or match.runner is None:
            return False
        request = match.searches.start(engine, match.position)
        match.emit(SearchStarted(request.search_id, engine.spec, match.position, engine.limits))
        match.runner.search(replace(request, delay=delay))
        return True

    def progress(self, search_id: int, info: SearchInfo) -> bool:
        """A live snapshot of the search; False (and ignored) when it is stale."""
        searches = self._match.searches
        if not searches.is_current(search_id):
            return False
        searches.report(info)
        self._match.emit(SearchProgress(search_id, info))
        return True

    def finish(self, search_id: int, result: SearchResult) -> bool:
        """Play the search's move, then the next engine's turn; False (nothing played)
        when the result is stale or the move illegal (said, and the match paused:
        asking the same engine again would loop)."""
        match, searches = self._match, self._match.searches
        if not searches.is_current(search_id) or searches.search is None:
            return False
        position = searches.search.position
        if position.path != match.position.path:
            return False
        searches.end(info=result.info)
        move = result.move
        if position.is_over() or column_refusal(position, move) is not None:
            match.hold()
            match.notify(f"The engine chose an illegal column {move + 1}.", "error")
            match.emit(SearchDone(search_id, None, result.info))
            return False
        value = evaluation_of(result.info, move, position.to_move)
        spec = match.sides.spec(position.to_move)
        match.emit(SearchDone(search_id, move, result.info))
        exact = proven(result.info, move)
        evaluation = None if value is None or spec is None else Evaluation(spec, value, exact)
        match.play_move(move, evaluation)
        watching = match.sides.watching and not match.paused
        self.run(self.engine_to_move(), match.delay if watching else 0.0)
        return True

    def forfeited(self, search_id: int, reason: str) -> bool:
        """An outside engine failed (crashed, hung, printed junk, played an illegal
        column): it loses the game, and the reason is said. False when stale."""
        match = self._match
        if search_id != match.searches.search_id:
            return False
        match.searches.end()
        mover = match.position.to_move
        match.notify(f"{match.sides.name(mover)} loses: it {reason}.", "error")
        match.forfeit(mover, reason)
        match.emit(SearchDone(search_id, None, None))
        return True

    def failed(self, search_id: int, error: str) -> bool:
        """An engine raised: pause, and say so. False when the search was stale."""
        match = self._match
        if search_id != match.searches.search_id:
            return False
        match.searches.end()
        match.hold()
        match.notify(
            f"The AI failed: {error}. Press {{move_now}} to retry, {{new_game}} for a new game.",
            "error",
        )
        match.emit(SearchDone(search_id, None, None))
        return True
