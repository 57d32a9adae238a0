"""What clients ask of rooms: each request checked against the room, done, or refused.

`Requests.handle` takes one checked message (protocol.py) from a logged-in client and
does it through the RoomHost, which keeps and shows the room afterwards; a request
that cannot be done is answered with `refused` and a reason, and changes nothing.
Room and seat codes are looked up under a limit on wrong guesses, per identity and
per address (access.py).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable

from c4tui.community.bot_tokens import is_bot_key
from c4tui.community.clocks import TimeControl
from c4tui.engine.board.game import Game
from c4tui.engine.board.position import Position
from c4tui.engine.players.specs import SpecError, parse_spec
from c4tui.server.desks.bots import BotDesk
from c4tui.server.desks.matchmaking import Matchmaking
from c4tui.server.desks.people import People
from c4tui.server.desks.tournaments import TournamentDesk
from c4tui.server.rooms.access import (
    GuessLimit,
    new_code,
    new_room_refusal,
    normal_code,
)
from c4tui.server.rooms.audience import Client
from c4tui.server.rooms.hooks import Refused
from c4tui.server.rooms.host import RoomHost
from c4tui.server.rooms.keeping import new_game_name
from c4tui.server.rooms.other_servers import OtherServers
from c4tui.server.rooms.room import Room, Seat
from c4tui.server.store.store import StoreError
from c4tui.server.wire.matchmaking_messages import (
    AnswerChallenge,
    CancelChallenge,
    MakeChallenge,
    Seek,
)
from c4tui.server.wire.people_messages import (
    AskProfile,
    Block,
    BotToken,
    ChallengeBot,
    ChooseName,
    MakeBotToken,
    SetPassword,
)
from c4tui.server.wire.protocol import (
    Answer,
    Bell,
    Claim,
    Create,
    Drop,
    Games,
    Join,
    KeptGame,
    Message,
    Notice,
    ProtocolError,
    Said,
    Say,
    Watch,
)
from c4tui.server.wire.protocol import Refused as RefusedMessage

log = logging.getLogger("c4tui.server")
OPERATORS = "server:"  # an AI seat's spec named among the operator's engines
GAMES_EVERY = 2.0  # seconds between one identity's requests for its games


class Requests:
    """The handlers of every request kind, over one RoomHost."""

    def __init__(
        self,
        host: RoomHost,
        tournaments: TournamentDesk | None = None,
        bots: BotDesk | None = None,
    ) -> None:
        self.host = host
        self.tournaments = tournaments or TournamentDesk(host)
        self.bots = bots  # what people ask of bots (server/desks/bots.py)
        self.guesses = GuessLimit(host.limits.code_guesses)  # per identity
        self.address_guesses = GuessLimit(host.limits.code_guesses_per_address)
        self._games_asked: dict[str, float] = {}  # identity key -> when it last asked
        self._tasks: set[asyncio.Task[None]] = set()  # games being read, till sent
        self.others = OtherServers(host)  # their people and rooms (several servers)
        host.listeners.append(self.others)
        self.people = People(host, self.others)
        self.matching = Matchmaking(host, others=self.others)
        host.listeners.append(self.matching.rated)  # a rated game's end moves the ratings
        host.listeners.append(self.matching)
        if bots is not None:
            bots.matching = self.matching  # bots seek too (server/desks/bots.py)

    def handle(self, client: Client, message: Message) -> None:
        """Do what the client asks, or tell it why not."""
        handler = getattr(self, f"_on_{message.kind}", None)
        handler = handler or self.tournaments.requests.get(message.kind)
        if handler is None:
            raise ProtocolError(f"{message.kind} once logged in")
        if self.host.elsewhere.forward(client, message):
            return  # about a room another server holds: done there (relay.py)
        try:
            handler(client, message)
        except Refused as reason:
            client.send(RefusedMessage(of=message.kind, reason=str(reason)))

    def _on_lobby(self, client: Client, message: Message) -> None:
        client.send(self.host.lobby.for_client(client))

    def _on_create(self, client: Client, message: Create) -> None:
        control = None
        if message.clock is not None:
            try:
                control = TimeControl.parse(message.clock)
            except ValueError as error:
                raise Refused(f"{str(error)[0].upper()}{str(error)[1:]}.") from None
        # Correspondence rooms wait days between moves: they do not take the rooms of games
        # played at one sitting (each player's and each address's limits bound them).
        by_post = control is not None and control.correspondence
        live = [
            r for r in self.host.rooms.values() if r.control is None or not r.control.correspondence
        ]
        if not by_post and len(live) >= self.host.limits.rooms:
            raise Refused(f"The server has its {self.host.limits.rooms} rooms: try again later.")
        kept = [r for r in self.host.rooms.values() if r.number != client.room or r.under_way]
        refusal = new_room_refusal(
            kept,
            client.key,
            client.address,
            self.host.limits,
            by_post,
        )
        self._refuse_if(refusal)
        width, height = message.width, message.height
        connect = message.connect
        try:
            start = Position.start(width, height, connect)
        except ValueError as error:
            raise Refused(str(error)) from None
        ai = self._ai_for(client, message.ai, (width, height, connect))
        self.host.leave(client)
        code = new_code(lambda code: any(r.code == code for r in self.host.rooms.values()))
        mine = Seat(client.key, client.name, code=self._seat_code(), address=client.address)
        seats = [mine, Seat(ai=ai)]
        if message.second:
            seats.reverse()
        number = self.host.leasing.new_number()
        room = Room(
            number,
            code,
            Game(start),
            seats,
            public=message.public,
            name=new_game_name(number),
            control=control,
        )
        self.host.rooms[number] = room
        log.info("room %d made by %s (%s)", number, client.who, ai or "two people")
        self.host.enter(client, room, room.seat_of(client.key))
        self.host.changed(room)

    def _ai_for(self, client: Client, ai: str | None, board: tuple[int, int, int]) -> str | None:
        """The spec of a new room's AI, checked against the room's board now (a learned
        engine with no network for it is refused here, not forfeited at its first move)."""
        if ai is None:
            return None
        mine = ai.startswith(OPERATORS)  # the operator's engine: it may run a program
        spec = dict(self.host.limits.engines).get(ai.removeprefix(OPERATORS)) if mine else ai
        if spec is None:
            raise Refused(f"This server has no engine {ai.removeprefix(OPERATORS)}.")
        try:  # a player's own spec runs no program on this host
            parse_spec(spec, outside=mine, board=board)
        except SpecError as error:
            log.info("AI %s refused for %s: %s", ai[:60], client.who, error)
            raise Refused(f"No such AI: {error}") from None
        return spec

    def _seat_code(self) -> str:
        taken = {seat.code for room in self.host.rooms.values() for seat in room.seats}
        return new_code(lambda code: code in taken)

    def _on_join(self, client: Client, message: Join) -> None:
        """A room's code takes a seat in it; a seat's code takes that seat back."""
        code = normal_code(message.code)
        self._may_guess(client)
        if self._find(code) is None and self.host.elsewhere.open_by_code(client, code, message):
            return  # another server's room: that server seats it (relay.py)
        room, seat = self._guess(client, lambda: self._find(code), message.code[:20])
        if seat is not None:
            self._reclaim(client, room, seat)
            return
        if room.seat_of(client.key) is None:
            self.host.leave(client)
        new = room.seat_of(client.key) is None
        taken = room.sit(client.key, client.name, self._seat_code(), client.address)
        if isinstance(taken, str):
            raise Refused(taken)
        if new:
            self.host.tell(room, f"{client.name} sits down: the game is on.")
        self.host.enter(client, room, taken)
        self.host.changed(room)

    def _find(self, code: str) -> tuple[Room, int | None] | None:
        """The room with this code (seat None), or the room and seat with this seat code."""
        for room in self.host.rooms.values():
            if room.code == code:
                return room, None
            for index, seat in enumerate(room.seats):
                if seat.key is not None and seat.code == code:
                    return room, index
        return None

    def _reclaim(self, client: Client, room: Room, seat: int) -> None:
        old = room.seats[seat]
        if old.key != client.key:
            self.host.leave(client)
            room.seats[seat] = Seat(client.key, old.name, code=old.code, address=client.address)
            for other in self.host.members(room):  # the old connection, if any, only watches
                if other.key == old.key:
                    other.send(Notice("Your seat was taken back with its seat code.", "warning"))
        self.host.enter(client, room, seat)
        self.host.changed(room)

    def _guess(
        self,
        client: Client,
        find: Callable[[], tuple[Room, int | None] | None],
        typed: str,
    ) -> tuple[Room, int | None]:
        """A code lookup, limited per identity and per address against guessing."""
        self._may_guess(client)
        found = find()
        if found is None:
            for limit, key in self._limits(client):
                limit.missed(key)
            log.warning("client %s: wrong code", client.who)
            raise Refused(f"No room or seat has the code {typed}.")
        return found

    def _may_guess(self, client: Client) -> None:
        """Refused while this client, or its address, guessed wrong too often."""
        wait = max(limit.wait(key) for limit, key in self._limits(client))
        if wait > 0:
            raise Refused(f"Too many wrong codes: try again in {wait:.0f} s.")

    def _limits(self, client: Client) -> tuple[tuple[GuessLimit, str], ...]:
        return ((self.guesses, client.key), (self.address_guesses, client.address))

    def _on_watch(self, client: Client, message: Watch) -> None:
        room = self.host.rooms.get(message.room)
        if room is None and self.host.elsewhere.open(client, message.room, message):
            return  # another server's room: watched through it (relay.py)
        if room is None:
            raise Refused("That room has closed.")
        if room.seat_of(client.key) is None:
            self.host.leave(client)
        self.host.enter(client, room, room.seat_of(client.key))
        self.host.show(room)

    def _on_leave(self, client: Client, message: Message) -> None:
        self.host.leave(client)
        client.send(self.host.lobby.for_client(client))

    def _on_drop(self, client: Client, message: Drop) -> None:
        room, seat = self._seated(client)
        self.host.look_at(room)  # a move that comes after the flag fell is too late
        self._refuse_if(room.drop(seat, message.column, message.ply))
        self.host.changed(room)

    def _on_hurry(self, client: Client, message: Message) -> None:
        room, _ = self._seated(client)
        search = self.host.ai.searches.get(room.number)
        if search is not None and room.thinking:
            search.stop()
        elif room.ai_to_move() is None:
            raise Refused("The AI is not to move.")
        else:
            room.paused = False
            self.host.ai.search(room)
            self.host.show(room)

    def _on_resign(self, client: Client, message: Message) -> None:
        room, seat = self._seated(client)
        self._refuse_if(room.resign(seat))
        self.host.changed(room)

    def _on_offer_draw(self, client: Client, message: Message) -> None:
        self._offer(client, "draw")

    def _on_take_back(self, client: Client, message: Message) -> None:
        self._offer(client, "take_back")

    def _offer(self, client: Client, offer: str) -> None:
        room, seat = self._seated(client)
        self._refuse_if(room.offer(seat, offer))
        other = room.seats[1 - seat]
        if other.ai is not None:  # an engine answers at once: take-backs yes, draws no
            accept = offer == "take_back"
            room.answer(1 - seat, offer, accept)
            if not accept:
                self.host.tell(room, "The AI declines the draw and plays on.")
        self.host.changed(room)

    def _on_answer(self, client: Client, message: Answer) -> None:
        room, seat = self._seated(client)
        offer, accept = message.offer, message.accept
        self._refuse_if(room.answer(seat, offer, accept))
        what = "draw" if offer == "draw" else "take-back"
        self.host.tell(room, f"{client.name} {'accepts' if accept else 'declines'} the {what}.")
        self.host.changed(room)

    def _on_bell(self, client: Client, message: Bell) -> None:
        try:
            self.host.lobby.keep_bell(client, message.on)
        except StoreError as error:
            raise Refused(f"The server cannot keep your bell now: {error}") from None
        client.send(self.host.lobby.for_client(client))

    def _on_claim(self, client: Client, message: Claim) -> None:
        room, seat = self._seated(client)
        self._refuse_if(room.claim(seat, message.win))
        gone = room.seats[1 - seat].name
        what = "the win" if message.win else "a draw"
        log.info("room %d: %s claims %s: %s left", room.number, client.who, what, gone)
        self.host.tell(room, f"{client.name} claims {what}: {gone} left the game.")
        self.host.changed(room)

    def _on_rematch(self, client: Client, message: Message) -> None:
        room, seat = self._seated(client)
        if not room.over:
            raise Refused("The game is still going: resign or offer a draw first.")
        if self.tournaments.plays_in(room.number):
            raise Refused("A tournament game has no rematch: the next round comes to you.")
        if room.ask_rematch(seat):
            room.new_game(new_game_name(room.number))
            self.host.tell(room, "Rematch: colours swapped.")
        self.host.changed(room)

    def _on_games(self, client: Client, message: Message) -> None:
        # Up to 50 games read per request: not as fast as a client can ask.
        now = time.monotonic()
        if now - self._games_asked.get(client.key, -GAMES_EVERY) < GAMES_EVERY:
            raise Refused("Your games are on their way: ask again in a moment.")
        self._games_asked[client.key] = now
        sending = asyncio.get_running_loop().create_task(self._send_games(client))
        self._tasks.add(sending)
        sending.add_done_callback(self._tasks.discard)

    async def _send_games(self, client: Client) -> None:
        """Read once the changes made before are written (a game just left is among
        them: the writers keep it, off the loop)."""
        await self.host.line.written()
        try:
            games = self.host.keeper.kept_games(client.key)
        except StoreError as error:
            reason = f"The server cannot read your games now: {error}"
            client.send(RefusedMessage(of="games", reason=reason))
            return
        client.send(Games(tuple(KeptGame(name, text) for name, text in games)))

    def _on_say(self, client: Client, message: Say) -> None:
        room = self.host.rooms.get(client.room) if client.room is not None else None
        if room is None:
            raise Refused("Chat is for rooms.")
        text = " ".join("".join(ch for ch in message.text if ch.isprintable()).split())
        for other in self.host.members(room):
            if other.key == client.key or not self.people.blocks(other.key, client.key):
                other.send(Said(client.name, text[:200]))

    def _on_profile(self, client: Client, message: AskProfile) -> None:
        client.send(self.people.profile(client, message.name))

    def _on_block(self, client: Client, message: Block) -> None:
        self.people.block(client, message.name, message.block)

    def _on_password(self, client: Client, message: SetPassword) -> None:
        self.people.set_password(client, message.password)

    def _on_name(self, client: Client, message: ChooseName) -> None:
        self.people.choose_name(client, message.name)

    def _on_challenge_bot(self, client: Client, message: ChallengeBot) -> None:
        if self.bots is None:
            raise Refused("This server has no bots.")
        size = (message.width, message.height, message.connect)
        self.bots.challenge_anywhere(client, message.bot, first=not message.second, size=size)
        client.send(Notice(f"Challenge sent to {message.bot}: waiting for its answer."))

    def _on_bot_token(self, client: Client, message: MakeBotToken) -> None:
        if self.bots is None:
            raise Refused("This server has no bots.")
        account, token = self.bots.make_token(client, message.name)
        client.send(BotToken(account.name, token))

    # ---- matchmaking (matchmaking.py) ----------------------------------------------

    def _on_seek(self, client: Client, message: Seek) -> None:
        self.matching.seek(client, message.control)

    def _on_unseek(self, client: Client, message: Message) -> None:
        self.matching.unseek(client)

    def _on_challenge(self, client: Client, message: MakeChallenge) -> None:
        name = message.name.strip()
        if self.bots is not None and self.bots.online(name) and not self._person_online(name):
            # A bot hears challenges on its event stream, from the bots' own book (as the
            # lobby's list of bots sends them), never as a person's lobby notice. Colours
            # are drawn, as for a person's; a game with a bot is casual.
            first = secrets.randbelow(2) == 0
            self.bots.challenge_anywhere(client, name, first=first, clock=message.control)
            terms = f"{TimeControl.parse(message.control).words}, casual"
            client.send(Notice(f"Challenge sent to BOT {name} ({terms}): waiting for its answer."))
            return
        self.matching.challenges.challenge(client, message.name, message.control, message.rated)

    def _person_online(self, name: str) -> bool:
        folded = name.casefold()
        return any(c.name.casefold() == folded and not is_bot_key(c.key) for c in self.host.clients)

    def _on_answer_challenge(self, client: Client, message: AnswerChallenge) -> None:
        self.matching.challenges.answer(client, message.challenge, message.accept)

    def _on_cancel_challenge(self, client: Client, message: CancelChallenge) -> None:
        self.matching.challenges.cancel(client, message.challenge)

    def _on_leaderboard(self, client: Client, message: Message) -> None:
        client.send(self.matching.rated.leaderboard())

    def _seated(self, client: Client) -> tuple[Room, int]:
        room = self.host.rooms.get(client.room) if client.room is not None else None
        if room is None:
            raise Refused("You are not in a room.")
        seat = room.seat_of(client.key)
        if seat is None:
            raise Refused("You are watching: only the players can do that.")
        return room, seat

    @staticmethod
    def _refuse_if(reason: str | None) -> None:
        if reason is not None:
            raise Refused(reason)
