"""The match's engine searches: the one it last started, and the ids that keep a
cancelled search from ever playing a move.

Every search gets a new id; cancelling one sets its stop event and uses up an id too, so
whatever it still reports carries an old id and is dropped (`is_current` is False). The
ids are the engine's `SearchIds`, as a served room's are.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace

from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import Engine, SearchInfo
from c4tui.engine.turns import SearchIds
from c4tui.match.search_requests import Search, SearchRequest


class SearchDesk:
    """Hands out search requests and keeps the last search on show."""

    def __init__(self, make_stop: Callable[[], threading.Event]) -> None:
        self._make_stop = make_stop
        self.ids = SearchIds()
        self.search: Search | None = None  # the last search started, running or not

    @property
    def search_id(self) -> int:
        """The last id handed out (a cancel uses one up too)."""
        return self.ids.last

    @property
    def running(self) -> bool:
        return self.ids.running

    def start(self, engine: Engine, position: Position) -> SearchRequest:
        self.cancel()
        request = SearchRequest(self.ids.start(), engine, position, self._make_stop())
        self.search = Search(request)
        return request

    def cancel(self) -> None:
        """Stop the running search at once; whatever it still sends is stale."""
        self.end(stop=True)
        self.ids.cancel()

    def end(self, stop: bool = False, info: SearchInfo | None = None) -> None:
        """The running search is over (stopped first when `stop`); it stays on show."""
        if self.search is None or not self.running:
            return
        if stop:
            self.search.request.stop.set()
        self.ids.end()
        self.search = replace(self.search, running=False, info=info or self.search.info)

    def hurry(self) -> bool:
        """Ask the running search for its best move now; False when none runs."""
        if not self.running:
            return False
        assert self.search is not None
        self.search.request.stop.set()  # the engine returns its best move so far
        return True

    def is_current(self, search_id: int) -> bool:
        """Whether a report with this id is of the search running now."""
        return self.ids.is_current(search_id)

    def report(self, info: SearchInfo) -> None:
        """The running search's newest snapshot."""
        assert self.search is not None
        self.search = replace(self.search, info=info)

    def forget(self) -> None:
        """Clear what the last search saw: it was of a position no longer on the board."""
        self.ids.end()
        self.search = None
