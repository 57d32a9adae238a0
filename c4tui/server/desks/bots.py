"""Bots in rooms: a program with a bot token sits at a seat as a person does.

The web front's bot API (c4tui/server/fronts/bot_api.py, docs/bot-api.md) turns HTTP requests
into calls on a `BotDesk`, on the service's event loop like every request:

- a bot's account stream is a `BotAccountFeed` (bot_feeds.py, a Client that is in no
  room): it hears challenges and the start and end of its games, and makes the bot
  online in the lobby;
- each game the bot follows is a `BotGameFeed` (bot_feeds.py, a Client in that room).
  When that stream drops, the host holds the bot's seat as it holds a person's, and a
  bot that does not come back loses the game as one who does not come back does;
- its moves, resignations and thinking come as requests to `BotDesk.play` (bot_play.py),
  each checked against the room and against the bot's limits (games at once, moves a
  second).

Challenges: a person in the lobby (`challenge_bot`) or another bot challenges a bot by
name; the bot accepts or declines; accepted, a room opens with both in it. A challenge
not answered within CHALLENGE_SECONDS goes. They are the community's challenges
(community/challenges.py: its rules, numbers and expiry), in a book of the bots' own
(a bot is challenged on the server it is connected to), each with its board (BotGame).
With several servers on one database a bot is online on all of them, and a person on
another server challenges it through its server (bots_across.py).

While it is a bot's turn the room shows it thinking (as it shows the AI seat's search),
and what the bot sends as engine-protocol `info` lines reaches everyone in the room as
the AI seat's progress does, so spectators watch it think in the thinking panel.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

from c4tui.community.bot_tokens import BotAccount, BotNameError, TokenBook, bot_key
from c4tui.community.bot_tokens import is_bot_key as is_bot
from c4tui.community.challenges import Challenge, ChallengeBook, ChallengeRefused
from c4tui.community.clocks import TimeControl
from c4tui.engine.board.game import Game
from c4tui.engine.board.position import Position
from c4tui.server.desks.bot_feeds import BotAccountFeed
from c4tui.server.desks.bot_play import BotPlay, BotRefused
from c4tui.server.desks.bots_across import BotChallenge, BotsAcross, Challenger
from c4tui.server.desks.matchmaking import Matchmaking
from c4tui.server.rooms.access import new_code, new_room_refusal
from c4tui.server.rooms.audience import Client
from c4tui.server.rooms.hooks import HostListener, Refused
from c4tui.server.rooms.host import RoomHost
from c4tui.server.rooms.keeping import new_game_name
from c4tui.server.rooms.room import Room, Seat
from c4tui.server.store.bot_records import BotRecords
from c4tui.server.store.seek_records import SeekRecords
from c4tui.server.store.store import StoreError
from c4tui.server.wire.protocol import Notice

log = logging.getLogger("c4tui.server")
CHALLENGE_SECONDS = 60.0  # an unanswered challenge goes after this
CHALLENGES_PER_BOT = 20  # waiting for one bot at once; more are refused


@dataclass(frozen=True)
class BotGame:
    """What a challenge to a bot asks beyond the community's challenge (its id, who
    asks whom, the clock's words): the board, and whether the challenger plays first."""

    first: bool  # the challenger plays ● (moves first)
    width: int
    height: int
    connect: int
    control: TimeControl | None = None  # the game's clock; None: none


class BotDesk(HostListener):
    """What bots ask of the room service (see the module docstring)."""

    def __init__(self, host: RoomHost, tokens: TokenBook | None = None) -> None:
        """`tokens`: where bots are kept (by default the host's store, once open)."""
        self.host = host
        host.listeners.append(self)  # its bots hear of the games they are seated in
        self.matching: Matchmaking | None = None  # automatch's (requests.py sets it)
        self._started: dict[int, set[str]] = {}  # room -> the bots told of its game
        self._tokens = tokens
        self.accounts: dict[str, BotAccountFeed] = {}  # bot key -> its account stream
        # Challenges to bots: the community's rules (challenges.py), kept apart from the
        # people's book (a bot is challenged where it is connected), with their boards.
        self.book = ChallengeBook(time.time, live_seconds=CHALLENGE_SECONDS)
        self.games: dict[int, BotGame] = {}
        self.play = BotPlay(host)  # its bots' moves, thinking and game streams
        # Its bots in the other servers' lobbies, and their people's challenges.
        self.across = BotsAcross(host, self._challenged_from_elsewhere)

    # ---- tokens -----------------------------------------------------------------

    @property
    def tokens(self) -> TokenBook:
        return self._tokens or BotRecords(self.host.store)

    def make_token(self, client: Client, name: str) -> tuple[BotAccount, str]:
        """A new token for the bot `name` of this person (Refused says why not)."""
        if is_bot(client.key):
            raise Refused("A bot cannot make bots.")
        try:
            account, token = self.tokens.make(client.key, name)
        except BotNameError as error:
            raise Refused(str(error)) from None
        except StoreError as error:
            log.warning("a bot token not kept: %s", error)
            raise Refused("The server cannot keep a token now: try again later.") from None
        log.info("client %s made a token for the bot %s", client.who, account.name)
        old = self.accounts.get(account.key)
        if old is not None:  # the old token no longer holds: its stream ends
            old.close()
        return account, token

    def sign_in(self, token: str) -> BotAccount | None:
        try:
            return self.tokens.account(token)
        except StoreError as error:
            log.warning("bot tokens not read: %s", error)
            raise BotRefused(503, "The server cannot read tokens now: try again later.") from None

    # ---- the account stream -------------------------------------------------------

    def open_account(self, account: BotAccount, address: str) -> BotAccountFeed:
        """The bot's account stream (a newer one replaces an older): its games under way
        and the challenges waiting for it come first."""
        old = self.accounts.pop(account.key, None)
        if old is not None:
            old.close()
            self.host.clients.discard(old)
        feed = BotAccountFeed(account, address)
        self.accounts[account.key] = feed
        self.host.clients.add(feed)  # online: the lobby lists it
        self.across.online(feed)  # and the other servers' lobbies
        log.info("bot %s online from %s", account.name, address)
        feed.put({"type": "online", "name": account.name})
        for room in self._games_of(account.key):
            self._started.setdefault(room.number, set()).add(account.key)
            feed.put({"type": "gameStart", "room": room.number})
        self._forget_late()
        for challenge in self.book.made_to(account.key):
            feed.put(self._event(challenge, "challenge"))
        self.host.lobby.changed()
        return feed

    def close_account(self, feed: BotAccountFeed) -> None:
        feed.close()
        self.host.clients.discard(feed)
        if self.accounts.get(feed.key) is feed:
            del self.accounts[feed.key]
            log.info("bot %s offline", feed.name)
        self.across.offline(feed)
        self.host.lobby.changed()

    def _games_of(self, key: str) -> list[Room]:
        return [
            room
            for room in self.host.rooms.values()
            if room.seat_of(key) is not None and not room.over
        ]

    # ---- challenges -----------------------------------------------------------------

    def online(self, bot: str) -> bool:
        """Whether a bot of this name follows its event stream, here or on another server."""
        key = bot_key(bot)
        return key in self.accounts or bool(self.across.elsewhere(key))

    def challenge_anywhere(
        self,
        by: Client,
        bot: str,
        *,
        first: bool,
        size: tuple[int, int, int] = (7, 6, 4),
        clock: str | None = None,
    ) -> None:
        """A person's challenge to the bot named `bot`: here, or sent to the server it is
        connected to (which answers through the bus); Refused says why not."""
        if bot_key(bot) not in self.accounts and self.across.challenge(
            BotChallenge(Challenger(by.key, by.name), bot, first, size, clock)
        ):
            return
        self.challenge(by, bot, first=first, size=size, clock=clock)

    def _challenged_from_elsewhere(self, challenge: BotChallenge) -> None:
        """A person on another server challenges a bot of this one (Refused: not made)."""
        self.challenge(
            challenge.by,
            challenge.bot,
            first=challenge.first,
            size=challenge.size,
            clock=challenge.clock,
        )

    def challenge(
        self,
        by: Client | BotAccount | Challenger,
        bot: str,
        *,
        first: bool = True,
        size: tuple[int, int, int] = (7, 6, 4),
        clock: str | None = None,
    ) -> Challenge:
        """A challenge to the online bot named `bot` (`clock`: a time control, "5+3");
        Refused says why not."""
        self._forget_late()
        feed = self.accounts.get(bot_key(bot))
        if feed is None:
            if self.across.elsewhere(bot_key(bot)):  # its games are played there
                raise Refused(f"BOT {bot[:20]} is on another server: bots play bots on one only.")
            raise Refused(f"No bot named {bot[:20]} is online.")
        if feed.key == by.key:
            raise Refused("A bot does not play itself.")
        try:
            Position.start(*size)
            control = None if clock is None else TimeControl.parse(clock)
        except ValueError as error:
            raise Refused(str(error)) from None
        waiting = len(self.book.made_to(feed.key))
        if waiting >= CHALLENGES_PER_BOT:
            raise Refused(f"{feed.name} has {waiting} challenges waiting: try again later.")
        for old in self.book.made_by(by.key):
            self._withdraw(old)  # one challenge at a time: the newest counts
        try:
            challenge = self.book.make(
                (by.key, by.name),
                (feed.key, feed.name),
                "" if control is None else control.text,
                rated=False,
                correspondence=False,
                opponent_online=True,
            )
        except ChallengeRefused as error:
            raise Refused(str(error)) from None
        self.games[challenge.id] = BotGame(first, *size, control)
        feed.put(self._event(challenge, "challenge"))
        log.info("bot %s challenged by %s (%s)", feed.name, by.name, challenge.id)
        return challenge

    def _event(self, challenge: Challenge, kind: str) -> dict[str, Any]:
        """A challenge as the bot API tells it (docs/bot-api.md)."""
        game = self.games[challenge.id]
        return {
            "type": kind,
            "id": str(challenge.id),
            "from": {"name": challenge.challenger_name, "bot": is_bot(challenge.challenger)},
            "to": challenge.opponent_name,
            "color": "second" if game.first else "first",  # the challenged bot's
            "width": game.width,
            "height": game.height,
            "connect": game.connect,
            "clock": challenge.control or None,
        }

    def _withdraw(self, challenge: Challenge) -> None:
        """The challenge is off (a newer one, or its time ran out): the bot is told."""
        self.book.open.pop(challenge.id, None)
        feed = self.accounts.get(challenge.opponent)
        if feed is not None:
            feed.put(self._event(challenge, "challengeCanceled"))
        self.games.pop(challenge.id, None)

    def _forget_late(self) -> None:
        for challenge in self.book.expire():
            self._withdraw(challenge)
            self._tell_challenger(
                challenge, f"{challenge.opponent_name} did not answer in time.", None
            )

    def _tell_challenger(
        self, challenge: Challenge, text: str, event: dict[str, Any] | None
    ) -> None:
        if is_bot(challenge.challenger):
            feed = self.accounts.get(challenge.challenger)
            if feed is not None and event is not None:
                feed.put(event)
            return
        for client in self.host.clients.of(challenge.challenger):
            if client.room is None:
                client.send(Notice(text))
        self.across.tell(challenge.challenger, text)  # on another server, maybe

    def _answered(self, account: BotAccount, challenge_id: str, accept: bool) -> Challenge:
        """The challenge to this bot numbered `challenge_id`, out of the book (its board
        in `games` until the caller has used it)."""
        self._forget_late()
        try:
            number = int(challenge_id)
            if accept:
                return self.book.accept(number, account.key)
            return self.book.decline(number, account.key)
        except (ValueError, ChallengeRefused):
            raise BotRefused(404, "No such challenge (answered, withdrawn or too old).") from None

    def decline(self, account: BotAccount, challenge_id: str) -> None:
        challenge = self._answered(account, challenge_id, accept=False)
        declined = self._event(challenge, "challengeDeclined")
        self.games.pop(challenge.id, None)
        self._tell_challenger(challenge, f"BOT {account.name} declines your challenge.", declined)

    def accept(self, account: BotAccount, challenge_id: str) -> Room:
        """The challenge accepted: a room with both in it, its game about to start."""
        challenge = self._answered(account, challenge_id, accept=True)
        game = self.games.pop(challenge.id)
        person = None
        if is_bot(challenge.challenger):
            if challenge.challenger not in self.accounts:
                raise BotRefused(409, "The challenger has gone offline.")
        else:
            person = next(
                (c for c in self.host.clients.of(challenge.challenger) if c.room is None),
                None,
            )
            if person is None and not self._free_elsewhere(challenge.challenger):
                raise BotRefused(409, "The challenger has gone, or is in a room now.")
        for key in (account.key, challenge.challenger):
            if is_bot(key) and len(self._games_of(key)) >= self.host.limits.bot_games:
                raise BotRefused(
                    409, f"A bot plays {self.host.limits.bot_games} games at once at most."
                )
        if len(self.host.rooms) >= self.host.limits.rooms:
            raise BotRefused(409, "The server has all the rooms it may have: try again later.")
        if person is not None:
            refusal = new_room_refusal(
                self.host.rooms.values(), person.key, person.address, self.host.limits
            )
            if refusal is not None:
                person.send(Notice(f"BOT {account.name} accepted, but: {refusal}", "warning"))
                raise BotRefused(409, "The challenger may not open another room now.")
        room = self._open_room(challenge, game)
        log.info(
            "room %d: %s plays the bot %s", room.number, challenge.challenger_name, account.name
        )
        if person is not None:
            self.host.enter(person, room, room.seat_of(person.key))
        # The bots hear gameStart once it is kept (`changed` below); a room the store
        # refuses is not made, and the person in it is told.
        self.host.changed(room)
        if person is None and not is_bot(challenge.challenger) and room.number in self.host.rooms:
            self.host.summon(challenge.challenger, room.number)  # from their server, relayed
        return room

    def changed(self, room: Room) -> None:
        """A room changed: a bot of this server seated in a new game there (a challenge
        accepted, automatch) hears of it (gameStart); until its game's stream opens its
        seat is held, as a dropped player's is, so a bot that never comes loses."""
        if room.over:
            self._started.pop(room.number, None)
            return
        told = self._started.setdefault(room.number, set())
        here = {c.key for c in self.host.members(room)}
        for index, seat in enumerate(room.seats):
            feed = self.accounts.get(seat.key or "")
            if feed is None or feed.key in told:
                continue
            told.add(feed.key)
            if feed.key not in here and seat.held_until is None and not room.position.moves:
                room.hold(index, self.host.now() + self.host.limits.seat_hold)
                self.host.show(room)  # the other side sees the countdown
            feed.put({"type": "gameStart", "room": room.number})

    def _free_elsewhere(self, key: str) -> bool:
        """Whether this person is online on another server and not playing a game under
        way (on any server): a room here may be opened for them."""
        if not self.across.elsewhere(key):
            return False
        try:
            return not SeekRecords(self.host.store, self.host.server).playing(key)
        except StoreError as error:
            log.warning("whether %s plays elsewhere is not known: %s", key, error)
            return False

    # ---- automatch ---------------------------------------------------------------------

    def seek(self, account: BotAccount, control: str | None) -> None:
        """The bot seeks a rated game of this time control (None: stops seeking), paired
        as people are, while its account stream is open (Refused says why not)."""
        feed = self.accounts.get(account.key)
        if self.matching is None:
            raise BotRefused(409, "This server has no automatch.")
        if feed is None:
            raise BotRefused(409, "Open the account stream first: a seek lasts while it is open.")
        if control is None:
            self.matching.unseek(feed)
        else:
            self.matching.seek(feed, control)

    def _open_room(self, challenge: Challenge, game: BotGame) -> Room:
        host = self.host
        taken = {seat.code for room in host.rooms.values() for seat in room.seats}
        challenger = Seat(
            challenge.challenger, challenge.challenger_name, code=new_code(lambda c: c in taken)
        )
        bot = Seat(challenge.opponent, challenge.opponent_name, code=new_code(lambda c: c in taken))
        seats = [challenger, bot] if game.first else [bot, challenger]
        number = host.leasing.new_number()
        code = new_code(lambda code: any(r.code == code for r in host.rooms.values()))
        start = Position.start(game.width, game.height, game.connect)
        room = Room(
            number, code, Game(start), seats, name=new_game_name(number), control=game.control
        )
        # A bot that accepts and never follows its game loses it as one who dropped does.
        until = time.monotonic() + host.limits.seat_hold
        for seat in seats:
            if seat.bot:
                seat.held_until = until
        host.rooms[number] = room
        return room
