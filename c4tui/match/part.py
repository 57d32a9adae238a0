"""What a part of the match (turns.py, watching.py, navigation.py, hints.py,
local_view.py) may ask of the match it belongs to: each part declares its own `Owner` on
top of these."""

from __future__ import annotations

from typing import Any, Protocol

from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import Engine
from c4tui.match.search_requests import Severity
from c4tui.match.sides import Sides


class Owner(Protocol):
    """What every part may ask: the board, who plays each side, a word to the person."""

    @property
    def position(self) -> Position: ...
    @property
    def sides(self) -> Sides: ...
    def notify(self, text: str, severity: Severity = "information", **options: Any) -> None: ...


class EnginesOwner(Owner, Protocol):
    """What the parts that start or hold the engines ask besides: the engines, the
    pause between two engines' moves, and the match's pause."""

    delay: float
    engines: dict[int, Engine]

    @property
    def paused(self) -> bool: ...
    def hold(self) -> None: ...
