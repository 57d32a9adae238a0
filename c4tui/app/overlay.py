"""ScoresOverlay: every column's exact score under the board when a person moves.

A part of the app. `o` (or the palette) toggles it, and `O` switches the board between
words ("win 7") and the solver's numbers ("13", as connect4.gamesolver.org shows
them); both choices are kept in the settings.
As soon as a position with a person to move appears, a thread worker solves it
(c4tui/match/exact_scores.py) while the board shows "solving"; keys never wait for it,
and a newer position stops the older solve. Solves are kept by position, board size
included (the empty board's move path is the same on every size). Off by default:
against the AI it gives the game away (the hint stays for that).
"""

from __future__ import annotations

import threading
from functools import partial

from textual.message import Message

from c4tui.app.part_host import Host
from c4tui.engine.board.position import Position
from c4tui.match.exact_scores import SOLVING, ColumnScores, solve_columns


class ScoresSolved(Message):
    """The overlay's scores for `position`."""

    def __init__(self, position: Position, scores: ColumnScores) -> None:
        super().__init__()
        self.position = position
        self.scores = scores


class ScoresOverlay:
    """Exact scores under the board, solved in a worker, for the position shown."""

    def __init__(self, app: Host) -> None:
        self._app = app
        self._shown: tuple[Position, ColumnScores] | None = None
        self._stop: threading.Event | None = None

    def scores(self, position: Position) -> ColumnScores | None:
        """What the board shows under its columns now (starting a solve if needed)."""
        app = self._app
        if not app.settings.scores_overlay or position.is_over():
            return None
        if app.match.is_ai(position.to_move):
            return None
        if self._shown is not None and self._shown[0] == position:
            return self._shown[1]
        self.stop()  # an older position's solve: nobody needs it now
        stop = self._stop = threading.Event()
        self._shown = (position, SOLVING)
        app.run_worker(
            partial(self._solve, position, stop),
            name="scores",
            group="scores",
            thread=True,
            exit_on_error=False,
        )
        return SOLVING

    def _solve(self, position: Position, stop: threading.Event) -> None:
        scores = solve_columns(position, stop)
        if scores is not None:
            self._app.post_message(ScoresSolved(position, scores))

    def solved(self, message: ScoresSolved) -> bool:
        """Take a solve's scores; False when stale (the board has moved on)."""
        if self._shown is None or self._shown[0] != message.position:
            return False
        self._shown = (message.position, message.scores)
        return True

    def stop(self) -> None:
        """Stop the running solve (no solve may outlive the app)."""
        if self._stop is not None:
            self._stop.set()

    def toggle(self) -> None:
        on = not self._app.settings.scores_overlay
        self._app.remember(scores_overlay=on)
        if on:
            self._app.notify("Exact scores under the board, for the side to move (o hides them).")
        self._app.refresh_view()

    def toggle_numbers(self) -> None:
        numbers = not self._app.settings.scores_numbers
        self._app.remember(scores_numbers=numbers)
        said = "the solver's numbers (as gamesolver.org)" if numbers else "words"
        self._app.notify(f"Scores on the board in {said}; O switches back.", timeout=3)
        self._app.refresh_view()
