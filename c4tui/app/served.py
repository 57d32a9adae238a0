"""ServedApp: the app as a client of `c4tui serve` (`c4tui --served`), one per session.

Started by the server's ssh or web front in a private directory, it connects to the room
service with the token its front put in the environment (c4tui/match/remote.py) and
shows the lobby, then a room. It reads and writes no files of the host: no settings,
no kept games (the server keeps them), no save-as, no --load.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from textual.app import App

from c4tui.app.screens.lobby import LobbyScreen
from c4tui.app.screens.my_games import MyGamesScreen
from c4tui.app.screens.room import RoomScreen
from c4tui.app.stylesheets import SERVED_STYLESHEETS
from c4tui.match.interface import MatchEvent, SearchProgress
from c4tui.match.remote import (
    Closed,
    GamesListed,
    LobbyChanged,
    RemoteMatch,
    RoomChanged,
    RoomEvent,
    Said,
)
from c4tui.match.search_requests import Notice
from c4tui.rooms.room_client import RoomError

Connect = Callable[[], Awaitable[RemoteMatch]]


class ServedApp(App[None]):
    """The lobby and the rooms of a server, for one player."""

    CSS_PATH = SERVED_STYLESHEETS
    TITLE = "c4tui"

    def __init__(
        self, *, steady: bool = False, connect_with: Connect = RemoteMatch.from_environment
    ) -> None:
        """`steady` freezes what moves on screen (tests); `connect_with` makes the match."""
        super().__init__()
        self.steady = steady
        self._connect = connect_with
        self.match: RemoteMatch
        self._progress: SearchProgress | None = None  # the newest, not drawn yet
        if steady:
            self.animation_level = "none"

    async def on_mount(self) -> None:
        try:
            self.match = await self._connect()
        except RoomError as error:
            self.exit(return_code=2, message=f"c4tui --served: {error}")
            return
        self.lobby_screen = LobbyScreen(self.match)
        self.room_screen = RoomScreen(self.match, steady=self.steady)
        self.install_screen(self.lobby_screen, "lobby")
        self.install_screen(self.room_screen, "room")
        await self.push_screen("lobby")
        self.match.listen(self._heard)
        self.run_worker(self.match.run(), name="room service", exit_on_error=False)

    def _heard(self, event: MatchEvent | RoomEvent) -> None:
        """Queue the event to be drawn, in order, each after the last (a room's screen
        may need composing first). Of the search's progress only the newest waits: a
        slow terminal skips snapshots instead of falling behind the game."""
        if isinstance(event, SearchProgress):
            waiting = self._progress is not None
            self._progress = event
            if not waiting:
                self.call_later(self._show_progress)
            return
        self.call_later(self.on_match_event, event)

    def _show_progress(self) -> None:
        event, self._progress = self._progress, None
        view = self.room_screen.view
        if event is not None and view is not None and event.search_id == view.search:
            self.room_screen.show_thinking(event.info)

    def on_unmount(self) -> None:
        if hasattr(self, "match"):
            self.match.stop()

    async def on_match_event(self, event: MatchEvent | RoomEvent) -> None:
        """Draw what the service said. The room is drawn whole from each RoomChanged;
        PositionChanged and the other events of the board itself add nothing to it; the
        search's progress goes its own way (`_heard`)."""
        if isinstance(event, RoomChanged):
            await self._show("room")
            self.room_screen.show_room(event.room)
        elif isinstance(event, LobbyChanged):
            await self._show("lobby")
            self.lobby_screen.show_lobby(event.lobby)
        elif isinstance(event, GamesListed):
            self.push_screen(MyGamesScreen(event.games))
        elif isinstance(event, Said):
            self.notify(event.text, title=event.name, timeout=8, markup=False)
        elif isinstance(event, Notice):
            self.notify(
                event.text,
                title=event.title,
                severity=event.severity,
                timeout=event.timeout,
                markup=False,
            )
        elif isinstance(event, Closed):
            self.exit(message=event.reason)

    async def _show(self, name: str) -> None:
        """Bring the lobby or the room up, closing what was opened over the other."""
        target = self.get_screen(name)
        if target in self.screen_stack:
            return
        while len(self.screen_stack) > 2:
            self.pop_screen()
        await self.switch_screen(name)
