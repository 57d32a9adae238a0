"""The match interface: what a UI sends a match (intents) and what it hears back (events).

A UI drives a game only through this face, so the same app plays a match in its own
process (`controller.Match`) or a room of `c4tui serve` reached over a socket (a remote
match): two implementations of one interface, not a fork of the app.

Intents are method calls that return nothing the UI must act on: `drop(column)`,
`move_now()`, `undo()`, `redo()`, `take_back()`, `new_game()`, `hint()`, `pause()`,
`resume()`, `step()`, `resign()`, `set_sides()`, and for the game's lines `jump(path)`,
`promote()`, `delete_variation()`. An intent the match refuses (a full
column, not your turn, nothing to undo) comes back as a `Notice` event saying why; it
never raises. Everything else the UI learns from events, delivered to the listeners
given to `listen()`, in order, on the UI's thread (the thread that sends the intents):

- `PositionChanged`: the board changed (a move, undo, redo, new game, a jump in the
  game's lines); redraw from the match's read-only state (`position`, `game`, `sides`,
  `paused`, `thinking`);
- `SearchStarted`, `SearchProgress`, `SearchDone`: an engine's search, each tagged with
  its search id; `SearchProgress` comes at most ~10 times a second;
- `HintReady`: the column a hint suggests;
- `Notice`: something to tell the person, with how loud (requests.Notice);
- `GameOver`: the game ended, on the board or off it (resigned).

What to draw comes in one immutable value, `view()` (a `MatchView`): the game, who
plays, whose moves this UI makes, the search on show with the position it searched,
the hint, how the game ended, and the intents the match refuses now (so a UI shows no
key that would only be refused). A room of `c4tui serve` adds its `RoomView`.

Search ids and stale results: every search gets a new id, and every change of the game
(a move, undo, new game, new sides, pause, quit) first cancels the running search: its
stop event is set and its id forgotten. Whatever a cancelled search still reports is
stale and dropped by the match, never shown and never played, so a UI can draw every
event it receives without checking ids itself (the ids are there to tell one search's
progress from the next one's).

Who runs searches: the match decides when an engine moves; where it searches is not
the UI's business. The in-process match is given a `SearchRunner` (the app's runs each
search in a thread worker and throttles its progress) and hands it a `SearchRequest`
(the engine, an immutable position, a stop event, the id); the runner reports back on
the UI's thread through the in-process match's own door (`progress`, `finish_search`,
`search_failed`, `finish_hint`), which turns the reports into the events above. A remote
match has no runner: its searches run in the server, and the progress it receives over
the socket becomes the same events. The UI listens either way and cannot tell.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from c4tui.engine.board.game import Game
from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import Limits, SearchInfo
from c4tui.match.opponents import Judge
from c4tui.match.room_view import RoomView
from c4tui.match.search_requests import HintRequest, Notice, SearchRequest
from c4tui.match.sides import Sides

# ---- events ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PositionChanged:
    """The board changed; `position` is the one now shown."""

    position: Position


@dataclass(frozen=True)
class SearchStarted:
    """An engine (`spec`) began searching `position` within `limits`."""

    search_id: int
    spec: str
    position: Position
    limits: Limits


@dataclass(frozen=True)
class SearchProgress:
    """A live snapshot of the running search."""

    search_id: int
    info: SearchInfo


@dataclass(frozen=True)
class SearchDone:
    """The search ended and its `move` was played (None: it failed, said in a Notice)."""

    search_id: int
    move: int | None
    info: SearchInfo | None


@dataclass(frozen=True)
class HintReady:
    """The column (0-based) a hint suggests to the person to move."""

    column: int


@dataclass(frozen=True)
class GameOver:
    """The game ended: `winner` 0 or 1, None for a draw; `how` is "line", "full",
    "resigned", "forfeit" (an outside engine failed) or "agreed" (a draw agreed in a
    room of `c4tui serve`)."""

    winner: int | None
    how: str


MatchEvent = (
    PositionChanged | SearchStarted | SearchProgress | SearchDone | HintReady | Notice | GameOver
)
Listener = Callable[[MatchEvent], None]


# ---- the view -------------------------------------------------------------------------


@dataclass(frozen=True)
class SearchView:
    """The search on show: the engine (`spec`) and its budget, the position it searched
    (its side to move is the side of every figure), its newest snapshot, and what the
    screen calls the engine (`title`: an outside program by the name it gave itself)."""

    spec: str
    position: Position
    limits: Limits
    info: SearchInfo | None
    title: str


@dataclass(frozen=True)
class MatchView:
    """The match at one moment, all a UI draws (the module docstring). `game` is the
    match's own tree, to read and never to change."""

    game: Game
    sides: Sides
    names: tuple[str, str]
    movers: frozenset[int]  # the sides whose moves this UI makes (none: watching)
    paused: bool
    thinking: bool
    search: SearchView | None  # the running or last search, or the engine to search
    hint: int | None  # the column a hint suggests, and why (`hint_reason`)
    hint_reason: str
    over: bool
    winner: int | None
    how: str | None  # as GameOver's `how`, once the game is over
    evaluations: tuple[float, ...]  # an engine's values of its moves (●'s side)
    evaluator: Judge | None  # whose values they are
    refused: frozenset[str] = frozenset()  # intents refused now ("undo", "hint", ...)
    ending: str | None = None  # a game ended off the board, in words after the loser's name
    room: RoomView | None = None  # the room, when the match is one on a server

    @property
    def position(self) -> Position:
        return self.game.position

    def is_ai(self, player: int) -> bool:
        return self.sides.is_ai(player)

    def moves_now(self) -> bool:
        """This UI makes the next move, now."""
        return not self.over and not self.thinking and self.position.to_move in self.movers

    def waits(self) -> bool:
        """An engine thinks and this UI makes the move after it: the cursor may be
        placed ahead."""
        to_move = self.position.to_move
        return self.thinking and not self.over and 1 - to_move in self.movers


# ---- the two faces --------------------------------------------------------------------


class MatchInterface(Protocol):
    """A match as a UI sees it: read-only state, intents, and events (module docstring)."""

    @property
    def position(self) -> Position: ...
    @property
    def game(self) -> Game: ...
    @property
    def sides(self) -> Sides: ...
    @property
    def paused(self) -> bool: ...
    @property
    def thinking(self) -> bool: ...

    def view(self) -> MatchView:
        """What there is to draw now."""

    def listen(self, listener: Listener) -> None:
        """Hear every event from now on."""

    def drop(self, column: int) -> None:
        """The person to move drops a disc in `column` (0-based)."""

    def move_now(self) -> None:
        """The running search plays its best move so far; with none running, an engine
        plays the side to move (the opponent, or a helper for a person)."""

    def undo(self) -> bool:
        """Back to the person's previous turn (one move when two engines play); these
        five moves on the game's tree say whether the board changed."""

    def redo(self) -> bool:
        """Undone moves again, up to the person's next turn."""

    def take_back(self) -> None:
        """Take back the person's last move (in a room, a request the other side answers)."""

    def new_game(self, game: Game | None = None, sides: Sides | None = None) -> None:
        """A fresh game (or `game` to go on from), between `sides` or the same sides."""

    def hint(self) -> None:
        """Look for the best column for the person to move; `HintReady` when found."""

    def pause(self) -> None:
        """Hold the engines: the running search stops and none starts until `resume()`."""

    def resume(self) -> None:
        """Let the engines play again."""

    def step(self) -> None:
        """Two engines playing: the engine to move plays one move, then the match pauses."""

    def resign(self) -> None:
        """The person to move gives up the game."""

    def set_sides(self, sides: Sides) -> None:
        """New players for the game on the board (same moves)."""

    def jump(self, path: tuple[int, ...]) -> bool:
        """Show the move with this path (the columns from the start), on any line of the
        game; a move played from there that the game does not have starts a variation."""

    def promote(self) -> bool:
        """The line on the board becomes the game's main line."""

    def delete_variation(self) -> bool:
        """Remove the variation on the board from where it leaves its parent line."""

    def stop(self) -> None:
        """The UI is closing: nothing may keep searching."""


class SearchRunner(Protocol):
    """Where an in-process match's searches and hints run (the app: thread workers).

    The runner reports on the UI's thread, through the match's `progress`,
    `finish_search`, `search_failed` and `finish_hint`, with the request's id.
    """

    def search(self, request: SearchRequest) -> None: ...
    def hint(self, request: HintRequest) -> None: ...
    def cancel(self) -> None:
        """Cancel the running search's worker (the match has set its stop event)."""
