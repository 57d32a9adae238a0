"""RemoteMatch: the match interface (interface.py) over a room of `c4tui serve`.

The second implementation of the interface, beside the in-process `controller.Match`:
the game lives in the room service, which is authoritative. Intents go out over the
socket, in order, as they are made (a writer task drains an outbox, so an intent never
blocks the UI); the service answers with the whole room after every change, and the
difference from the room before becomes the interface's events: `PositionChanged`,
`SearchStarted`, `SearchProgress` (the service's ~10 Hz stream), `SearchDone`,
`GameOver`, and `Notice` for a refusal with the service's reason. Nothing is decided
here, so nothing can disagree with the service.

A room has more to it than a local game: its events (`RoomChanged`, `LobbyChanged`,
`Said`, `Closed`, the matchmaking's and the tournaments' ...) are declared in
room_events.py, and the requests beyond the interface (create, join, watch, leave, say,
seek, challenge ...) in room_requests.py, whose outbox this match's writer task drains.
What a room has no use for (redo, hints, pausing two engines, other sides) is refused
with a notice, as the interface asks, and named in the view's `refused` so a UI shows no
key for it.

A finished game is an analysis board for whoever is in the room: `jump`, drops and
`promote` / `delete_variation` act on this client's copy of the game (the service's
game stays as it ended) until the room's game changes again (a rematch).

Listeners are called on the event loop the match runs on (the app's), in order.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from typing import TYPE_CHECKING

from c4tui.engine.board.game import Game
from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import Limits, SearchInfo
from c4tui.engine.players.specs import spec_limits
from c4tui.engine.turns import column_refusal
from c4tui.match.interface import (
    GameOver,
    Listener,
    MatchEvent,
    MatchInterface,
    MatchView,
    PositionChanged,
    SearchDone,
    SearchProgress,
    SearchStarted,
    SearchView,
)
from c4tui.match.opponents import Judge, evaluation_of, proven
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
from c4tui.match.room_requests import RoomRequests
from c4tui.match.room_view import LobbyView, RoomView
from c4tui.match.search_requests import Notice
from c4tui.match.sides import Sides, engine_title
from c4tui.server.wire import matchmaking_messages, people_messages, tournament_messages
from c4tui.server.wire import protocol as wire
from c4tui.server.wire.lobby_messages import Lobby
from c4tui.server.wire.protocol import Bye, Message
from c4tui.server.wire.room_client import RoomClient, RoomError

NOT_IN_A_ROOM = "In a room the server holds the game: {what} is not for rooms."
# What a room never does (the interface's intents with no room behind them).
NEVER_IN_A_ROOM = frozenset({"redo", "hint", "pause", "resume", "step", "set_sides"})
# The analysis board's intents: only on a finished game.
ANALYSIS = frozenset({"jump", "promote", "delete_variation"})


class RemoteMatch(RoomRequests):
    """A room on the server, as a match (see the module docstring)."""

    def __init__(self, client: RoomClient) -> None:
        super().__init__()
        self.client = client
        self.room: RoomView | None = None
        self.lobby = LobbyView()
        self._listeners: list[Listener] = []
        self._game: Game | None = None  # this client's copy: an analysis board once over
        self._searched: Position | None = None  # the position the AI seat last searched
        self._info: SearchInfo | None = None  # what that search last said
        # The AI seat's value of each of its moves (●'s side), by the path it led to.
        self._evaluations: dict[tuple[int, ...], float] = {}
        self._last_proven = False  # the AI seat's last value is a proven result

    @classmethod
    async def from_environment(cls) -> RemoteMatch:
        """The served app's match, with what its front put in the environment."""
        return cls(await RoomClient.from_environment())

    # ---- what the service told us ---------------------------------------------------

    @property
    def name(self) -> str:
        return self.client.welcome.identity.name

    @property
    def ai_seconds(self) -> float:
        return self.client.welcome.ai_seconds

    @property
    def server_engines(self) -> tuple[str, ...]:
        """The names of the operator's engines, seated as "server:NAME"."""
        return self.client.welcome.engines

    @property
    def position(self) -> Position:
        return self.game.position

    @property
    def game(self) -> Game:
        """The room's game; on a finished game, where this client's analysis went."""
        if self._game is None:
            pos = self.room.position if self.room is not None else Position.start()
            self._game = Game.from_moves(pos.to_moves(), pos.width, pos.height, pos.connect)
        return self._game

    @property
    def sides(self) -> Sides:
        if self.room is None:
            return Sides()
        return Sides(self.room.seats[0].ai, self.room.seats[1].ai)

    @property
    def paused(self) -> bool:
        return self.room is not None and self.room.paused

    @property
    def thinking(self) -> bool:
        return self.room is not None and self.room.thinking

    def evaluation_line(self) -> tuple[list[float], Judge | None]:
        """The AI seat's values of its moves on the board's line (●'s side) and whose
        they are, for the evaluation graph (moves it made before this client came are
        not known)."""
        path = self.position.path
        values = [
            self._evaluations[path[:n]]
            for n in range(1, len(path) + 1)
            if path[:n] in self._evaluations
        ]
        spec = next((s for s in (self.sides.first, self.sides.second) if s is not None), None)
        return values, None if spec is None else Judge(engine_title(spec), self._last_proven)

    def view(self) -> MatchView:
        """The room now, as the game screen draws it (interface.py)."""
        room = self.room
        names = ("", "") if room is None else (room.seats[0].title, room.seats[1].title)
        values, judge = self.evaluation_line()
        return MatchView(
            game=self.game,
            sides=self.sides,
            names=names,
            movers=frozenset(() if room is None or room.seat is None else (room.seat,)),
            paused=self.paused,
            thinking=self.thinking,
            search=self._search_view(),
            hint=None,
            hint_reason="",
            over=room is not None and room.over,
            winner=None if room is None else room.winner,
            how=None if room is None or not room.over else self._how(room),
            evaluations=tuple(values),
            evaluator=judge,
            refused=self.refused(),
            room=room,
        )

    def _search_view(self) -> SearchView | None:
        """The AI seat's search: the running one on the room's position, or the last
        one on the position it searched (the figures are that position's mover's)."""
        room = self.room
        if room is None:
            return None
        spec = room.thinking_spec or next((s.ai for s in room.seats if s.ai is not None), None)
        if spec is None:
            return None
        searched = room.position if room.thinking else self._searched or room.position
        return SearchView(spec, searched, self.limits(spec), self._info, engine_title(spec))

    @staticmethod
    def _how(room: RoomView) -> str:
        return room.ended or ("line" if room.position.winner() is not None else "full")

    def refused(self) -> frozenset[str]:
        """The intents the room refuses this client now: a spectator's moves, what a
        finished game has no more (a take-back, a draw offer), `move_now` with no AI
        to move, the analysis board while the game goes on."""
        room = self.room
        refused = set(NEVER_IN_A_ROOM)
        if room is None or not room.claim_for_me():
            refused.add("claim")
        if room is None or not room.playing:
            refused |= {"drop", "move_now", "take_back", "undo", "resign", "offer_draw"}
            refused |= {"new_game"}
        elif room.over:
            refused |= {"move_now", "take_back", "undo", "resign", "offer_draw"}
            if room.tournament:
                refused.add("new_game")  # the next round comes instead of a rematch
        else:
            refused.add("new_game")  # a rematch, once this game is over
            mover = room.seats[room.position.to_move]
            if mover.ai is None:
                refused.add("move_now")  # no AI to hurry or to start (a bot is not hurried)
            if not room.position.moves:
                refused |= {"take_back", "undo"}
            if room.alone():
                refused |= {"resign", "offer_draw", "take_back"}  # nobody to answer
        if room is None or not room.over:
            refused |= ANALYSIS
        return frozenset(refused)

    def limits(self, spec: str) -> Limits:
        """An engine spec's budget as the server caps it (for the thinking panel)."""
        cap = self.ai_seconds
        limits = spec_limits(spec)
        if limits is None:
            return Limits(time=cap)
        time_limit = cap if limits.time is None else min(limits.time, cap)
        return Limits(time=time_limit, iterations=limits.iterations, depth=limits.depth)

    # ---- events ---------------------------------------------------------------------

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def _tell(self, event: MatchEvent | RoomEvent) -> None:
        for listener in list(self._listeners):
            listener(event)  # type: ignore[arg-type]  # a room listener hears room events too (RoomEvent)

    async def run(self) -> None:
        """Send the intents and hand on what the service says, until the connection ends."""
        writer = asyncio.create_task(self._write())
        reason = "The server closed the connection."
        try:
            while (message := await self.client.receive()) is not None:
                if isinstance(message, Bye):
                    reason = message.reason
                    break
                try:
                    self._heard(message)
                except ValueError as error:  # a room whose moves are not a game
                    self._tell(Notice(f"The server sent something unreadable: {error}", "error"))
        finally:
            writer.cancel()
            await self.client.close()
        self._tell(Closed(reason))

    async def _write(self) -> None:
        while (intent := await self._outbox.get()) is not None:
            try:
                await self.client.send(intent)
            except RoomError as error:
                self._tell(Notice(str(error), "error"))
                return

    def _heard(self, message: Message) -> None:
        """One service message (protocol.py declares each), as the interface's events."""
        if isinstance(message, wire.RoomShown):
            self._room_changed(RoomView.from_wire(message, time.monotonic()))
        elif isinstance(message, wire.Progress):
            room = self.room
            if room is not None and (message.room, message.search) == (room.number, room.search):
                self._info = message.info
                self._tell(SearchProgress(room.search, message.info))
        elif isinstance(message, Lobby):
            self.room = None
            self.lobby = LobbyView.from_wire(message)
            self._tell(LobbyChanged(self.lobby))
        elif isinstance(message, wire.Games):
            self._tell(GamesListed.from_wire(message))
        elif isinstance(message, people_messages.BotToken):
            self._tell(BotTokenMade(message.name, message.token))
        elif isinstance(message, wire.Said):
            self._tell(Said(message.name, message.text))
        elif isinstance(message, people_messages.Profile):
            self._tell(ProfileShown(message))
        elif isinstance(message, tournament_messages.TournamentsListed):
            self._tell(TournamentsChanged(message.tournaments))
        elif isinstance(message, tournament_messages.TournamentShown):
            self._tell(TournamentChanged(message))
        elif isinstance(message, wire.YourMove):
            self._tell(MoveArrived(message.room, message.against, message.bell))
        elif isinstance(message, matchmaking_messages.Seeking):
            self._tell(SeekChanged(message))
        elif isinstance(message, matchmaking_messages.Challenges):
            self._tell(ChallengesChanged(message))
        elif isinstance(message, matchmaking_messages.Leaderboard):
            self._tell(LeaderboardShown(message))
        elif isinstance(message, people_messages.Named):
            who = replace(self.client.welcome.identity, name=message.name)
            self.client.welcome = replace(self.client.welcome, identity=who)
            self._tell(Renamed(message.name))
        elif isinstance(message, wire.Refused) and message.of == people_messages.ChooseName.KIND:
            self._tell(NameRefused(message.reason))
        elif isinstance(message, wire.Refused):
            self._tell(Notice(message.reason, "warning", timeout=4))
        elif isinstance(message, wire.Notice):
            self._tell(Notice(message.text, message.severity, timeout=5))

    def _room_changed(self, new: RoomView) -> None:
        """The new room, and what changed since the last one as the interface's events."""
        old, self.room = self.room, new
        same_room = old is not None and old.number == new.number
        if old is None or not same_room or old.position.path != new.position.path:
            # The usual move plays on the game shown; anything else (a take-back, a
            # rematch, an analysis board) makes it afresh from the room when asked.
            game = self._game
            self._game = game if game is not None and game.go_on_to(new.position) else None
        if old is None or not same_room or old.search != new.search or new.info is not None:
            # A new search, or the last one's final word (the room brings its info).
            self._info = new.info
            if new.thinking:
                self._searched = new.position
            elif not same_room:  # come to watch or back: the search was of an AI's move
                self._searched = new.before_ai_move()
        self._tell(RoomChanged(new))
        if not same_room or not new.position.path:
            self._evaluations.clear()  # another room, or a rematch
        if old is not None and same_room and old.thinking and old.search != new.search:
            moved = new.position.path[: len(old.position.path) + 1]
            move = moved[-1] if len(moved) > len(old.position.path) else None
            if move is not None and new.info is not None:
                value = evaluation_of(new.info, move, old.position.to_move)
                if value is not None:
                    self._evaluations[moved] = value
                    self._last_proven = proven(new.info, move)
            self._tell(SearchDone(old.search, move, new.info))
        if old is None or not same_room or old.position.path != new.position.path:
            self._tell(PositionChanged(new.position))
        if new.thinking and (
            old is None or not same_room or old.search != new.search or not old.thinking
        ):
            spec = new.thinking_spec or ""
            self._tell(SearchStarted(new.search, spec, new.position, self.limits(spec)))
        if new.over and not (same_room and old is not None and old.over):
            how = new.ended or ("line" if new.position.winner() is not None else "full")
            self._tell(GameOver(new.winner, how))

    # ---- intents of the match interface ---------------------------------------------

    def _not_here(self, what: str) -> None:
        self._tell(Notice(NOT_IN_A_ROOM.format(what=what), timeout=3))

    def drop(self, column: int) -> None:
        room = self.room
        if room is None:
            return
        if room.over:
            self._analyse(column)
        else:
            self._send(wire.Drop(column, room.position.moves))

    def _analyse(self, column: int) -> None:
        """A move on the analysis board of a finished game: this client's copy only."""
        pos = self.position
        refusal = column_refusal(pos, column)  # the drop rules' words (engine/turns.py)
        if pos.is_over():
            self._tell(Notice("This line is over: step back (↑) to try another move.", timeout=3))
        elif refusal is not None:
            self._tell(Notice(refusal, timeout=2, bell=True))
        else:
            self.game.play(column)
            self._tell(PositionChanged(self.position))

    def jump(self, path: tuple[int, ...]) -> bool:
        """Show another move of the finished game (the analysis board)."""
        if "jump" in self.refused() or self.game.find(path) is None:
            return False
        self.game.jump(path)
        self._tell(PositionChanged(self.position))
        return True

    def promote(self) -> bool:
        if "promote" in self.refused() or not self.game.promote():
            return False
        self._tell(PositionChanged(self.position))
        return True

    def delete_variation(self) -> bool:
        if "delete_variation" in self.refused() or not self.game.delete():
            return False
        self._tell(PositionChanged(self.position))
        return True

    def move_now(self) -> None:
        self._send(wire.Hurry())

    def undo(self) -> bool:
        """In a room, taking back is asking the other side: the board stays for now."""
        self.take_back()
        return False

    def redo(self) -> bool:
        self._not_here("redo")
        return False

    def take_back(self) -> None:
        self._send(wire.TakeBack())

    def new_game(self, game: Game | None = None, sides: Sides | None = None) -> None:
        if game is not None or sides is not None:
            self._not_here("a game of your own")
            return
        self._send(wire.Rematch())  # a new game in a room: the rematch, colours swapped

    def hint(self) -> None:
        self._not_here("a hint")

    def pause(self) -> None:
        self._not_here("pausing")

    def resume(self) -> None:
        self._not_here("pausing")

    def step(self) -> None:
        self._not_here("stepping")

    def resign(self) -> None:
        self._send(wire.Resign())

    def set_sides(self, sides: Sides) -> None:
        self._not_here("choosing the sides")

    def stop(self) -> None:
        """The UI is closing: the outbox ends (the connection closes with the run)."""
        self._outbox.put_nowait(None)


if TYPE_CHECKING:  # the type checker holds RemoteMatch to the interface the screen talks to
    _CONFORMS: type[MatchInterface] = RemoteMatch
