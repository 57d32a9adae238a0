"""The room protocol: versioned, line-delimited JSON between client processes and the service.

Every message is one JSON object on one line (UTF-8, at most `RoomLimits.max_line`
bytes), with a `kind`. A client's first message is `hello`; the service answers
`welcome` or closes the connection.

Each message is declared once, as a frozen dataclass whose field types are its schema
(codec.py reads them): the rooms' below, the others by family (lobby_messages.py,
tournament_messages.py, matchmaking_messages.py, people_messages.py). The service
checks every client line against them (`parse_client_line`, kinds.py: unknown kinds,
unknown or missing fields, values of the wrong type or range, nesting too deep are a
`ProtocolError`, and the service closes that connection with one log line while
everyone else plays on), and a client reads every service line with them
(`parse_service_line`). Both sides build messages as these objects and
`encode` them; nobody writes a message's dict by hand.

Client to service (kinds.py's `CLIENT_MESSAGES` has every family's):
    hello     Hello {version, token}
    lobby     AskLobby {}                     who is online, which rooms there are
    create    Create {ai?, public?, second?, width?, height?, connect?, clock?}   a room;
                                              `ai` plays the other seat; `second`: you play
                                              ○; `clock` a time control ("5+3", "3d")
    join      Join {code}                     a seat in the room with that code, or the
                                              seat with that seat code (taken back)
    watch     Watch {room}                    spectate any room by its number
    leave     Leave {}                        back to the lobby
    drop      Drop {column, ply}              a move; `ply` is the move count the client saw
    hurry     Hurry {}                        the AI plays its best move so far now
    resign, offer_draw, take_back, rematch {}
    answer    Answer {offer, accept}          the other side's draw or take-back offer
    claim     Claim {win}                     the win (or a draw) from one gone past the grace
    bell      Bell {on}                       a bell when it becomes my move elsewhere
    games     AskGames {}                     this identity's finished games
    say       Say {text}                      a short chat line to the room

Service to client (`SERVICE_MESSAGES`):
    welcome   Welcome {version, identity: {key, name}, ai_seconds}
    lobby, lobby_diff                         the lobby, whole or what changed (lobby_messages.py)
    room      RoomShown {...}                 the whole room, after every change (rooms/views.py)
    progress  Progress {room, search, info}   the AI seat's live SearchInfo, ~10 a second
    notice    Notice {text, severity}         refused  Refused {of, reason}
    games     Games {games: [{name, text}]}   said  Said {name, text}   bye  Bye {reason}
    your_move YourMove {room, against, bell}  it became your move in a room you are not in
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal, TypeVar

from c4tui.engine.players.contract import SearchInfo
from c4tui.server.wire.codec import (
    Between,
    Items,
    ShapeError,
    Text,
    dumps,
    fields_of,
    from_wire,
    loads,
    to_wire,
)

VERSION = 1
MAX_TEXT = 200  # characters of a chat line, a name, a token or a code
OFFERS = ("draw", "take_back")  # what one player may offer and the other answer

Offer = Literal["draw", "take_back"]
Words = Annotated[str, Text(MAX_TEXT)]
AnyText = Annotated[str, Text(1 << 20, shortest=0)]  # what the service says: bounded by the line
Seat = Literal[0, 1]
Count = Annotated[int, Between(0, 1 << 31)]


def escaped(text: str, limit: int = 80) -> str:
    """A string a client gave (a name, a host, a path), as a log line may hold it: quoted,
    every control or invisible character escaped (no escape sequence, no forged line
    reaches the operator's terminal), and cut at `limit` characters."""
    return repr(text[:limit]) + ("..." if len(text) > limit else "")


class ProtocolError(ValueError):
    """A message that breaks the protocol; the message says how (one line, for the log)."""


class Message:
    """A message of the protocol: a frozen dataclass with its `KIND` on the wire."""

    KIND: ClassVar[str]

    @property
    def kind(self) -> str:
        return self.KIND


M = TypeVar("M", bound=Message)


# ---- client to service -------------------------------------------------------------


@dataclass(frozen=True)
class Hello(Message):
    KIND = "hello"
    version: Annotated[int, Between(0, 1 << 16)]
    token: Words


@dataclass(frozen=True)
class AskLobby(Message):
    KIND = "lobby"


@dataclass(frozen=True)
class Create(Message):
    KIND = "create"
    ai: Words | None = None
    public: bool = False
    second: bool = False
    width: Annotated[int, Between(4, 10)] = 7
    height: Annotated[int, Between(4, 10)] = 6
    connect: Annotated[int, Between(3, 6)] = 4
    clock: Annotated[str, Text(20)] | None = None  # a time control, TimeControl.parse's


@dataclass(frozen=True)
class Join(Message):
    KIND = "join"
    code: Annotated[str, Text(20)]


@dataclass(frozen=True)
class Watch(Message):
    KIND = "watch"
    room: Annotated[int, Between(1, 1 << 31)]


@dataclass(frozen=True)
class Leave(Message):
    KIND = "leave"


@dataclass(frozen=True)
class Drop(Message):
    KIND = "drop"
    column: Annotated[int, Between(0, 9)]
    ply: Annotated[int, Between(0, 100)]


@dataclass(frozen=True)
class Hurry(Message):
    KIND = "hurry"


@dataclass(frozen=True)
class Resign(Message):
    KIND = "resign"


@dataclass(frozen=True)
class OfferDraw(Message):
    KIND = "offer_draw"


@dataclass(frozen=True)
class TakeBack(Message):
    KIND = "take_back"


@dataclass(frozen=True)
class Rematch(Message):
    KIND = "rematch"


@dataclass(frozen=True)
class Answer(Message):
    KIND = "answer"
    offer: Offer
    accept: bool


@dataclass(frozen=True)
class Claim(Message):
    KIND = "claim"
    win: bool  # False: a draw


@dataclass(frozen=True)
class Bell(Message):
    KIND = "bell"
    on: bool  # ring when it becomes my move in a game I am not looking at


@dataclass(frozen=True)
class AskGames(Message):
    KIND = "games"


@dataclass(frozen=True)
class Say(Message):
    KIND = "say"
    text: Words


# ---- service to client -------------------------------------------------------------


@dataclass(frozen=True)
class Identity:
    key: AnyText
    name: AnyText


@dataclass(frozen=True)
class Welcome(Message):
    KIND = "welcome"
    version: int
    identity: Identity
    ai_seconds: float
    engines: tuple[AnyText, ...] = ()  # the operator's engines, by name ("server:NAME")


@dataclass(frozen=True)
class YourMove(Message):
    """It became this player's move in a room they are not in now (a correspondence
    game, say); the client rings the terminal bell when `bell`."""

    KIND = "your_move"
    room: Count
    against: AnyText
    bell: bool


@dataclass(frozen=True)
class SeatShown:
    name: AnyText
    ai: AnyText | None
    open: bool
    here: bool
    held: float | None  # seconds the seat of a dropped person is still held


@dataclass(frozen=True)
class ClockShown:
    """Both sides' time as the service saw it when it sent the room; a client counts the
    running side's down from when it got it."""

    control: AnyText  # "5+3", "3d"
    words: AnyText  # "5+3 blitz", "3 days a move"
    left: Annotated[tuple[float, ...], Items(2, 2)]  # seconds, ● then ○
    running: Seat | None


@dataclass(frozen=True)
class RoomShown(Message):
    """The whole room as one client sees it (rooms/views.py, with its code as shown)."""

    KIND = "room"
    room: Count
    code: AnyText | None  # for its players, or anyone when the room is open to all
    public: bool
    seat: Seat | None  # this client's seat, None when watching
    seat_code: AnyText | None
    seats: Annotated[tuple[SeatShown, ...], Items(2, 2)]
    width: Annotated[int, Between(4, 10)]
    height: Annotated[int, Between(4, 10)]
    connect: Annotated[int, Between(3, 6)]
    moves: Annotated[str, Text(100, shortest=0)]
    over: bool
    ended: AnyText | None
    winner: Seat | None
    offers: dict[Offer, Seat]
    rematch: tuple[Seat, ...]
    thinking: bool
    paused: bool
    thinking_spec: AnyText | None
    search: Count
    info: SearchInfo | None
    trouble: AnyText | None
    watchers: tuple[AnyText, ...]
    clock: ClockShown | None = None
    claim: Seat | None = None  # the seat that may claim the game (the other is gone)
    rated: bool = False  # its result moves the players' ratings
    date: AnyText = ""  # when its game began (a game file's Date), kept across restarts
    tournament: bool = False  # a tournament game's room: no rematch, the next round comes


@dataclass(frozen=True)
class Progress(Message):
    KIND = "progress"
    room: Count
    search: Count
    info: SearchInfo


@dataclass(frozen=True)
class Notice(Message):
    KIND = "notice"
    text: AnyText
    severity: Literal["information", "warning", "error"] = "information"


@dataclass(frozen=True)
class Refused(Message):
    KIND = "refused"
    of: AnyText
    reason: AnyText


@dataclass(frozen=True)
class KeptGame:
    name: AnyText
    text: AnyText


@dataclass(frozen=True)
class Games(Message):
    KIND = "games"
    games: tuple[KeptGame, ...]


@dataclass(frozen=True)
class Said(Message):
    KIND = "said"
    name: AnyText
    text: AnyText


@dataclass(frozen=True)
class Bye(Message):
    KIND = "bye"
    reason: AnyText


# ---- the codec of lines ------------------------------------------------------------


_last_line: tuple[Message, bytes] | None = None  # the message encoded last, and its line


def encode(message: Message) -> bytes:
    """One message as a line. A message sent to many (a room's spectators, its progress)
    is one object: it is encoded once, and the same line goes to each (messages are
    frozen, so the same object is always the same line)."""
    global _last_line
    last = _last_line
    if last is not None and last[0] is message:
        return last[1]
    line = dumps({"kind": message.KIND, **fields_of(message)}).encode() + b"\n"
    _last_line = (message, line)
    return line


def parse_line(line: bytes, kinds: dict[str, type[M]]) -> M:
    """One line read as the message its `kind` names among `kinds`; ProtocolError says why not."""
    try:
        data = loads(line)
    except ShapeError as error:
        raise ProtocolError(str(error)) from None
    if not isinstance(data, dict):
        raise ProtocolError(f"a JSON {type(data).__name__}, not an object")
    kind = data.pop("kind", None)
    if not isinstance(kind, str):
        raise ProtocolError("no 'kind'")
    shape = kinds.get(kind)
    if shape is None:
        raise ProtocolError(f"unknown kind {escaped(kind, 30)}")
    try:
        return from_wire(shape, data, kind)
    except ShapeError as error:
        raise ProtocolError(str(error)) from None


# ---- SearchInfo on the wire ----------------------------------------------------------


def info_to_wire(info: SearchInfo) -> dict[str, Any]:
    """A SearchInfo as JSON-ready values (columns as objects, None for a full column)."""
    wire: dict[str, Any] = to_wire(info)
    return wire


def info_from_wire(data: Any) -> SearchInfo:
    """The SearchInfo a service sent; ProtocolError when it is not one."""
    try:
        return from_wire(SearchInfo, data, "info")
    except ShapeError as error:
        raise ProtocolError(f"a search info that does not read: {error}") from None
