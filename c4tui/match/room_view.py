"""What a room of `c4tui serve` looks like to a client: the room, its seats, the lobby.

Immutable values made from the service's messages (`from_wire`), with the words a
player reads: whose turn it is, how the game ended. They hold no connection and decide
nothing; the service's view is the truth (c4tui/server/rooms/room.py makes it).
"""

from __future__ import annotations

from dataclasses import dataclass

from c4tui.community.clocks import TimeControl
from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import SearchInfo
from c4tui.match.sides import engine_title
from c4tui.server.wire.lobby_messages import Lobby
from c4tui.server.wire.protocol import RoomShown


@dataclass(frozen=True)
class SeatView:
    """One seat as the room shows it."""

    name: str  # an open seat's: who played the game and left, "" when nobody did
    ai: str | None  # the engine spec when the AI sits here
    open: bool
    here: bool  # connected (an AI always is)
    held_until: float | None  # monotonic time the seat of a dropped person is held until

    @property
    def title(self) -> str:
        return engine_title(self.ai) if self.ai is not None else self.name or "(open)"


@dataclass(frozen=True)
class ClockView:
    """Both sides' time as the service sent it, at `at` (this client's monotonic time):
    the running side's counts down from then."""

    control: str  # "5+3", "3d"
    words: str  # "5+3 blitz", "3 days a move"
    left: tuple[float, float]
    running: int | None
    at: float

    @property
    def correspondence(self) -> bool:
        """Days a move: the players come and go, their seats are not held."""
        return TimeControl.parse(self.control).correspondence

    def remaining(self, side: int, now: float) -> float:
        """The side's time left at `now` (never below 0)."""
        left = self.left[side]
        if self.running == side:
            left -= max(0.0, now - self.at)
        return max(0.0, left)


@dataclass(frozen=True)
class RoomView:
    """The room as the service last sent it."""

    number: int
    code: str | None  # for its players, or anyone when the room is open to all
    public: bool
    seat: int | None  # this client's seat, None when watching
    seat_code: str | None
    seats: tuple[SeatView, SeatView]
    position: Position
    over: bool
    ended: str | None  # "resigned" or "agreed": an ending off the board
    winner: int | None
    offers: dict[str, int]  # "draw" / "take_back" -> the seat that offered it
    rematch: tuple[int, ...]
    thinking: bool
    paused: bool  # the AI failed and waits for a player's `m`
    thinking_spec: str | None
    search: int
    info: SearchInfo | None
    trouble: str | None
    watchers: tuple[str, ...]
    clock: ClockView | None = None
    claim: int | None = None  # the seat that may claim the game: the other is gone
    rated: bool = False  # the result moves the players' ratings
    date: str = ""  # when the game began, as a game file dates it ("": not said)
    tournament: bool = False  # a tournament game's: no rematch

    @classmethod
    def from_wire(cls, shown: RoomShown, now: float) -> RoomView:
        """The room a `room` message shows (protocol.RoomShown, checked as it was read)."""
        seats = tuple(
            SeatView(s.name, s.ai, s.open, s.here, None if s.held is None else now + s.held)
            for s in shown.seats
        )
        return cls(
            shown.room,
            shown.code,
            shown.public,
            shown.seat,
            shown.seat_code,
            (seats[0], seats[1]),
            Position.from_moves(shown.moves, shown.width, shown.height, shown.connect),
            shown.over,
            shown.ended,
            shown.winner,
            {kind: side for kind, side in shown.offers.items()},
            shown.rematch,
            shown.thinking,
            shown.paused,
            shown.thinking_spec,
            shown.search,
            shown.info,
            shown.trouble,
            shown.watchers,
            None
            if shown.clock is None
            else ClockView(
                shown.clock.control,
                shown.clock.words,
                (shown.clock.left[0], shown.clock.left[1]),
                shown.clock.running,
                now,
            ),
            shown.claim,
            shown.rated,
            shown.date,
            shown.tournament,
        )

    @property
    def playing(self) -> bool:
        return self.seat is not None

    def alone(self) -> bool:
        """Seated with nobody in the other seat: no one to answer an offer or a
        resignation, nothing lost by leaving."""
        return self.seat is not None and self.seats[1 - self.seat].open

    def leaving_costs(self) -> bool:
        """Whether a player leaving now walks out of a game going on: seated, with an
        opponent in the other seat, the game not over, and not by post (a correspondence
        game waits for its players)."""
        if self.seat is None or self.over or self.alone():
            return False
        return self.clock is None or not self.clock.correspondence

    def my_turn(self) -> bool:
        return self.seat is not None and not self.over and self.position.to_move == self.seat

    def claim_for_me(self) -> bool:
        """The other side is gone past its grace: this player may claim the game."""
        return self.seat is not None and not self.over and self.claim == self.seat

    def offer_to_me(self) -> str | None:
        """An offer from the other side waiting for this client's answer."""
        if self.seat is None:
            return None
        return next((o for o, by in self.offers.items() if by != self.seat), None)

    def before_ai_move(self) -> Position | None:
        """The position an AI seat last moved from: the last search's, whose figures
        the room brings to one who comes in after it (they are that mover's, not the
        mover's now); None when no AI has moved on the board from the start."""
        position = self.position
        path = position.path
        if position.moves != len(path):
            return None
        ply = next((k for k in reversed(range(len(path))) if self.seats[k % 2].ai), None)
        if ply is None:
            return None
        before = Position.start(position.width, position.height, position.connect)
        for col in path[:ply]:
            before = before.play(col)
        return before


@dataclass(frozen=True)
class RoomSummary:
    number: int
    code: str | None  # only for a room its maker listed as open to anyone
    players: tuple[tuple[str, str | None] | None, ...]  # (name, engine spec) or None: open
    over: bool
    open: bool
    watchers: int
    clock: str | None = None  # its time control, "5+3" or "3d"
    ended: str | None = None  # how it ended, in words


@dataclass(frozen=True)
class LobbyView:
    online: tuple[str, ...] = ()
    rooms: tuple[RoomSummary, ...] = ()
    bots: tuple[str, ...] = ()  # online, to be challenged
    your_move: tuple[int, ...] = ()  # the rooms where it is this player's move, most urgent first
    bell: bool = True  # this player's bell when a move comes in elsewhere

    @classmethod
    def from_wire(cls, lobby: Lobby) -> LobbyView:
        """The lobby a `lobby` message lists (protocol.Lobby)."""
        rooms = tuple(
            RoomSummary(
                r.room,
                r.code,
                tuple(None if p is None else (p.name, p.ai) for p in r.players),
                r.over,
                r.open,
                r.watchers,
                r.clock,
                r.ended,
            )
            for r in lobby.rooms
        )
        return cls(lobby.online, rooms, lobby.bots, lobby.your_move, lobby.bell)
