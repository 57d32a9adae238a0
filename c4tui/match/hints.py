"""A hint for the person to move: the helper engine's column and why, in words, and the
match's desk that hands hints out, shows the answer and drops a stale one. A part of the
match (controller.py), which hands its hint intents here."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Protocol

from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import describe_score
from c4tui.engine.players.contract import win_rate
from c4tui.engine.players.specs import make_engine, reading_of
from c4tui.match.interface import HintReady, MatchEvent, SearchRunner
from c4tui.match.opponents import hint_spec
from c4tui.match.part import Owner as PartOwner
from c4tui.match.search_requests import HintRequest
from c4tui.match.sides import engine_title


def hint_reason(
    spec: str, position: Position, stop: threading.Event, seed: int | None = None
) -> tuple[int, str]:
    """The column `spec` suggests (0-based) and why: an exact result when it is proven,
    else the engine's own measure."""
    engine = make_engine(spec, seed=seed)
    result = engine.search(position, stop=stop)
    stat = result.info.columns[result.move] if result.info.columns else None
    reason = f"by {engine_title(spec)}"
    reading = reading_of(result.info.engine)
    if stat is not None and stat.score is not None and (result.info.exact or stat.proven):
        reason = f"{describe_score(position, stat.score)}, by the perfect player"
    elif reading is not None and reading.solver:
        # Out of time: the column is only known not to be worse than the others.
        known = f"a {stat.proven}" if stat is not None and stat.proven else "not proven"
        reason = f"{known}, the perfect player ran out of time"
    elif stat is not None and stat.value is not None:
        reason = f"win rate {win_rate(stat.value):.0%}, by {engine_title(spec)}"
    return result.move, reason


class Owner(PartOwner, Protocol):
    """What the hint desk asks of its match: whose turn it is, where hints run."""

    runner: SearchRunner | None
    seed: int | None

    @property
    def thinking(self) -> bool: ...
    def is_ai(self, player: int) -> bool: ...
    def emit(self, event: MatchEvent) -> None: ...


class HintDesk:
    """The hint looked for and the one on show. Each request gets a new id; a change
    of the game cancels it (its stop event is set), and an answer with an old id is
    stale and dropped."""

    def __init__(self, make_stop: Callable[[], threading.Event]) -> None:
        self._make_stop = make_stop
        self._stop: threading.Event | None = None
        self.hint_id = 0
        self.column: int | None = None  # the hint on show
        self.reason: str | None = None  # why that column, in words

    def request(self, spec: str, position: Position, seed: int | None) -> HintRequest:
        self.cancel()
        self._stop = self._make_stop()
        return HintRequest(self.hint_id, spec, position, self._stop, seed)

    def cancel(self) -> None:
        if self._stop is not None:
            self._stop.set()
        self._stop = None
        self.hint_id += 1
        self.column = self.reason = None

    def answer(self, hint_id: int, column: int | None, reason: str) -> bool:
        """Take a hint's answer; False when it is stale."""
        if hint_id != self.hint_id:
            return False
        self._stop = None
        if column is not None:
            self.column, self.reason = column, reason
        return True

    def ask(self, match: Owner) -> None:
        """The helper engine's column for the person to move, looked for on the runner."""
        pos = match.position
        if pos.is_over() or match.thinking or match.is_ai(pos.to_move):
            match.notify("Hints are for your turn.", timeout=2)
        elif match.runner is not None:
            request = self.request(hint_spec(pos), pos, match.seed)
            match.notify(f"Looking for a hint ({request.spec})…", timeout=2)
            match.runner.hint(request)

    def finish(self, match: Owner, hint_id: int, column: int | None, reason: str) -> bool:
        """Show the hint; False when it is stale."""
        if not self.answer(hint_id, column, reason):
            return False
        if column is None:
            match.notify(f"No hint: {reason}", "error")
        else:
            # Said on the status line and marked on the board, not in a notice: a
            # notice covered the newest moves in the move list.
            match.emit(HintReady(column))
        return True
