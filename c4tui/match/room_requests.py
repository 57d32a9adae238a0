"""The requests of a room and of matchmaking, each one message to the service.

`RemoteMatch` (remote.py) is a `RoomRequests`: besides the match interface's intents, a
client of the room service creates, joins, watches and leaves rooms, answers offers,
chats, asks for games, profiles and tournaments, and seeks or challenges in the lobby.
Each is one wire message (protocol.py) put in the outbox, which a writer task of the
match drains in order, so a request never blocks the UI.
"""

from __future__ import annotations

import asyncio
import time

from c4tui.server.wire import matchmaking_messages, people_messages
from c4tui.server.wire import protocol as wire
from c4tui.server.wire.protocol import Message

REPEAT_SECONDS = 0.5  # the same intent again within this is dropped (a held-down key)


class RoomRequests:
    """The outbox to the room service, and the requests that go through it."""

    def __init__(self) -> None:
        self._outbox: asyncio.Queue[Message | None] = asyncio.Queue()
        self._last_sent: Message | None = None
        self._last_time = 0.0

    def _send(self, intent: Message) -> None:
        # A key held down repeats ~30 times a second; the service cuts off a client that
        # sends more than 20, and the same intent again says nothing new.
        now = time.monotonic()
        if self._last_sent == intent and now - self._last_time < REPEAT_SECONDS:
            return
        self._last_sent, self._last_time = intent, now
        self._outbox.put_nowait(intent)

    # ---- intents of a room ----------------------------------------------------------

    def create(
        self,
        ai: str | None = None,
        *,
        second: bool = False,
        public: bool = False,
        clock: str | None = None,
    ) -> None:
        """A room; `clock`: its time control ("5+3", "3d"), None for none."""
        self._send(wire.Create(ai=ai, second=second, public=public, clock=clock))

    def bell(self, on: bool) -> None:
        """Ring (or not) when it becomes my move in a game I am not looking at."""
        self._send(wire.Bell(on))

    def join(self, code: str) -> None:
        """A seat in the room with this code, or back in the seat with this seat code."""
        self._send(wire.Join(code[:20]))

    def watch(self, room: int) -> None:
        self._send(wire.Watch(room))

    def leave(self) -> None:
        self._send(wire.Leave())

    def offer_draw(self) -> None:
        self._send(wire.OfferDraw())

    def answer(self, offer: str, accept: bool) -> None:
        self._send(wire.Answer(offer, accept))  # type: ignore[arg-type]  # the UI's two offers

    def rematch(self) -> None:
        self._send(wire.Rematch())

    def claim(self, win: bool) -> None:
        """The win (or a draw) from an opponent gone past the grace."""
        self._send(wire.Claim(win))

    def games(self) -> None:
        self._send(wire.AskGames())

    def challenge_bot(self, bot: str, *, second: bool = False) -> None:
        """A game with the online bot named `bot`, if it accepts (the room opens then)."""
        self._send(people_messages.ChallengeBot(bot[:20], second=second))

    def make_bot_token(self, name: str) -> None:
        """A new token for this player's bot `name` (BotTokenMade brings it)."""
        self._send(people_messages.MakeBotToken(name[:20]))

    def ask(self, request: Message) -> None:
        """A request of the service beyond a room's: the tournaments' (screens/tournament.py)."""
        self._send(request)

    def say(self, text: str) -> None:
        if text.strip():
            self._send(wire.Say(text.strip()[:200]))

    def profile(self, name: str) -> None:
        if name.strip():
            self._send(people_messages.AskProfile(name.strip()[:200]))

    def block(self, name: str, block: bool) -> None:
        self._send(people_messages.Block(name[:200], block))

    def set_password(self, password: str) -> None:
        self._send(people_messages.SetPassword(password[:200]))

    def choose_name(self, name: str) -> None:
        """A name of this browser player's own (the service says Renamed or NameRefused)."""
        self._send(people_messages.ChooseName(name.strip()[:200]))

    # ---- intents of matchmaking -----------------------------------------------------

    def seek(self, control: str) -> None:
        """Automatch: a rated game with this time control ("3+2", "1d")."""
        self._send(matchmaking_messages.Seek(control[:20]))

    def unseek(self) -> None:
        self._send(matchmaking_messages.Unseek())

    def challenge(self, name: str, control: str, *, rated: bool) -> None:
        self._send(
            matchmaking_messages.MakeChallenge(name.strip()[:200] or "?", control[:20], rated)
        )

    def answer_challenge(self, challenge: int, accept: bool) -> None:
        self._send(matchmaking_messages.AnswerChallenge(challenge, accept))

    def cancel_challenge(self, challenge: int) -> None:
        self._send(matchmaking_messages.CancelChallenge(challenge))

    def leaderboard(self) -> None:
        self._send(matchmaking_messages.AskLeaderboard())
