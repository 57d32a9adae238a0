"""ServedApp: the app as a client of `c4tui serve` (`c4tui --served`), one per session.

Started by the server's ssh or web front in a private directory, it connects to the room
service with the token its front put in the environment (c4tui/match/remote.py) and
shows the lobby, then a room: the game screen every game has (screens/game.py) on the
room's `RemoteMatch`, with the room's panel beside the board. It reads and writes no
files of the host: no settings (the looks chosen here last the session), no kept games
(the server keeps them), no save-as, no --load, no screenshots.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import replace
from typing import Any

from textual import events
from textual.app import App, SystemCommand
from textual.driver import Driver
from textual.drivers.linux_driver import LinuxDriver
from textual.screen import Screen
from textual.widgets import DataTable, OptionList

from c4tui.app.key_order import KeyOrder
from c4tui.app.keys import keyed_command
from c4tui.app.lines import GameLines
from c4tui.app.looks import Looks
from c4tui.app.notices import STEADY_NOTICE_SECONDS
from c4tui.app.quiet_driver import QuietDriver
from c4tui.app.reader.log import Spoken
from c4tui.app.reader.mode import asked_by_environment, reading
from c4tui.app.reader.switch import cursor_follows, cursor_on, reader_command, set_reading
from c4tui.app.reader.words import notice_line
from c4tui.app.room_actions import RoomActions
from c4tui.app.screens.bot_token import BotTokenScreen
from c4tui.app.screens.game import GameScreen
from c4tui.app.screens.lobby import LobbyScreen
from c4tui.app.screens.my_games import MyGamesScreen
from c4tui.app.screens.profile import ProfileScreen
from c4tui.app.screens.tournament import TournamentScreen
from c4tui.app.settings import Settings
from c4tui.app.status_words import worded
from c4tui.app.stylesheets import SERVED_STYLESHEETS
from c4tui.app.widgets.room_panel import RoomPanel
from c4tui.match.interface import MatchEvent
from c4tui.match.remote import RemoteMatch
from c4tui.match.room_events import (
    BotTokenMade,
    ChallengesChanged,
    Closed,
    GamesListed,
    LeaderboardShown,
    LobbyChanged,
    MoveArrived,
    NameRefused,
    ProfileShown,
    Renamed,
    RoomChanged,
    RoomEvent,
    Said,
    SeekChanged,
    TournamentChanged,
    TournamentsChanged,
)
from c4tui.match.room_view import RoomView
from c4tui.match.search_requests import Notice
from c4tui.server.wire.room_client import RoomError

Connect = Callable[[], Awaitable[RemoteMatch]]
# What the app acts on itself (the game screen hears the game's own events).
LOBBY_AND_ROOM_EVENTS = (
    RoomChanged,
    LobbyChanged,
    GamesListed,
    Said,
    Notice,
    Closed,
    ProfileShown,
    MoveArrived,
    BotTokenMade,
    TournamentsChanged,
    TournamentChanged,
    SeekChanged,
    ChallengesChanged,
    LeaderboardShown,
    Renamed,
    NameRefused,
)
# Textual's own palette commands a served player has no use for: a screenshot would be
# written on the server, where the player cannot read it (and clients may not write).
HOST_ONLY_COMMANDS = {"Screenshot"}


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
        # The looks of this session (never written: the host's files are not a client's).
        # Discs land at once unless the person chooses falling ones in the palette: a
        # fall's frames cost a player's client half its CPU a move (docs/deployment.md).
        self.settings = Settings(animation=False)
        self.parts: dict[str, Any] = {}
        self.spoken = Spoken()  # the screen-reader mode's lines (reader/)
        self._room: RoomView | None = None  # the room last drawn
        self._told: deque[MatchEvent | RoomEvent] = deque()  # to act on, in order (_heard)
        self.key_order = KeyOrder(self)
        if steady:
            self.animation_level = "none"

    def get_driver_class(self) -> type[Driver]:
        """On a terminal, the driver that sleeps while no key comes (quiet_driver.py);
        Textual's choice otherwise (a browser's, which textual-serve names)."""
        chosen = super().get_driver_class()
        return QuietDriver if chosen is LinuxDriver else chosen

    async def on_mount(self) -> None:
        try:
            self.match = await self._connect()
        except RoomError as error:
            self.exit(return_code=2, message=f"c4tui --served: {error}")
            return
        self.room_panel = RoomPanel(self.match)
        self.room_actions = RoomActions(self, self.room_panel)
        self.game_lines = GameLines(self)  # type: ignore[arg-type]
        self.looks = Looks(self, land=lambda: self.room_screen.board.land())  # type: ignore[arg-type]
        self.parts = {"ai": self.room_actions, "room": self.room_actions, "lines": self.game_lines}
        self.lobby_screen = LobbyScreen(self.match)
        self.room_screen = GameScreen(self.match, panel=self.room_panel, spoken=self.spoken)
        self.install_screen(self.lobby_screen, "lobby")
        self.install_screen(self.room_screen, "room")
        await self.push_screen("lobby")
        set_reading(self, asked_by_environment())
        self.match.listen(self._heard)
        self.run_worker(self.match.run(), name="room service", exit_on_error=False)

    def notify(self, message: str, *, timeout: float | None = None, **options: Any) -> None:
        if reading(self):  # a line among the others, not a toast over them
            self.spoken.say(notice_line(message, options.get("title", "")))
            return
        timeout = STEADY_NOTICE_SECONDS if self.steady else timeout
        super().notify(message, timeout=timeout, **options)

    async def on_event(self, event: events.Event) -> None:
        if self.key_order.holds(event):  # its turn comes when the key before it is done
            return
        await super().on_event(event)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        cursor_on(self, event.widget)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        cursor_follows(self, event.option_list)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        # After the refresh: a table's first row is highlighted before it is laid out.
        self.call_after_refresh(cursor_follows, self, event.data_table)

    def _heard(self, event: MatchEvent | RoomEvent) -> None:
        """Queue what the room says to be acted on, in order, each after the last (the
        room's screen may need composing first); the game screen hears the game's
        events itself."""
        if isinstance(event, LOBBY_AND_ROOM_EVENTS):
            self._told.append(event)
            # A bound method, the same each time: Textual reads a callback's signature
            # to call it, once for a method but anew for each partial (2.5 ms each).
            self.call_later(self._act_on_next)

    async def _act_on_next(self) -> None:
        await self.on_match_event(self._told.popleft())

    def show_profile(self, event: ProfileShown) -> None:
        """A profile on its screen: the one showing, if it is this player's, else a new one."""
        shown = self.screen
        same = event.profile.name.casefold()
        if isinstance(shown, ProfileScreen) and (
            shown.profile.name.casefold() == same or (shown.profile.you and event.profile.you)
        ):
            shown.show(event.profile)  # one's own, under a name just chosen too
            return
        self.push_screen(
            ProfileScreen(
                event.profile,
                block=self.match.block,
                set_password=self.match.set_password,
                choose_name=self.match.choose_name,
            )
        )

    def on_unmount(self) -> None:
        if hasattr(self, "match"):
            self.match.stop()

    async def on_match_event(self, event: MatchEvent | RoomEvent) -> None:
        """Act on what the service said: show the lobby or the room, list the games,
        say what there is to say."""
        if isinstance(event, RoomChanged):
            old, self._room = self._room, event.room
            await self._show("room")  # drawn by the screen, which heard the change too
            self.room_actions.ask_if_offered(event.room)
            trouble = event.room.trouble
            if trouble and (old is None or old.trouble != trouble):
                self.notify(trouble, severity="error", timeout=8)
        elif isinstance(event, LobbyChanged):
            await self._show("lobby")
            self.lobby_screen.show_lobby(event.lobby)
        elif isinstance(event, GamesListed):
            self.push_screen(MyGamesScreen(event.games, self.match.name))
        elif isinstance(event, MoveArrived):
            self.notify(
                f"Your move in room {event.room}, against {event.against}.",
                title="Your move",
                timeout=8,
                markup=False,
            )
            if event.bell:
                self.bell()  # the terminal's bell: a BEL on ssh, a sound in a browser
        elif isinstance(event, ProfileShown):
            self.show_profile(event)
        elif isinstance(event, Renamed):
            self.lobby_screen.show_you()
        elif isinstance(event, NameRefused):
            if isinstance(self.screen, ProfileScreen):
                self.screen.name_refused(event.reason)  # under the field it was typed in
            else:
                self.notify(event.reason, severity="warning", timeout=4, markup=False)
        elif isinstance(event, Said) and reading(self):
            pass  # said among the lines by the room screen's narrator
        elif isinstance(event, SeekChanged):
            self.lobby_screen.show_seeking(event.seeking)
        elif isinstance(event, ChallengesChanged):
            self.lobby_screen.show_challenges(event.challenges)
        elif isinstance(event, LeaderboardShown):
            self.lobby_screen.show_leaderboard(event.leaderboard)
        elif isinstance(event, Said):
            if self.screen is self.room_screen or self.room_screen in self.screen_stack:
                self.room_panel.heard(event.name, event.text)  # kept beside the board
            else:
                self.notify(event.text, title=event.name, timeout=8, markup=False)
        elif isinstance(event, Notice):
            self.notify(
                worded(event.text),
                title=event.title,
                severity=event.severity,
                timeout=event.timeout,
                markup=False,
            )
        elif isinstance(event, BotTokenMade):
            if not isinstance(self.screen, BotTokenScreen):
                await self.push_screen(BotTokenScreen(self.match))
            assert isinstance(self.screen, BotTokenScreen)
            self.screen.show_token(event.name, event.token)
        elif isinstance(event, Closed):
            self.exit(message=event.reason)
        elif isinstance(event, (TournamentsChanged, TournamentChanged)):
            for screen in self.screen_stack:
                if isinstance(screen, TournamentScreen):
                    screen.heard(event)

    async def _show(self, name: str) -> None:
        """Bring the lobby or the room up, closing what was opened over the other."""
        target = self.get_screen(name)
        if target in self.screen_stack:
            return
        while len(self.screen_stack) > 2:
            self.pop_screen()
        await self.switch_screen(name)

    # ---- the game screen's shell (screens/game.py) ----------------------------------

    def allows(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A room's keys, as the match's view says it accepts them now."""
        refused = self.match.refused()
        if action == "drop_at_cursor":  # on while this player may drop now
            view = self.match.view()
            # On a finished game's analysis board: while the line shown is not over
            # (at its end a drop only says so: step back first).
            analysing = "jump" not in refused and not self.match.position.is_over()
            if view.moves_now() or view.waits() or analysing:
                return True
            # A player's key dimmed while the other side moves, not hidden: a key that
            # came and went with every move laid the whole screen out again each time.
            room = view.room
            return None if room is not None and room.playing and not room.over else False
        if action == "drop":
            return "drop" not in refused or "jump" not in refused  # or the analysis board
        if action in ("cursor", "help", "quit"):
            return True
        if action != "part":
            return False  # undo, redo, a new game, settings: a game of one's own
        part, name = str(parameters[0]), str(parameters[1])
        if part == "lines":
            return "jump" not in refused
        if part in ("ai", "room"):
            return name in ("chat", "leave") or (
                hasattr(self.room_actions, name) and self.room_actions.allows(name)
            )
        return False

    def marks(self) -> None:
        """No scores or threats on a room's board: they would tell a player the answers."""
        return None

    def act(self, action: str) -> None:
        if action == "update":
            self.refresh_view()
        elif action == "quit":
            self.room_actions.quit(self.exit)

    # ---- what the parts use of the app (host.py) ------------------------------------

    def update(self) -> None:
        self.refresh_view()

    def refresh_view(self) -> None:
        self.room_screen.redraw_soon()

    def show_notices(self) -> None:
        """The room's notices are said as they come (on_match_event)."""

    def cancel_search(self) -> None:
        """The room's searches are the server's."""

    @property
    def cursor(self) -> int:
        return self.room_screen.cursor

    @cursor.setter
    def cursor(self, column: int) -> None:
        self.room_screen.cursor = column

    def remember(self, **changes: object) -> None:
        """Looks chosen in the palette, for this session only."""
        self.settings = replace(self.settings, **changes)  # type: ignore[arg-type]

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        if screen is self.room_screen:
            yield from self.room_actions.commands()
            yield from self.looks.commands()
            yield keyed_command("Help", "Keys and the thinking panel", "help", screen.action_help)
        yield reader_command(self)
        for command in super().get_system_commands(screen):
            if command.title not in HOST_ONLY_COMMANDS:
                yield command
