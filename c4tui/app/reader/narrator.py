"""The narrator: the match's events said as lines, one line per change, in order.

It listens to the match as the game screen does and says what changed: a move ("○ plays
column 4, row 2") and any win one move away after it ("○ threatens to win in column
5"), a new game, a jump in the game's lines (an undo, a redo, a take-back: the moves
taken back and played), a hint, the end ("● wins: four in a row, columns 2 to 5 on row
1"), a room's chat and seats, and, once a change is whole, "your move". Notices reach
the lines through the app's `notify` (view.py), not here, so each is said once.

Other parts add their own events with `says`: a function from an event to its line (or
None), e.g. a clock's warning: `@says(ClockWarning)`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from c4tui.app.reader import words
from c4tui.match.interface import GameOver, HintReady, MatchView, PositionChanged
from c4tui.match.room_events import LobbyChanged, RoomChanged, Said
from c4tui.match.room_view import RoomView
from c4tui.match.sides import GLYPHS

Saying = Callable[[Any, MatchView], "str | None"]
# What each kind of event says, beyond the match's own (filled by `says`).
SAYINGS: dict[type, Saying] = {}
Event = TypeVar("Event")


def says(kind: type[Event]) -> Callable[[Callable[[Event, MatchView], str | None]], Any]:
    """Register the line an event of `kind` makes (None: nothing to say)."""

    def register(saying: Callable[[Event, MatchView], str | None]) -> Any:
        SAYINGS[kind] = saying
        return saying

    return register


class Narrator:
    """Turns a match's events into lines (module docstring)."""

    def __init__(
        self,
        view: Callable[[], MatchView],
        say: Callable[[str], None],
        later: Callable[[Callable[[], None]], object],
    ) -> None:
        """`view`: the match's view now; `say`: where lines go; `later`: run a callback
        once the change under way is whole (the screen's call_later)."""
        self._view = view
        self._say = say
        self._later = later
        self._shown: tuple[int, ...] | None = None  # the path of the board last said
        self._game: object = None  # the game it was on (a new game is a new one)
        self._room: RoomView | None = None
        self._told_turn: tuple[int, ...] | None = None  # "your move" said for this board
        self._settling = False

    def start(self) -> None:
        """The game on the board when the lines begin: who plays whom, then whose turn."""
        view = self._view()
        if view.room is None and self._shown is None:
            self._shown, self._game = view.position.path, view.game
            self._say(words.new_game_line(view))
            if view.position.moves:
                self._say(words.last_moves_line(view.game))
        self._settle()

    def hear(self, event: object) -> None:
        """A listener of the match (and of a room's events)."""
        view = self._view()
        line: str | None = None
        threat: str | None = None
        if isinstance(event, PositionChanged):
            line = self._moved(view)
            if line is not None:  # a new board: a win one move away is said at once
                threat = words.winning_threats_line(view.position)
        elif isinstance(event, GameOver):
            line = words.outcome_line(view)
        elif isinstance(event, HintReady):
            line = f"hint: column {event.column + 1}, {view.hint_reason}".rstrip(", ")
        elif isinstance(event, Said):
            line = f"{event.name} says: {event.text}"
        elif isinstance(event, RoomChanged):
            self._seats(event.room, view)
        elif isinstance(event, LobbyChanged):
            # Out of the room: the next one entered is said whole, even under the same
            # number (a room closed when its last player left, and its number was free).
            self._room = None
        elif type(event) in SAYINGS:
            line = SAYINGS[type(event)](event, view)
        for said in (line, threat):
            if said:
                self._say(said)
        if not self._settling:
            self._settling = True
            self._later(self._settle)

    def _moved(self, view: MatchView) -> str | None:
        pos = view.position
        before, self._shown = self._shown, pos.path
        game, self._game = self._game, view.game
        if before == pos.path and game is view.game:
            return None  # said already (a room entered says its board)
        if before is not None and pos.path[:-1] == before and len(pos.path) == len(before) + 1:
            return words.move_line(view.game.find(before).position, pos.path[-1])  # type: ignore[union-attr]  # the board's parent is in its game
        if view.room is None and (before is None or not view.game.root.children):
            return words.new_game_line(view)  # a new tree (a room's new game: _seats)
        # A room rebuilds its tree from its moves at every change: an empty board there
        # is a take-back, not a new game.
        return words.changed_line(before or (), pos)

    def _seats(self, room: RoomView, view: MatchView) -> None:
        """A room entered, or its seats changed: who sits where, and this client's part."""
        old, self._room = self._room, room
        if old is None or old.number != room.number:
            self._shown, self._game = room.position.path, view.game
            self._say(words.room_line(room))
            if room.position.moves:
                self._say(words.last_moves_line(view.game))
            return
        if old.over and not room.over:  # a rematch: the room's next game
            self._shown, self._game = room.position.path, view.game
            self._say(words.new_game_line(view))
        for player in (0, 1):
            was, now = old.seats[player], room.seats[player]
            if (was.name, was.open, was.here) != (now.name, now.open, now.here):
                self._say(f"seat {GLYPHS[player]}: {words.seat_words(room, player)}")
        for watcher in sorted(set(room.watchers) - set(old.watchers)):
            self._say(f"{watcher} is watching")
        for kind, by in room.offers.items():
            if old.offers.get(kind) != by:
                self._say(f"{words.seat_words(room, by)} offers {kind.replace('_', ' ')}")

    def _settle(self) -> None:
        """The change is whole: say "your move" once for each board the person moves on."""
        self._settling = False
        view = self._view()
        path = view.position.path
        room = view.room
        if room is not None and any(seat.open for seat in room.seats):
            return  # the game starts when both seats are taken (the room says so)
        if view.moves_now() and self._told_turn != path:
            self._told_turn = path
            self._say(words.turn_line(view))
        elif not view.moves_now():
            self._told_turn = None
