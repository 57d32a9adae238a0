"""RoomPanel: beside the board of a room of `c4tui serve`: who sits where, who is
connected (a dropped player's seat counts down), who watches, the codes, and the room's
chat as a short history with the line to say something.

It draws the `RoomView` of the match's view and the chat lines handed to it; what is
typed goes to the room as a `say` intent.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Protocol

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.timer import Timer
from textual.widgets import Input, Static

from c4tui.app.widgets.clock import GameClock
from c4tui.match.interface import MatchView
from c4tui.match.room_view import RoomView
from c4tui.match.sides import GLYPHS

OFFER_NAMES = {"draw": "draw offer", "take_back": "take-back request"}
CHAT_LINES = 3  # the newest lines said in the room, kept on show


class Talker(Protocol):
    def say(self, text: str) -> None: ...


def held_words(seconds: float) -> str:
    minutes, seconds = divmod(max(0, int(seconds)), 60)
    return f"dropped, seat held {minutes}:{seconds:02d}"


def seat_state(view: RoomView, index: int, now: float) -> str:
    seat = view.seats[index]
    if seat.open:  # named: the one who played the game here and left
        return "left" if seat.name else "open: waiting for a player"
    if seat.held_until is not None:
        return held_words(seat.held_until - now)
    if not seat.here:
        return "away"
    return "AI" if seat.ai is not None else "here"


def seats_text(view: RoomView, now: float) -> Text:
    """The seats, the watchers, the offers waiting and the code to pass on, in as few
    lines as say it: both seats on one line while both sit there (an 80x24 terminal
    has room for the move list only so)."""
    text = Text(no_wrap=True, overflow="ellipsis")
    states = [seat_state(view, index, now) for index in (0, 1)]
    settled = all(state in ("here", "AI") for state in states)
    for index, seat in enumerate(view.seats):
        you = " (you)" if view.seat == index else ""
        text.append(f"{GLYPHS[index]} {seat.title}{you}", style="bold")
        if settled:
            text.append(" (AI)" if seat.ai is not None else "")
            text.append("   " if index == 0 else "\n")
        else:
            text.append(f" · {states[index]}\n")
    if view.watchers:
        text.append(f"Watching: {', '.join(view.watchers)}\n")
    for offer, by in view.offers.items():
        if by == view.seat:
            text.append(f"Your {OFFER_NAMES[offer]} waits for an answer.\n", style="italic")
    if view.claim_for_me():
        gone = view.seats[1 - (view.seat or 0)].title
        text.append(f"{gone} is gone: w claims the win, D a draw.\n", style="bold")
    asked = [i for i in view.rematch if i != view.seat]
    if asked and view.playing:
        text.append(f"{view.seats[asked[0]].title} wants a rematch: n to play it.\n", style="bold")
    # The room's code is the one to send a friend, while a seat is open for them (the
    # seat code, on the frame, brings this player back to this seat).
    if view.code is not None and any(seat.open for seat in view.seats):
        text.append(f"Friends join with code {view.code}\n")
    text.rstrip()
    return text


class RoomPanel(Vertical):
    """The room's seats and chat (see the module docstring)."""

    def __init__(self, talker: Talker) -> None:
        super().__init__(id="room-panel")
        self._talker = talker
        self._room: RoomView | None = None
        self._counting: Timer | None = None
        self._seats_shown: Text | None = None
        self.chat: deque[tuple[str, str]] = deque(maxlen=CHAT_LINES)

    def compose(self) -> ComposeResult:
        self.clock = GameClock()
        yield self.clock
        self.seats = Static(id="seats")
        self.said = Static(id="said")
        self.said.display = False
        self.line = Input(placeholder="Say something, then Enter", id="chat")
        yield self.seats
        yield self.said
        yield self.line

    def on_mount(self) -> None:
        self.border_title = "Room"
        # Only while a seat is held is there a countdown to show (`show` resumes it).
        self._counting = self.set_interval(1.0, self._count_down, pause=True)
        if self._room is not None:
            self._count_while_held(self._room)

    def show(self, view: MatchView) -> None:
        room = view.room
        if room is None:
            return
        if self._room is not None and self._room.number != room.number:
            self.chat.clear()
            self._show_chat()
        self._room = room
        clock = "" if room.clock is None else f" · {room.clock.words}"
        # Each of these repaints or lays out what it changes, even to the same words: a
        # redraw a move (and a cursor's step) made them the dearest part of a client's.
        title = f"Room {room.number}{clock}"
        if title != self.border_title:
            self.border_title = title
        code = f"your seat code {room.seat_code}" if room.seat_code else ""
        if code != self.border_subtitle:
            self.border_subtitle = code
        self._show_seats(room)
        self.clock.show(room.clock, (room.seats[0].title, room.seats[1].title))
        self._count_while_held(room)

    def _count_while_held(self, room: RoomView) -> None:
        if self._counting is None:
            return  # not mounted yet: on_mount starts it
        if any(seat.held_until is not None for seat in room.seats):
            self._counting.resume()
        else:
            self._counting.pause()

    def _count_down(self) -> None:
        room = self._room
        if room is not None and any(seat.held_until is not None for seat in room.seats):
            self._show_seats(room)

    def _show_seats(self, room: RoomView) -> None:
        seats = seats_text(room, time.monotonic())
        if seats != self._seats_shown:
            self._seats_shown = seats
            self.seats.update(seats)

    # ---- the chat -------------------------------------------------------------------

    def heard(self, name: str, text: str) -> None:
        """A line said in the room, kept with the few before it."""
        self.chat.append((name, text))
        self._show_chat()

    def _show_chat(self) -> None:
        text = Text(no_wrap=True, overflow="ellipsis")
        for name, said in self.chat:
            text.append(f"{name}: ", style="bold")
            text.append(f"{said}\n")
        text.rstrip()
        self.said.update(text)
        self.said.display = bool(self.chat)

    @property
    def typing(self) -> bool:
        return self.line.display and self.line.has_focus

    def open_line(self) -> None:
        self.line.display = True
        self.line.focus()

    def close_line(self) -> None:
        self.line.clear()
        self.line.display = False
        self.screen.set_focus(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._talker.say(event.value)
        self.close_line()
