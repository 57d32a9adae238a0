"""RoomScreen: a game in a room of `c4tui serve`, for its players and its spectators.

The same board, thinking panel and move list as the local game, drawn from the room the
service last sent (c4tui/match/remote.py); the keys send intents, and the service's
answer comes back as the next room. Spectators get the same screen without the keys
that move. Beside the board: who sits where, who is connected (a dropped player's seat
counts down), who watches, the room's code to pass on and this player's seat code.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Static

from c4tui.app.keys import BOARD_KEYS, cursor_moved, cursor_start
from c4tui.app.messages import ColumnClicked
from c4tui.app.screens.answer import AnswerScreen
from c4tui.app.status_words import room_outcome_text, room_status_text
from c4tui.app.widgets.board import Board, BoardView
from c4tui.app.widgets.history import MoveHistory
from c4tui.app.widgets.thinking import ThinkingPanel, ThinkingView
from c4tui.engine.players.contract import SearchInfo
from c4tui.match.remote import RemoteMatch
from c4tui.match.room_view import RoomView
from c4tui.match.sides import GLYPHS, engine_title

OFFER_WORDS = {"draw": "offers a draw", "take_back": "asks to take back a move"}
OFFER_NAMES = {"draw": "draw offer", "take_back": "take-back request"}
PLAYER_ACTIONS = ("drop", "drop_at_cursor", "move_now", "take_back", "offer_draw", "resign")


def held_words(seconds: float) -> str:
    minutes, seconds = divmod(max(0, int(seconds)), 60)
    return f"dropped, seat held {minutes}:{seconds:02d}"


class RoomScreen(Screen[None]):
    """One room: board, seats, thinking panel and moves (see the module docstring)."""

    AUTO_FOCUS = ""  # the keys are the screen's; the chat line takes focus only on `c`
    BINDINGS: ClassVar[list[BindingType]] = [
        *BOARD_KEYS,
        Binding("m", "move_now", "AI move"),
        Binding("u", "take_back", "Take back"),
        Binding("d", "offer_draw", "Draw?"),
        Binding("R", "resign", "Resign", key_display="R"),
        Binding("n", "rematch", "Rematch"),
        Binding("c", "chat", "Say"),
        Binding("escape", "leave", "Lobby"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, match: RemoteMatch, *, steady: bool = False) -> None:
        """`steady`: nothing time-dependent on screen (tests): no falling discs, no clocks."""
        super().__init__()
        self.match = match
        self.steady = steady
        self.view: RoomView | None = None
        self.info: SearchInfo | None = None
        self.cursor = 3
        self._asked: str | None = None  # the other side's offer being asked about
        self._question: AnswerScreen | None = None

    def compose(self) -> ComposeResult:
        self.board = Board(id="board")
        self.status_line = Static(id="status")
        self.seats = Static(id="seats")
        self.thinking_panel = ThinkingPanel(id="thinking")
        self.history = MoveHistory(id="history")
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="play"):
                yield self.board
                yield self.status_line
                yield Input(placeholder="Say something to the room, then Enter", id="chat")
            with Vertical(id="side"):
                yield self.seats
                yield self.thinking_panel
                yield self.history
        yield Footer()

    def on_mount(self) -> None:
        self.board.border_title = "Board"
        self.seats.border_title = "Room"
        self.set_interval(1.0, self._count_down)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Spectators have no keys that move; rematch only once the game is over."""
        view = self.view
        if action in PLAYER_ACTIONS or action == "rematch":
            if view is None or not view.playing:
                return False
            if action == "rematch":
                return view.over
            if view.over and action != "take_back":  # the winning move may be taken back
                return False
            if action == "move_now":
                return any(seat.ai is not None for seat in view.seats)
        return True

    # ---- drawing ------------------------------------------------------------------

    def show_room(self, view: RoomView) -> None:
        old, self.view = self.view, view
        if old is None or old.number != view.number or old.search != view.search:
            self.info = view.info
        if old is None or old.number != view.number:
            self.cursor = cursor_start(view.position.width)
        if old is None or (old.playing, old.over) != (view.playing, view.over):  # footer keys
            self.refresh_bindings()
        self._draw()
        self._ask_if_offered(view)
        if view.trouble and (old is None or old.trouble != view.trouble):
            self.notify(view.trouble, severity="error", timeout=8)

    def show_thinking(self, info: SearchInfo) -> None:
        self.info = info
        if self.view is not None:
            self._draw_thinking(self.view)
            board = self.board.view
            if board is not None and board.preferred != info.best:
                self.board.view = replace(board, preferred=info.best)

    def _draw(self) -> None:
        view = self.view
        if view is None:
            return
        pos = view.position
        mine = view.my_turn()
        self.cursor = cursor_moved(self.cursor, 0, pos.width)
        winning = pos.winning_cells() if pos.winner() is not None else ()
        self.board.drops_fall = not self.steady
        self.board.view = BoardView(
            position=pos,
            cursor=self.cursor if mine else None,
            preferred=self.info.best if view.thinking and self.info is not None else None,
            winning=winning,
            result=room_outcome_text(view) or "",
            next_steps="n rematch · esc lobby" if view.playing else "esc lobby",
        )
        self.status_line.update(
            Text(room_status_text(view, self.BINDINGS)), layout=False
        )  # names, not markup
        self.seats.update(self._seats_text(view))
        self._draw_thinking(view)
        ai_plays = any(seat.ai is not None for seat in view.seats)
        self.history.show(self.match.game, *self.match.evaluation_line(), ai_plays)
        names = f"{view.seats[0].title} {GLYPHS[0]}  vs  {view.seats[1].title} {GLYPHS[1]}"
        role = "playing" if view.playing else "watching"
        self.sub_title = f"Room {view.number} · {names} · you are {role}"

    def _seats_text(self, view: RoomView) -> Text:
        text = Text()
        now = time.monotonic()
        for index, seat in enumerate(view.seats):
            if seat.open:
                state = "open: waiting for a player"
            elif seat.held_until is not None:
                state = held_words(seat.held_until - now)
            elif not seat.here:
                state = "away"
            else:
                state = "AI" if seat.ai is not None else "here"
            you = " (you)" if view.seat == index else ""
            text.append(f"{GLYPHS[index]} {seat.title}{you}", style="bold")
            text.append(f" · {state}\n")
        if view.watchers:
            text.append(f"Watching: {', '.join(view.watchers)}\n")
        for offer, by in view.offers.items():
            if by == view.seat:
                text.append(f"Your {OFFER_NAMES[offer]} waits for an answer.\n", style="italic")
        asked = [i for i in view.rematch if i != view.seat]
        if asked and view.playing:
            text.append(
                f"{view.seats[asked[0]].title} wants a rematch: n to play it.\n", style="bold"
            )
        text.append(f"Room {view.number}")
        if view.code is not None:
            text.append(f" · code {view.code}")
        if view.seat_code:
            text.append(f" · your seat code {view.seat_code}", style="dim")
        return text

    def _count_down(self) -> None:
        view = self.view
        if view is not None and any(seat.held_until is not None for seat in view.seats):
            self.seats.update(self._seats_text(view))

    def _draw_thinking(self, view: RoomView) -> None:
        spec = view.thinking_spec or next((s.ai for s in view.seats if s.ai is not None), None)
        self.thinking_panel.display = spec is not None  # two people: nothing to show
        if spec is None:
            return
        label = engine_title(spec) + (f" ({spec})" if ":" in spec else "")
        limits = self.match.limits(spec)
        self.thinking_panel.show(
            ThinkingView(
                info=self.info,
                position=view.position,
                limits=limits,
                label=label,
                running=view.thinking,
                steady=self.steady,
            )
        )

    def _ask_if_offered(self, view: RoomView) -> None:
        """Ask this player about the other side's offer, once; an offer withdrawn (a move
        clears it) takes its question away."""
        offer = view.offer_to_me()
        if offer == self._asked:
            return
        if self._question is not None and self.app.screen is self._question:
            self.app.pop_screen()
        self._asked, self._question = offer, None
        if offer is None:
            return
        other = view.seats[1 - (view.seat or 0)].title
        question = f"{other} {OFFER_WORDS[offer]}. Accept?"

        def answered(accept: bool | None) -> None:
            self._question = None  # still asked: until the service's answer clears it
            self.match.answer(offer, bool(accept))

        self._question = AnswerScreen(question)
        self.app.push_screen(self._question, answered)

    # ---- keys ---------------------------------------------------------------------

    def action_cursor(self, step: int) -> None:
        if self.view is not None:
            self.cursor = cursor_moved(self.cursor, step, self.view.position.width)
            self._draw()

    def action_drop_at_cursor(self) -> None:
        self._drop(self.cursor)

    def action_drop(self, column: int) -> None:
        self._drop(column)

    def on_column_clicked(self, message: ColumnClicked) -> None:
        self._drop(message.column)

    def _drop(self, column: int) -> None:
        view = self.view
        if view is None or not view.playing:
            return
        if column < view.position.width:
            self.cursor = column
        self.match.drop(column)

    def action_move_now(self) -> None:
        self.match.move_now()

    def action_take_back(self) -> None:
        self.match.take_back()

    def action_offer_draw(self) -> None:
        self.match.offer_draw()
        self.notify("Draw offered.", timeout=2)

    def action_resign(self) -> None:
        def confirmed(sure: bool | None) -> None:
            if sure:
                self.match.resign()

        self.app.push_screen(AnswerScreen("Resign this game?"), confirmed)

    def action_rematch(self) -> None:
        self.match.new_game()
        self.notify("Rematch asked: colours swap when both agree.", timeout=3)

    def action_chat(self) -> None:
        chat = self.query_one("#chat", Input)
        chat.display = True
        chat.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.match.say(event.value)
        self._close_chat()

    def _close_chat(self) -> None:
        chat = self.query_one("#chat", Input)
        chat.clear()
        chat.display = False
        self.set_focus(None)

    def action_leave(self) -> None:
        if self.query_one("#chat", Input).display:  # Escape closes the chat line first
            self._close_chat()
            return
        self.match.leave()
