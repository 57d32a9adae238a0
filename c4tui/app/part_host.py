"""Host: what the app's parts may use of the app, and nothing more.

The app (app.py) composes parts with their own state: the notices, the AI's turns
(with the search runner the match is given), the scores overlay, the prewarmer, the
study actions, the game's lines, the threat marks, the board's looks. Each is handed
the app as a `Host`: the match it plays, the session's settings, its redraws, and the
handful of Textual services a part needs (notices, screens, workers, messages,
timers). Parts never reach into each other; the app wires them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, Protocol

from textual.message import Message
from textual.screen import Screen
from textual.worker import Worker
from textual.worker_manager import WorkerManager

from c4tui.app.settings import Settings
from c4tui.engine.board.position import Position
from c4tui.engine.gil import UiActivity

if TYPE_CHECKING:  # a served client has neither: importing them cost it 0.1-0.2 s at start
    from c4tui.match.controller import Match
    from c4tui.records.kept_games import GameLibrary


class Host(Protocol):
    match: Match
    settings: Settings
    library: GameLibrary
    activity: UiActivity
    cursor: int  # the column the person's cursor is on
    steady: bool  # nothing time-dependent on screen (snapshots)

    # ---- the game screen -----------------------------------------------------------
    def update(self) -> None:
        """Tell the match's notices and redraw (the match starts its engines itself)."""

    def refresh_view(self) -> None:
        """Redraw every widget from the match."""

    def show_notices(self) -> None:
        """Tell the match's notices."""

    def cancel_search(self) -> None:
        """Stop the running search; whatever it still sends is stale."""

    def remember(self, **changes: object) -> None:
        """Keep these settings, for this session and the next."""

    def review_in_lines(self, game: Position, people: set[int]) -> bool:
        """In the screen-reader mode, say the review of `game` in lines (True); out of
        it, False: the review screen shows it."""

    # ---- Textual's services, as parts use them ------------------------------------
    @property
    def workers(self) -> WorkerManager: ...
    @property
    def available_themes(self) -> dict[str, Any]: ...

    no_color: bool
    animation_level: Literal["none", "basic", "full"]  # Textual's levels

    def notify(
        self, message: str, *, title: str = "", severity: Any = ..., timeout: float | None = None
    ) -> None: ...
    def clear_notifications(self) -> None: ...
    def push_screen(
        self, screen: Screen[Any] | str, callback: Callable[[Any], Any] | None = None
    ) -> Any: ...
    def run_worker(
        self,
        work: Callable[[], Any],
        name: str | None = "",
        group: str = "default",
        description: str = "",
        exit_on_error: bool = True,
        start: bool = True,
        exclusive: bool = False,
        thread: bool = False,
    ) -> Worker[Any]: ...
    def post_message(self, message: Message) -> bool: ...
    def call_after_refresh(self, callback: Callable[..., Any], *args: Any) -> bool: ...
    def set_timer(self, delay: float, callback: Callable[[], Any]) -> Any: ...
    def copy_to_clipboard(self, text: str) -> None: ...
