"""RemoteMatch: a match that lives in the room service of `c4tui serve`, seen from a client.

The service is authoritative: this side sends intents (drop in a column, resign, offer a
draw, ask for a take-back, answer an offer, rematch, hurry the AI) and keeps the last
state the service sent, which the UI draws. Nothing is decided here, so nothing can
disagree with the service: a refused intent comes back as a notice with the reason.

What the service says arrives as events, awaited one at a time in order by `on_event`:
`RoomChanged` (the whole room after any change), `Thinking` (the AI seat's live search,
about 10 a second), `LobbyChanged`, `GamesListed`, `Said` (a chat line), `Notice`, and
`Closed` (the connection ended; the UI should say why and quit).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from c4tui.engine.board.gamefile import GameFileError, GameRecord
from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import SearchInfo
from c4tui.match.requests import Notice
from c4tui.match.sides import GLYPHS, engine_title
from c4tui.rooms.client import RoomClient, RoomError
from c4tui.rooms.protocol import ProtocolError, info_from_wire


@dataclass(frozen=True)
class SeatView:
    """One seat as the room shows it."""

    name: str
    ai: str | None  # the engine spec when the AI sits here
    open: bool
    here: bool  # connected (an AI always is)
    held_until: float | None  # monotonic time the seat of a dropped person is held until

    @property
    def title(self) -> str:
        return engine_title(self.ai) if self.ai is not None else self.name


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
    thinking_spec: str | None
    search: int
    info: SearchInfo | None
    trouble: str | None
    watchers: tuple[str, ...]

    @classmethod
    def from_wire(cls, data: dict[str, Any], now: float) -> RoomView:
        seats = tuple(
            SeatView(
                s["name"],
                s["ai"],
                s["open"],
                s["here"],
                None if s["held"] is None else now + s["held"],
            )
            for s in data["seats"]
        )
        position = Position.from_moves(
            data["moves"], data["width"], data["height"], data["connect"]
        )
        info = None if data["info"] is None else info_from_wire(data["info"])
        return cls(
            data["room"],
            data["code"],
            data["public"],
            data["seat"],
            data["seat_code"],
            (seats[0], seats[1]),
            position,
            data["over"],
            data["ended"],
            data["winner"],
            {str(k): int(v) for k, v in data["offers"].items()},
            tuple(data["rematch"]),
            data["thinking"],
            data["thinking_spec"],
            data["search"],
            info,
            data["trouble"],
            tuple(data["watchers"]),
        )

    @property
    def playing(self) -> bool:
        return self.seat is not None

    def my_turn(self) -> bool:
        return self.seat is not None and not self.over and self.position.to_move == self.seat

    def offer_to_me(self) -> str | None:
        """An offer from the other side waiting for this client's answer."""
        if self.seat is None:
            return None
        return next((o for o, by in self.offers.items() if by != self.seat), None)

    def outcome_text(self) -> str | None:
        """How the game ended, in words, or None while it goes on."""
        if not self.over:
            return None
        if self.ended == "agreed":
            return "Draw agreed."
        if self.ended == "resigned" and self.winner is not None:
            loser = self.seats[1 - self.winner]
            return f"{loser.title} {GLYPHS[1 - self.winner]} resigned: {self._winner_words()}"
        if self.winner is None:
            return "Draw — the board is full."
        return self._winner_words()

    def _winner_words(self) -> str:
        assert self.winner is not None
        if self.winner == self.seat:
            return f"You win with {GLYPHS[self.winner]}!"
        return f"{self.seats[self.winner].title} {GLYPHS[self.winner]} wins."

    def status_text(self) -> str:
        """One line on whose turn it is, for this client."""
        outcome = self.outcome_text()
        if outcome is not None:
            again = " · n: rematch" if self.playing else ""
            return f"{outcome}{again}"
        mover = self.position.to_move
        seat, glyph = self.seats[mover], GLYPHS[mover]
        if self.thinking:
            return f"{seat.title} {glyph} is thinking…" + ("   (m: move now)" * self.playing)
        if seat.open and self.code is not None:
            return f"Waiting for a player {glyph}: pass on the code {self.code}."
        if seat.open:
            return f"Waiting for a player {glyph}."
        if mover == self.seat:
            return f"Your turn {glyph}   ← → Enter or 1-{self.position.width}"
        return f"{seat.title} {glyph} to move."


@dataclass(frozen=True)
class RoomSummary:
    number: int
    code: str | None  # only for a room its maker listed as open to anyone
    players: tuple[tuple[str, str | None] | None, ...]  # (name, engine spec) or None: open
    moves: int
    over: bool
    open: bool
    watchers: int


@dataclass(frozen=True)
class LobbyView:
    online: tuple[str, ...] = ()
    rooms: tuple[RoomSummary, ...] = ()

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> LobbyView:
        rooms = tuple(
            RoomSummary(
                r["room"],
                r["code"],
                tuple(None if p is None else (str(p["name"]), p["ai"]) for p in r["players"]),
                r["moves"],
                r["over"],
                r["open"],
                r["watchers"],
            )
            for r in data["rooms"]
        )
        return cls(tuple(data["online"]), rooms)


# ---- events ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RoomChanged:
    room: RoomView


@dataclass(frozen=True)
class Thinking:
    info: SearchInfo


@dataclass(frozen=True)
class LobbyChanged:
    lobby: LobbyView


@dataclass(frozen=True)
class GamesListed:
    games: tuple[tuple[str, GameRecord], ...]


@dataclass(frozen=True)
class Said:
    name: str
    text: str


@dataclass(frozen=True)
class Closed:
    reason: str


Event = RoomChanged | Thinking | LobbyChanged | GamesListed | Said | Notice | Closed


@dataclass
class RemoteMatch:
    """The client's side of the room service (see the module docstring)."""

    client: RoomClient
    on_event: Callable[[Event], Awaitable[None]]
    room: RoomView | None = None
    lobby: LobbyView = field(default_factory=LobbyView)

    @property
    def name(self) -> str:
        return str(self.client.welcome.get("identity", {}).get("name", ""))

    @property
    def ai_seconds(self) -> float:
        return float(self.client.welcome.get("ai_seconds", 2.0))

    async def run(self) -> None:
        """Hand on what the service says until the connection ends."""
        reason = "The server closed the connection."
        while (message := await self.client.receive()) is not None:
            if message["kind"] == "bye":
                reason = str(message.get("reason", reason))
                break
            try:
                event = self._event(message)
            except (KeyError, TypeError, ValueError, ProtocolError) as error:
                event = Notice(f"The server sent something unreadable: {error}", "error")
            if event is not None:
                await self.on_event(event)
        await self.client.close()
        await self.on_event(Closed(reason))

    def _event(self, message: dict[str, Any]) -> Event | None:
        kind = message["kind"]
        if kind == "room":
            self.room = RoomView.from_wire(message, time.monotonic())
            return RoomChanged(self.room)
        if kind == "progress":
            room = self.room
            if room is None or message["room"] != room.number or message["search"] != room.search:
                return None
            return Thinking(info_from_wire(message["info"]))
        if kind == "lobby":
            self.room = None
            self.lobby = LobbyView.from_wire(message)
            return LobbyChanged(self.lobby)
        if kind == "games":
            return GamesListed(tuple(_records(message["games"])))
        if kind == "said":
            return Said(str(message["name"]), str(message["text"]))
        if kind == "refused":
            return Notice(str(message["reason"]), "warning", timeout=4)
        if kind == "notice":
            severity = message.get("severity")
            severity = severity if severity in ("information", "warning", "error") else "warning"
            return Notice(str(message["text"]), severity, timeout=5)
        return None

    # ---- intents ------------------------------------------------------------------

    async def _send(self, kind: str, **body: Any) -> None:
        try:
            await self.client.send(kind, **body)
        except RoomError as error:
            await self.on_event(Notice(str(error), "error"))

    async def drop(self, column: int) -> None:
        if self.room is not None:
            await self._send("drop", column=column, ply=self.room.position.moves)

    async def create(
        self, ai: str | None = None, *, second: bool = False, public: bool = False
    ) -> None:
        body: dict[str, Any] = {"second": second, "public": public}
        if ai is not None:
            body["ai"] = ai
        await self._send("create", **body)

    async def join(self, code: str) -> None:
        await self._send("join", code=code)

    async def watch(self, room: int) -> None:
        await self._send("watch", room=room)

    async def leave(self) -> None:
        await self._send("leave")

    async def resign(self) -> None:
        await self._send("resign")

    async def offer_draw(self) -> None:
        await self._send("offer_draw")

    async def take_back(self) -> None:
        await self._send("take_back")

    async def answer(self, offer: str, accept: bool) -> None:
        await self._send("answer", offer=offer, accept=accept)

    async def rematch(self) -> None:
        await self._send("rematch")

    async def hurry(self) -> None:
        await self._send("hurry")

    async def games(self) -> None:
        await self._send("games")

    async def say(self, text: str) -> None:
        if text.strip():
            await self._send("say", text=text.strip()[:200])

    async def close(self) -> None:
        await self.client.close()


def _records(games: list[dict[str, Any]]):
    for game in games:
        try:
            yield str(game["name"]), GameRecord.from_text(str(game["text"]))
        except GameFileError:
            continue


async def connect(on_event: Callable[[Event], Awaitable[None]]) -> RemoteMatch:
    """The served app's match, from the environment its front set (RoomError if none)."""
    return RemoteMatch(await RoomClient.from_environment(), on_event)
