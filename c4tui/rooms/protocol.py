"""The room protocol: versioned, line-delimited JSON between client processes and the service.

Every message is one JSON object on one line (UTF-8, at most `RoomLimits.max_line`
bytes), with a `kind`. A client's first message is `hello`; the service answers
`welcome` or closes the connection. Everything a client sends is checked here against
the schema of its kind: unknown kinds, unknown or missing fields and values of the
wrong type or range are a `ProtocolError`, and the service closes that connection
(one log line) while everyone else plays on.

Client to service (`CLIENT_KINDS`):
    hello     {version, token}
    lobby     {}                              who is online, which rooms there are
    create    {ai?, public?, second?, width?, height?, connect?}   a room; `ai` plays
                                              the other seat; `second`: you play ○
    join      {code}                          a seat in the room with that code, or the
                                              seat with that seat code (taken back)
    watch     {room}                          spectate any room by its number
    leave     {}                              back to the lobby (a seat is given up)
    drop      {column, ply}                   a move; `ply` is the move count the client saw
    hurry     {}                              the AI plays its best move so far now
    resign, offer_draw, take_back, rematch {}
    answer    {offer, accept}                 the other side's draw or take-back offer
    games     {}                              this identity's finished games
    say       {text}                          a short chat line to the room

Service to client (not schema-checked by clients beyond what they read):
    welcome {version, identity: {key, name}, ai_seconds}
    lobby {online: [names], rooms: [...]}
    room {...}          the whole room, after every change (see Room.view)
    progress {room, search, info}   the AI seat's live SearchInfo, ~10 a second
    notice {text, severity}         refused {of, reason}
    games {games: [{name, text}]}   said {name, text}   bye {reason}
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from typing import Any

from c4tui.engine.players.contract import ColumnStat, SearchInfo

VERSION = 1
MAX_TEXT = 200  # characters of a chat line, a name, a token or a code
OFFERS = ("draw", "take_back")  # what one player may offer and the other answer


def escaped(text: str, limit: int = 80) -> str:
    """A string a client gave (a name, a host, a path), as a log line may hold it: quoted,
    every control or invisible character escaped (no escape sequence, no forged line
    reaches the operator's terminal), and cut at `limit` characters."""
    return repr(text[:limit]) + ("..." if len(text) > limit else "")


class ProtocolError(ValueError):
    """A message that breaks the protocol; the message says how (one line, for the log)."""


Check = Callable[[Any], bool]


def _text(limit: int = MAX_TEXT) -> Check:
    return lambda value: isinstance(value, str) and 0 < len(value) <= limit


def _int(low: int, high: int) -> Check:
    return lambda value: type(value) is int and low <= value <= high


def _bool(value: Any) -> bool:
    return type(value) is bool


def _choice(*choices: str) -> Check:
    return lambda value: value in choices


@dataclass(frozen=True)
class Field:
    check: Check
    required: bool = True
    what: str = ""  # the allowed values, in words, for the error


def _field(check: Check, what: str, required: bool = True) -> Field:
    return Field(check, required, what)


_TEXT = _field(_text(), f"text of 1-{MAX_TEXT} characters")
_OPTIONAL_TEXT = _field(_text(), f"text of 1-{MAX_TEXT} characters", required=False)
_NOTHING: dict[str, Field] = {}

CLIENT_KINDS: dict[str, dict[str, Field]] = {
    "hello": {
        "version": _field(_int(0, 1 << 16), "a version number"),
        "token": _TEXT,
    },
    "lobby": _NOTHING,
    "create": {
        "ai": _OPTIONAL_TEXT,
        "public": _field(_bool, "true or false", required=False),
        "second": _field(_bool, "true or false", required=False),
        "width": _field(_int(4, 10), "4 to 10", required=False),
        "height": _field(_int(4, 10), "4 to 10", required=False),
        "connect": _field(_int(3, 6), "3 to 6", required=False),
    },
    "join": {"code": _field(_text(20), "a room code")},
    "watch": {"room": _field(_int(1, 1 << 31), "a room number")},
    "leave": _NOTHING,
    "drop": {
        "column": _field(_int(0, 9), "a column from 0 to 9"),
        "ply": _field(_int(0, 100), "a move count"),
    },
    "hurry": _NOTHING,
    "resign": _NOTHING,
    "offer_draw": _NOTHING,
    "take_back": _NOTHING,
    "rematch": _NOTHING,
    "answer": {
        "offer": _field(_choice(*OFFERS), "'draw' or 'take_back'"),
        "accept": _field(_bool, "true or false"),
    },
    "games": _NOTHING,
    "say": {"text": _TEXT},
}


@dataclass(frozen=True)
class Message:
    """A checked client message: its kind and its fields."""

    kind: str
    fields: dict[str, Any]

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)


def parse_client_line(line: bytes) -> Message:
    """One line from a client, checked against its kind's schema; ProtocolError says why not."""
    try:
        data = json.loads(line.decode("utf-8"))
    except UnicodeDecodeError:
        raise ProtocolError("not UTF-8") from None
    except (ValueError, RecursionError):
        raise ProtocolError("not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"a JSON {type(data).__name__}, not an object")
    kind = data.pop("kind", None)
    if not isinstance(kind, str):
        raise ProtocolError("no 'kind'")
    schema = CLIENT_KINDS.get(kind)
    if schema is None:
        raise ProtocolError(f"unknown kind {kind[:30]!r}")
    for name, value in data.items():
        spec = schema.get(name)
        if spec is None:
            raise ProtocolError(f"{kind}: unknown field {name[:30]!r}")
        if not spec.check(value):
            raise ProtocolError(f"{kind}: {name} should be {spec.what}")
    for name, spec in schema.items():
        if spec.required and name not in data:
            raise ProtocolError(f"{kind}: {name} is missing")
    return Message(kind, data)


def encode(kind: str, **body: Any) -> bytes:
    """One message as a line (service to client, or a client's own messages)."""
    return json.dumps({"kind": kind, **body}, separators=(",", ":")).encode() + b"\n"


def decode(line: bytes) -> dict[str, Any]:
    """A service message for a client: a JSON object with a string `kind`."""
    try:
        data = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ProtocolError("the service sent a line that is not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise ProtocolError("the service sent a message without a kind")
    return data


# ---- SearchInfo on the wire ----------------------------------------------------------


def info_to_wire(info: SearchInfo) -> dict[str, Any]:
    """A SearchInfo as JSON-ready values (columns as objects, None for a full column)."""
    return asdict(info)


_INFO_FIELDS = {f.name for f in fields(SearchInfo)}
_STAT_FIELDS = {f.name for f in fields(ColumnStat)}


def info_from_wire(data: Any) -> SearchInfo:
    """The SearchInfo a service sent; ProtocolError when it is not one."""
    if not isinstance(data, dict) or not set(data) <= _INFO_FIELDS:
        raise ProtocolError("a search info with unknown fields")
    columns = data.get("columns", ())
    if not isinstance(columns, (list, tuple)):
        raise ProtocolError("a search info whose columns are not a list")
    stats = []
    for stat in columns:
        if stat is not None and not (isinstance(stat, dict) and set(stat) <= _STAT_FIELDS):
            raise ProtocolError("a search info with a column that is not one")
        stats.append(None if stat is None else ColumnStat(**stat))
    try:
        return SearchInfo(**{**data, "columns": tuple(stats), "pv": tuple(data.get("pv", ()))})
    except TypeError as error:
        raise ProtocolError(f"a search info that does not read: {error}") from None
