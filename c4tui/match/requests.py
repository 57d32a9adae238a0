"""What the match hands out and gets back: search and hint requests, and notices."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Literal

from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import Engine

Severity = Literal["information", "warning", "error"]


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
class HintRequest:
    """A hint to look for: the helper engine `spec`, seeded with `seed`."""

    hint_id: int
    spec: str
    position: Position
    stop: threading.Event
    seed: int | None = None
