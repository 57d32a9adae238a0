"""LobbyScreen: the first screen of a served client: play the AI, make or join a room, watch.

On the left what a player can start: a game against the AI at a level, a room for two
(its code to pass on comes with the room), joining by a room's code (or taking a seat
back with a seat code), and the games this player has finished. On the right every room
on the server; Enter joins a room listed as open to anyone, or watches any other. Below:
who is online. The list follows the service's lobby as it changes.

Matchmaking (the dialogs are in screens/matchmaking.py): `f` finds a rated game with a
time control and the line above the online list shows the wait and the rating range,
`c` challenges a player, `y` / `n` answer the first challenge to you, `x` takes back
your first, `k` shows the leaderboard.

The letter keys are the lobby's, so the code box has the focus only while a code is
typed: Enter or Escape leaves it, and coming back from a room never puts the focus
there (a `r` would have been typed into it). `l` (or Down) goes to the rooms list.
"""

from __future__ import annotations

import time
from typing import ClassVar

from rich.markup import escape
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Checkbox, DataTable, Footer, Header, Input, Select, Static

from c4tui.app.reader.lobby import LobbyReader
from c4tui.app.reader.mode import reading
from c4tui.app.reader.switch import ReadingSwitched, set_reading
from c4tui.app.screens.bot_token import BotTokenScreen
from c4tui.app.screens.matchmaking import (
    ChallengeScreen,
    ControlScreen,
    LeaderboardScreen,
    control_words,
)
from c4tui.app.screens.room_list import (
    CLOCKS,
    COLUMNS,
    new_room_words,
    player_words,
    room_state,
)
from c4tui.app.screens.tournament import TournamentScreen
from c4tui.app.widgets.keyed_rows import KeyedRows, RowsTable
from c4tui.app.widgets.tick_box import TickBox
from c4tui.engine.players.levels import LEVELS, RATINGS, level_name, level_title
from c4tui.engine.players.specs import level_of, spec_text
from c4tui.match.remote import RemoteMatch
from c4tui.match.room_view import LobbyView, RoomSummary
from c4tui.server.wire.matchmaking_messages import ChallengeListed, Challenges, Leaderboard, Seeking

DEFAULT_LEVEL = level_name(3)
# Beside the levels, engines whose thinking is worth watching: they search for all of the
# server's AI time, and everyone in the room sees their thinking panel fill up.
WATCHABLE = (
    ("MCTS, watch it think", "mcts"),
    ("NegaMax, watch it think", "negamax"),
    ("AlphaZero, watch it think", "alphazero"),  # on a board it has a network for
)
BOT_CHOICE = "bot:"  # the opponents list's value of a bot online: "bot:NAME"
SERVER_CHOICE = "server:"  # of one of the operator's engines (server/service/requests.py OPERATORS)


IDLE_MATCHING = "f: find a rated game · c: challenge a player · k: leaderboard · t: tournaments"


class LobbyScreen(Screen[None]):
    """The lobby (see the module docstring)."""

    AUTO_FOCUS = "#play-ai"  # a letter typed into the levels list would search it
    CSS_PATH = "lobby.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "play_ai", "Play AI"),
        Binding("r", "new_room", "New room"),
        Binding("j", "focus_code", "Join"),
        Binding("l", "focus_rooms", "Rooms"),
        Binding("w", "watch", "Watch"),
        Binding("g", "games", "Games", show=False),  # its button says so
        Binding("p", "players", "Players"),
        Binding("b", "bot_token", "Bot token", show=False),  # its button says so
        # Matchmaking's keys are on the line above who is online (IDLE_MATCHING): the key
        # bar keeps the others whole at 80 columns.
        Binding("t", "tournaments", "Tournaments", show=False),
        Binding("s", "screen_reader", "Screen reader", show=False),
        Binding("B", "bell", "Bell on/off", show=False),  # the online line says which
        Binding("f", "find", "Find", show=False),
        Binding("c", "challenge", "Challenge", show=False),
        Binding("k", "leaderboard", "Leaderboard", show=False),
        Binding("y", "answer_challenge(True)", "Accept", show=False),
        Binding("n", "answer_challenge(False)", "Decline", show=False),
        Binding("x", "cancel_challenge", "Cancel my challenge", show=False),
        Binding("m", "next_clock", "Clock", show=False),  # New room's time control, in turn
        Binding("q", "app.quit", "Quit"),
        Binding("escape", "leave_code", "Leave the code box", show=False),
        # Down from the buttons goes to the rooms list (the list and the levels list
        # have their own Down while they have the focus).
        Binding("down", "focus_rooms", "Rooms", show=False),
    ]

    def __init__(self, match: RemoteMatch) -> None:
        super().__init__()
        self.match = match
        self.rooms: tuple[RoomSummary, ...] = ()
        self.bell = True  # this player's bell toggle, as the server last said
        self.clock = ""  # New room's time control (CLOCKS), "" none: m picks the next
        self.bots: tuple[str, ...] = ()  # the bots online, offered beside the AI
        self.engines: tuple[str, ...] = ()  # the operator's engines, by name
        self.seeking = Seeking(None)
        self.challenges = Challenges((), ())
        self.leaderboard = Leaderboard(())
        self._board_asked = False
        self._urgent_shown = False  # the list took the focus for a game waiting for a move
        self._seek_since = 0.0
        self._online: tuple[str, ...] = ()
        self._online_line = ""  # the online line as shown

    def opponents(self) -> list[tuple[str, str]]:
        """The levels, the engines to watch, and the bots online (a challenge to one)."""
        levels = [
            (f"{level_title(n)} (Elo {RATINGS.get(n, '?')})", level_name(n)) for n in sorted(LEVELS)
        ]
        bots = [(f"BOT {name}: challenge it", f"{BOT_CHOICE}{name}") for name in self.bots]
        served = [(f"{name} (this server's)", f"{SERVER_CHOICE}{name}") for name in self.engines]
        return levels + list(WATCHABLE) + served + bots

    def compose(self) -> ComposeResult:
        self.engines = self.match.server_engines
        levels = self.opponents()
        yield Header()
        with Horizontal(id="lobby-main"):
            with Vertical(id="lobby-start"):
                yield Static("Against the AI", classes="lobby-heading")
                yield Select(
                    levels, value=DEFAULT_LEVEL, allow_blank=False, id="level", compact=True
                )
                yield Button("Play the AI (a)", id="play-ai", variant="primary", compact=True)
                yield Static("With a friend", classes="lobby-heading")
                yield Button(new_room_words(self.clock), id="new-room", compact=True)
                yield TickBox("Anyone may join it", id="public", compact=True)
                yield Input(placeholder="Room or seat code (j)", id="code", compact=True)
                yield Static("Either game", classes="lobby-heading")
                yield TickBox("I play second (○)", id="second", compact=True)
                yield Button("My games (g)", id="games", compact=True)
                yield Button("Make a bot token (b)", id="bot-token", compact=True)
                yield TickBox("Screen reader (s)", id="screen-reader", compact=True)
            with Vertical(id="lobby-rooms"):
                table = RowsTable(id="rooms", cursor_type="row", zebra_stripes=True)
                self.rows = KeyedRows(table)  # each room's row by number, changed in place
                self.rows.add_columns(COLUMNS)
                yield table
        yield Static(id="matching")
        yield Static(id="online")
        self.reader = LobbyReader(self.match, self.app.spoken, id="lobby-reader")  # type: ignore[attr-defined]  # the served app's lines
        yield self.reader
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#lobby-start").border_title = "Play"
        self.query_one("#lobby-rooms").border_title = "Rooms"
        self.query_one("#play-ai", Button).focus()  # unless a game waits for a move
        self.show_you()
        self.show_lobby(self.match.lobby)
        self._show_matching()

    def show_you(self) -> None:
        """Who this player is (again after choosing a name)."""
        # The first line a screen reader says: how to turn its mode on (the tick box may
        # be below the Play panel's fold at 80x24).
        self.sub_title = f"Play together · you are {self.match.name} · s: screen reader"

    def show_lobby(self, lobby: LobbyView) -> None:
        # The rooms where it is this player's move come first, the most urgent at the top
        # (a correspondence player's list of games waiting for them, first thing at login).
        first = {number: index for index, number in enumerate(lobby.your_move)}
        self.rooms = tuple(sorted(lobby.rooms, key=lambda r: first.get(r.number, len(first))))
        table = self.query_one("#rooms", DataTable)
        rows = {
            str(room.number): (  # escaped: a name such as "[b]" is a name, not markup
                str(room.number),
                escape(player_words(room.players[0])),
                escape(player_words(room.players[1])),
                escape(room_state(room, room.number in first)),
                str(room.watchers or ""),
            )
            for room in self.rooms
        }
        # Only the rows that changed are drawn again (a lobby of hundreds of rooms
        # changes a row at a time); the cursor stays on its row unless the rooms
        # waiting for this player's move came to the top.
        if self.rows.show(rows) and first:
            table.move_cursor(row=0)
        elif self.rooms and table.cursor_row >= len(self.rooms):
            table.move_cursor(row=len(self.rooms) - 1)
        if first and not self._urgent_shown:
            self._urgent_shown = True
            # A game waiting for this player's move is what they came for: the list takes
            # the focus from Play the AI, so that Enter opens the row under the cursor.
            if self.focused is None or self.focused.id == "play-ai":
                table.focus()
        self.bell = lobby.bell
        self._online = lobby.online
        online = ", ".join(lobby.online) or "nobody"
        # The bell's toggle on this line: the Play panel has no line to spare at 80x24.
        bell = "on" if lobby.bell else "off"
        line = f"m: clock · B: bell {bell} · Online ({len(lobby.online)}): {online}"
        if lobby.bots:
            line += f" · bots ({len(lobby.bots)}): " + ", ".join(f"BOT {b}" for b in lobby.bots)
        if line != self._online_line:  # the same words: nothing to draw
            self._online_line = line
            # One line, cut to the width (served.tcss): new words need no layout pass,
            # which would draw the whole screen again.
            self.query_one("#online", Static).update(Text(line), layout=False)
        self._offer_bots(lobby.bots)
        self.reader.show_lobby(lobby)

    def _offer_bots(self, bots: tuple[str, ...]) -> None:
        """The bots online among the opponents (the one picked stays, if still there)."""
        if bots == self.bots:
            return
        self.bots = bots
        select: Select[str] = self.query_one("#level", Select)
        picked = select.value
        options = self.opponents()
        select.set_options(options)
        if picked in {value for _, value in options}:
            select.value = picked

    # ---- starting something ---------------------------------------------------------

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {
            "play-ai": self.action_play_ai,
            "new-room": self.action_new_room,
            "games": self.action_games,
            "bot-token": self.action_bot_token,
        }
        action = actions.get(event.button.id or "")
        if action is not None:
            action()

    def action_next_clock(self) -> None:
        """The next time control for a new room (after the last, no clock again); the
        button says which."""
        values = [value for _, value in CLOCKS]
        self.clock = values[(values.index(self.clock) + 1) % len(values)]
        self.query_one("#new-room", Button).label = new_room_words(self.clock)

    def action_bell(self) -> None:
        """The bell when it becomes my move in a game I am not looking at: on or off
        (kept by the server for this player; the lobby comes back saying which)."""
        self.match.bell(not self.bell)

    def on_select_changed(self, event: Select.Changed) -> None:
        # Next is playing it: Enter on the button (a typed in the list searches it).
        # Only for a level the person picked: the Select's own change as it is mounted
        # came after `j` had put the focus in the code field, and took it away.
        if event.select.has_focus_within:
            self.query_one("#play-ai", Button).focus()

    def action_play_ai(self) -> None:
        spec = str(self.query_one("#level", Select).value)
        second = self.query_one("#second", Checkbox).value
        if spec.startswith(BOT_CHOICE):  # a bot online: it is challenged, and may accept
            self.match.challenge_bot(spec.removeprefix(BOT_CHOICE), second=second)
            return
        if spec.startswith(SERVER_CHOICE):  # the operator's: the server knows its spec
            self.match.create(spec, second=second)
            return
        if level_of(spec) is None:  # an engine to watch: it thinks for all of the AI's time
            spec = spec_text(spec, [("time", self.match.ai_seconds)])
        self.match.create(spec, second=second)

    def action_new_room(self) -> None:
        public = self.query_one("#public", Checkbox).value
        second = self.query_one("#second", Checkbox).value
        self.match.create(None, second=second, public=public, clock=self.clock or None)

    def action_focus_code(self) -> None:
        self.query_one("#code", Input).focus()

    def action_focus_rooms(self) -> None:
        self.query_one("#rooms", DataTable).focus()

    def action_leave_code(self) -> None:
        if isinstance(self.focused, Input):
            self.query_one("#play-ai", Button).focus()

    def action_screen_reader(self) -> None:
        # The mode, not the tick box, says what `s` does: the box had stayed ticked after
        # `reader off` (typed), so `s` set it to ticked again, changed nothing, and the
        # mode could not be had back but from the palette.
        set_reading(self.app, not reading(self.app))

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        if event.checkbox.id == "screen-reader":
            set_reading(self.app, event.value)

    def on_reading_switched(self, event: ReadingSwitched) -> None:
        """The tick box shows the mode, however it was switched."""
        self.query_one("#screen-reader", Checkbox).value = event.on

    def on_screen_resume(self) -> None:
        self.query_one("#screen-reader", Checkbox).value = reading(self.app)
        if reading(self.app):  # the lines' command line, where the cursor is
            self.reader.take_focus()
            return
        # Back from a room (or My games): the keys are the lobby's again, not the code box's.
        if isinstance(self.focused, Input):
            self.query_one("#play-ai", Button).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        code = event.value.strip()
        event.input.clear()
        self.query_one("#play-ai", Button).focus()
        if code:
            self.match.join(code)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self._enter(event.cursor_row, join=True)

    def action_watch(self) -> None:
        self._enter(self.query_one("#rooms", DataTable).cursor_row, join=False)

    def _enter(self, row: int, *, join: bool) -> None:
        if not 0 <= row < len(self.rooms):
            self.notify("No room to enter: make one, or join one by its code.", timeout=3)
            return
        room = self.rooms[row]
        if join and room.open and room.code is not None:
            self.match.join(room.code)
        else:
            self.match.watch(room.number)

    def action_games(self) -> None:
        self.match.games()

    def action_players(self) -> None:
        """Who is online (and any name typed): Enter asks for that player's profile."""
        from c4tui.app.screens.profile import PlayersScreen

        def chosen(name: str | None) -> None:
            if name is not None:
                self.match.profile(name)

        self.app.push_screen(PlayersScreen(self.match.lobby.online, self.match.name), chosen)

    def action_bot_token(self) -> None:
        self.app.push_screen(BotTokenScreen(self.match))

    def action_tournaments(self) -> None:
        self.app.push_screen(TournamentScreen(self.match))

    # ---- matchmaking ----------------------------------------------------------------

    def show_seeking(self, seeking: Seeking) -> None:
        if seeking.control != self.seeking.control:
            self._seek_since = time.monotonic()
        self.reader.seeking_changed(self.seeking, seeking)
        self.seeking = seeking
        self._show_matching()

    def show_challenges(self, challenges: Challenges) -> None:
        self.reader.challenges_changed(self.challenges, challenges)
        self.challenges = challenges
        self._show_matching()

    def show_leaderboard(self, leaderboard: Leaderboard) -> None:
        self.leaderboard = leaderboard
        if self._board_asked:
            self._board_asked = False
            self.app.push_screen(LeaderboardScreen(leaderboard))

    def _show_matching(self) -> None:
        """The seek and the challenges, a line each, above who is online."""
        lines = []
        seeking = self.seeking
        if seeking.control is not None:
            minutes, seconds = divmod(int(time.monotonic() - self._seek_since), 60)
            others = f"{seeking.waiting} more waiting" if seeking.waiting else "nobody else yet"
            lines.append(
                f"Finding a {control_words(seeking.control)} game: ratings {seeking.range}, "
                f"{others}, {minutes}:{seconds:02d} (f stops)"
            )
        for n, challenge in enumerate(self.challenges.to_me):
            keys = " (y accept, n decline)" if n == 0 else ""
            lines.append(f"{challenge.name} challenges you: {self._terms(challenge)}{keys}")
        for n, challenge in enumerate(self.challenges.mine):
            keys = " (x cancels)" if n == 0 else ""
            lines.append(f"You challenged {challenge.name}: {self._terms(challenge)}{keys}")
        if not lines:  # nothing going on: the keys of matchmaking
            lines.append(IDLE_MATCHING)
        self.query_one("#matching", Static).update(Text("\n".join(lines)))

    @staticmethod
    def _terms(challenge: ChallengeListed) -> str:
        return f"{control_words(challenge.control)}, {'rated' if challenge.rated else 'casual'}"

    def action_find(self) -> None:
        if self.seeking.control is not None:
            self.match.unseek()
            return

        def chosen(control: str | None) -> None:
            if control is not None:
                self.match.seek(control)

        self.app.push_screen(ControlScreen(), chosen)

    def action_challenge(self, name: str = "") -> None:
        others = [name] if name else [n for n in self._online if n != self.match.name]

        def chosen(challenge: tuple[str, str, bool] | None) -> None:
            if challenge is not None:
                name, control, rated = challenge
                self.match.challenge(name, control, rated=rated)

        self.app.push_screen(ChallengeScreen(others[0] if others else ""), chosen)

    def action_answer_challenge(self, accept: bool) -> None:
        if not self.challenges.to_me:
            self.notify("Nobody has challenged you.", timeout=3)
            return
        self.match.answer_challenge(self.challenges.to_me[0].id, accept)

    def action_cancel_challenge(self) -> None:
        if self.challenges.mine:
            self.match.cancel_challenge(self.challenges.mine[0].id)

    def action_leaderboard(self) -> None:
        self._board_asked = True
        self.match.leaderboard()
