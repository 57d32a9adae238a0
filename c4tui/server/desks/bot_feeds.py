"""A bot's streams: its account's and each game's, as Clients of the room service whose
messages become events (dicts, one JSON line each) for the bot API (fronts/bot_api.py).

The account stream hears challenges and the start and end of its games; a game's
stream turns the room's views into the game's events: the whole game first, then its
state after every change, then its end. A stream that does not read is cut off past
FEED_CAP waiting events.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from c4tui.community.bot_tokens import BotAccount
from c4tui.server.rooms.audience import Client
from c4tui.server.rooms.room import Room
from c4tui.server.wire.codec import to_wire
from c4tui.server.wire.protocol import Bye, Message, Notice, RoomShown, Said

log = logging.getLogger("c4tui.server")
FEED_CAP = 256  # events waiting for a stream that does not read: past this, it is cut


class Feed(Client):
    """A Client whose messages become events of a stream (dicts, one JSON line each)."""

    def __init__(self, account: BotAccount, address: str) -> None:
        super().__init__(account.key, account.name, address)
        self.account = account
        self.events: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.closed = False

    def put(self, event: dict[str, Any]) -> None:
        if self.closed:
            return
        if self.events.qsize() >= FEED_CAP:
            log.warning("bot %s: stream cut off: it does not read its events", self.who)
            self.close()
            return
        self.events.put_nowait(event)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.events.put_nowait(None)  # the end of the stream

    def send(self, message: Message) -> None:
        if isinstance(message, Bye):  # the server stops: the stream ends after this
            self.put({"type": "serverStopping", "text": message.reason})
        else:
            self.heard(message)

    def heard(self, message: Message) -> None:
        """A message of the room service, as this stream's events (if any)."""


class BotAccountFeed(Feed):
    """A bot's account stream: challenges and its games' starts and ends (its other
    messages, lobbies and welcomes, are for people's screens)."""


class BotGameFeed(Feed):
    """One game's stream of a bot: the game in full, its states, its end."""

    def __init__(self, account: BotAccount, address: str, room: Room) -> None:
        super().__init__(account, address)
        self.room = room.number
        self._players = [{"name": seat.name, "bot": seat.bot, "ai": seat.ai} for seat in room.seats]
        self._last: tuple[str, bool] | None = None

    def heard(self, message: Message) -> None:
        if isinstance(message, RoomShown):
            self._shown(message)
        elif isinstance(message, Said):
            self.put({"type": "chat", "name": message.name, "text": message.text})
        elif isinstance(message, Notice):
            self.put({"type": "notice", "text": message.text})
        # Progress is the bot's own thinking coming back: nothing new to it.

    def _shown(self, view: RoomShown) -> None:
        state = {
            "moves": view.moves,
            "over": view.over,
            "winner": view.winner,
            "ended": view.ended or (None if not view.over else self._how(view)),
            "held": [seat.held for seat in view.seats],
            "clock": None if view.clock is None else to_wire(view.clock),
        }
        if self._last is None:
            self.put(
                {
                    "type": "gameFull",
                    "room": view.room,
                    "seat": view.seat,
                    "width": view.width,
                    "height": view.height,
                    "connect": view.connect,
                    "players": self._players,
                    **state,
                }
            )
        elif self._last != (view.moves, view.over):
            self.put({"type": "gameState", **state})
        self._last = (view.moves, view.over)
        if view.over:
            self.close()  # the game's last event: the stream ends

    @staticmethod
    def _how(view: RoomShown) -> str:
        return "line" if view.winner is not None else "full"
