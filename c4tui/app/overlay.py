"""The scores overlay: every column's exact result under the board when a person moves.

A mixin of ConnectFourApp. `o` (or the palette) toggles it, and `O` switches between
words ("win 7") and the solver's numbers ("13", as connect4.gamesolver.org shows them);
both choices are kept in the settings. As soon as a position with a person to move
appears, a thread worker solves it (c4tui/match/exact_scores.py) while the board shows
"solving"; keys never wait for it, and a newer position stops the older solve. Off by
default: against the AI it gives the game away (the hint stays for that).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from textual import work
from textual.binding import Binding
from textual.message import Message

from c4tui.match.exact_scores import SOLVING, column_words

if TYPE_CHECKING:
    from c4tui.app.app import ConnectFourApp

    _Base = ConnectFourApp
else:
    _Base = object


class ScoresSolved(Message):
    """The overlay's words for the position reached by `path`."""

    def __init__(self, key: tuple[object, ...], words: tuple[str, ...]) -> None:
        super().__init__()
        self.key = key  # the position's path, then whether the words are numbers
        self.words = words


class ScoresOverlay(_Base):
    """Exact scores under the board (mixed into the app)."""

    OVERLAY_BINDINGS = (
        Binding("o", "toggle_scores", "Scores", show=False),
        Binding("O", "toggle_score_numbers", "Scores as numbers", show=False),
    )
    _scores: tuple[tuple[object, ...], tuple[str, ...]] | None = None  # (key, words)
    _scores_stop: threading.Event | None = None

    def overlay_words(self) -> tuple[str, ...] | None:
        """What the board shows under its columns now (starting a solve if needed)."""
        pos = self.game.position
        if not self.settings.scores_overlay or pos.is_over() or self.match.is_ai(pos.to_move):
            return None
        key = (*pos.path, self.settings.scores_numbers)
        if self._scores is not None and self._scores[0] == key:
            return self._scores[1]
        if self._scores_stop is not None:
            self._scores_stop.set()  # an older position's solve: nobody needs it now
        self._scores_stop = threading.Event()
        self._scores = (key, (SOLVING,) * pos.width)
        self.solve_scores(pos, self._scores_stop, key)
        return self._scores[1]

    @work(thread=True, group="scores", exit_on_error=False)
    def solve_scores(self, position, stop: threading.Event, key: tuple[object, ...]) -> None:
        words = column_words(position, stop, numbers=bool(key[-1]))
        if words is not None:
            self.post_message(ScoresSolved(key, words))

    def on_scores_solved(self, message: ScoresSolved) -> None:
        if self._scores is None or self._scores[0] != message.key:
            return  # stale: the board has moved on
        self._scores = (message.key, message.words)
        self.refresh_view()

    def stop_scores(self) -> None:
        """No solve may outlive the app."""
        if self._scores_stop is not None:
            self._scores_stop.set()

    def action_toggle_scores(self) -> None:
        on = not self.settings.scores_overlay
        self.remember(scores_overlay=on)
        if on:
            self.notify("Exact scores under the board, for the side to move (o hides them).")
        self.refresh_view()

    def action_toggle_score_numbers(self) -> None:
        numbers = not self.settings.scores_numbers
        self.remember(scores_numbers=numbers)
        said = "the solver's numbers (as gamesolver.org)" if numbers else "words"
        self.notify(f"Scores on the board in {said}; O switches back.", timeout=3)
        self.refresh_view()
