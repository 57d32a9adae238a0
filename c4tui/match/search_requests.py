"""What the match hands out and gets back: search and hint requests, the search it
last started, and notices."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Literal

from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import Engine, SearchInfo

Severity = Literal["information", "warning", "error"]

# Said when an intent needs a game going on; `{new_game}` is worded by the UI with its key.
GAME_OVER = "The game is over: press {new_game} for a new game."


@dataclass(frozen=True)
class Notice:
    """Something to tell the person: a line of text and how loud."""

    text: str
    severity: Severity = "information"
    title: str = ""
    timeout: float | None = None
    bell: bool = False  # a refused move: worth a beep as well


@dataclass(frozen=True)
class SearchRequest:
    """A search to run: the UI runs it and hands the result back with the same id."""

    search_id: int
    engine: Engine
    position: Position
    stop: threading.Event
    delay: float = 0.0  # seconds to wait first (two engines playing), unless stopped


@dataclass(frozen=True)
class Search:
    """The search a match last started: its request, the last snapshot it sent, and
    whether it still runs. An ended search stays on show until the board moves on."""

    request: SearchRequest
    info: SearchInfo | None = None
    running: bool = True

    @property
    def engine(self) -> Engine:
        return self.request.engine

    @property
    def position(self) -> Position:
        return self.request.position


@dataclass(frozen=True)
class HintRequest:
    """A hint to look for: the helper engine `spec`, seeded with `seed`."""

    hint_id: int
    spec: str
    position: Position
    stop: threading.Event
    seed: int | None = None
