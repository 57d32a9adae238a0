"""A bot's play in its games: its game streams opened and closed, its moves, resignations
and thinking, each checked against the room and against the bot's limits.

Every request names a room where the bot has a seat (404 otherwise) and is refused with
an HTTP status and the reason in words (`BotRefused`); moves and thinking are limited
per bot (`Bucket`: so many at once, then so many a second). A move after the bot's flag
fell is too late, as a person's is. What the bot sends as engine-protocol `info` lines
reaches everyone in the room as the AI seat's progress does. BotDesk (bots.py) holds
one, as `play`.
"""

from __future__ import annotations

import time

from c4tui.community.bot_tokens import BotAccount
from c4tui.engine.external.protocol import InfoReader
from c4tui.engine.external.protocol import ProtocolError as InfoError
from c4tui.engine.turns import column_refusal
from c4tui.server.desks.bot_feeds import BotGameFeed
from c4tui.server.rooms.host import RoomHost
from c4tui.server.rooms.room import Room
from c4tui.server.wire.protocol import Progress

INFO_LINES = 32  # info lines in one thinking request (a board has at most 10 columns)
REASON_CHARS = 160  # of the words a bot gives when it resigns, told to the room
THINKING_BURST, THINKING_PER_SECOND = 10, 5.0  # thinking requests of one bot


class BotRefused(Exception):
    """A bot's request that is not done: an HTTP status and the reason in words."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


class Bucket:
    """So many at once, then so many a second (a token bucket)."""

    def __init__(self, burst: float, per_second: float) -> None:
        self.burst, self.per_second = burst, per_second
        self.level, self.when = burst, time.monotonic()

    def take(self) -> float:
        """0 when there was one to take; else the seconds until there is."""
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.when) * self.per_second)
        self.when = now
        if self.level >= 1:
            self.level -= 1
            return 0.0
        return (1 - self.level) / self.per_second


class BotPlay:
    """The bots' requests in their games, on one RoomHost (see the module docstring)."""

    def __init__(self, host: RoomHost) -> None:
        self.host = host
        self._moves: dict[str, Bucket] = {}
        self._thinking: dict[str, Bucket] = {}

    def seat(self, account: BotAccount, number: int) -> tuple[Room, int]:
        room = self.host.rooms.get(number)
        seat = None if room is None else room.seat_of(account.key)
        if room is None or seat is None:
            raise BotRefused(404, f"The bot has no seat in a room {number}.")
        return room, seat

    def open_game(self, account: BotAccount, number: int, address: str) -> BotGameFeed:
        """The stream of the bot's game in room `number` (an older one of it ends)."""
        room, seat = self.seat(account, number)
        for old in [c for c in self.host.members(room) if c.key == account.key]:
            if isinstance(old, BotGameFeed):
                old.close()
                self.host.clients.discard(old)
                old.room = None
        if not room.position.moves:  # its first look at the game: not "back"
            room.seats[seat].held_until = None
        feed = BotGameFeed(account, address, room)
        self.host.clients.add(feed)
        self.host.enter(feed, room, seat)
        self.host.show(room)
        return feed

    def close_game(self, feed: BotGameFeed) -> None:
        """The game's stream ended: as a person's connection dropping (the seat is held
        while the game goes on; after its end the bot leaves the room)."""
        feed.close()
        if feed not in self.host.clients:
            return
        room = self.host.rooms.get(feed.room) if feed.room is not None else None
        if room is not None and room.over:
            self.host.leave(feed)  # out of the room, its seat open
        self.host.depart(feed)

    # ---- moves, thinking, resigning -------------------------------------------------------

    async def move(self, account: BotAccount, number: int, column: int, ply: int | None) -> None:
        """The bot drops a disc in `column` (0-based), having seen `ply` moves if given."""
        room, seat = self.seat(account, number)
        wait = self._moves.setdefault(
            account.key, Bucket(2, self.host.limits.bot_moves_per_second)
        ).take()
        if wait > 0:
            raise BotRefused(
                429,
                f"More than {self.host.limits.bot_moves_per_second:g} moves "
                f"a second: wait {wait:.2f} s.",
            )
        self.host.look_at(room)  # a move that comes after the flag fell is too late
        refusal = room.drop(seat, column, room.position.moves if ply is None else ply)
        if refusal is not None:
            raise BotRefused(409, refusal)
        await self.keep(room)

    async def resign(self, account: BotAccount, number: int, reason: str = "") -> None:
        """Resign the bot's game; `reason`, its own words (its engine crashed, say), is
        told to the room with it: one line of printable text, cut at REASON_CHARS."""
        room, seat = self.seat(account, number)
        refusal = room.resign(seat)
        if refusal is not None:
            raise BotRefused(409, refusal)
        words = " ".join("".join(c if c.isprintable() else " " for c in reason).split())
        if len(words) > REASON_CHARS:
            words = words[: REASON_CHARS - 1] + "…"
        self.host.tell(room, f"BOT {account.name} resigns" + (f": {words}." if words else "."))
        await self.keep(room)

    async def keep(self, room: Room) -> None:
        """The change kept and shown, or BotRefused(503) when the store would not keep
        it (it is undone): a bot's `ok` always means kept."""
        if not await self.host.changed(room):
            raise BotRefused(
                503, room.trouble or "The server cannot keep games now: try again later."
            )

    def think(self, account: BotAccount, number: int, text: str) -> None:
        """The bot's thinking, as engine-protocol `info` lines, to everyone in the room."""
        room, seat = self.seat(account, number)
        if self._thinking.setdefault(
            account.key, Bucket(THINKING_BURST, THINKING_PER_SECOND)
        ).take():
            raise BotRefused(429, f"More than {THINKING_PER_SECOND:g} thinking requests a second.")
        lines = text.splitlines()
        if len(lines) > INFO_LINES:
            raise BotRefused(413, f"More than {INFO_LINES} info lines at once.")
        pos = room.position
        if room.over or pos.to_move != seat or not room.thinking:
            raise BotRefused(409, "It is not the bot's turn: thinking shows on its turn.")
        playable = tuple(column_refusal(pos, col) is None for col in range(pos.width))
        reader = InfoReader(account.name, pos.width, playable)
        info = None
        for line in lines:
            words = line.split()
            if not words:
                continue
            if words[0] != "info":
                raise BotRefused(400, "Thinking is engine-protocol info lines only.")
            try:
                info = reader.read(words[1:]) or info
            except InfoError as error:
                raise BotRefused(400, f"An info line that does not read: {error}") from None
        if info is None:
            raise BotRefused(400, "No summary info line (one without col): nothing to show.")
        if room.progress(room.search_id, info):
            progress = Progress(room.number, room.search_id, info)
            for client in self.host.members(room):
                client.send(progress)
