"""Matchmaking: automatch and challenges in the room service, and the rooms they open.

The room service keeps one `Matchmaking` (requests.py's `matching`), which hands it
what clients ask (seek, unseek; challenges go to its `challenges`, challenge_desk.py);
the host tells it when a client comes or goes, and calls `tick` once a second: that
pairs the seekers (community/automatch.py), lets challenges expire, and tells each
seeker the range their seek has widened to.

A pairing or an accepted challenge opens a room of its own for the two, with the time
control they chose, rated or casual (an automatch game is rated), and seats them there;
colours are drawn. What a rated game moves when it ends (the ratings, the leaderboard)
is rated_games.py's (`Matchmaking.rated`). Players are identity keys here, as in the
rooms' seats.

Several servers on one database (PostgreSQL) match their players together. Seeks are
rows in the store (server/store/seek_records.py), and any server's tick pairs them,
under a lock, so each is paired once; the pairing server opens the room (it holds its
lease) and summons both players (`RoomHost.summon`: a player on another server plays
through it); what a player is told reaches them on their server over the bus
("matching.tell"). On one server (SQLite) the seeks are this object's own, in memory.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from c4tui.community.automatch import Pairing, SeekQueue
from c4tui.community.automatch import Seek as Sought
from c4tui.community.bot_tokens import is_bot_key
from c4tui.community.clocks import TimeControl
from c4tui.engine.board.game import Game
from c4tui.engine.board.position import Position
from c4tui.server.desks.challenge_desk import ChallengeDesk
from c4tui.server.desks.rated_games import RatedGames
from c4tui.server.rooms.access import new_code
from c4tui.server.rooms.audience import Client
from c4tui.server.rooms.hooks import HostListener, Refused
from c4tui.server.rooms.host import RoomHost
from c4tui.server.rooms.keeping import new_game_name
from c4tui.server.rooms.other_servers import OtherServers
from c4tui.server.rooms.room import Room, Seat
from c4tui.server.store.people_records import PeopleRecords
from c4tui.server.store.player_records import PlayerRecords
from c4tui.server.store.seek_records import SeekRecords
from c4tui.server.store.store import Store, StoreError
from c4tui.server.wire.matchmaking_messages import Seeking
from c4tui.server.wire.protocol import Notice

log = logging.getLogger("c4tui.server")


class Matchmaking(HostListener):
    """Seeks, challenges and rated games of one RoomHost (see the module docstring)."""

    def __init__(
        self,
        host: RoomHost,
        *,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] | None = None,
        others: OtherServers | None = None,
    ) -> None:
        """`wall`: Unix seconds (the host's, unless a test hands in its own); `others`:
        the other servers' people (a RoomHost alone, without it)."""
        self.host = host
        self.wall = wall or (lambda: host.wall())
        self.others = others or OtherServers(host)
        self.queue = SeekQueue(clock, blocked=self.blocks)
        self.challenges = ChallengeDesk(self)
        self.rated = RatedGames(host, self.wall, self.others)

    def _store(self) -> Store:
        return self.host.store

    def blocks(self, a: str, b: str) -> bool:
        """Whether the player of identity `a` blocks that of `b` (people's blocking)."""
        return PeopleRecords(self._store()).blocks(a, b)

    @property
    def shared(self) -> bool:
        """Whether other servers may share the store (and so the seeks and challenges)."""
        return self.others.shared

    def _seeks(self) -> SeekRecords:
        return SeekRecords(self._store(), self.host.server)

    def started(self) -> None:
        """Open challenges back from the store; with other servers, the bus heard."""
        self.challenges.started()
        if self.shared:
            self._seeks().clear()  # this server's seekers of before a restart are gone
            self.host.bus.on("matching.tell", self._heard_tell)
            self.host.bus.on("matching.paired", self._heard_paired)

    # ---- clients ------------------------------------------------------------------

    def arrived(self, client: Client) -> None:
        """Every identity that logs in is a player of the community (ratings, challenges
        while away); the challenges waiting for it are shown."""
        try:
            PlayerRecords(self._store()).player(client.key, client.name)
        except StoreError as error:  # a newcomer then has no rating yet; play goes on
            log.warning("client %s: not kept as a player: %s", client.who, error)
        self.challenges.tell_challenges(client.key, told=True)  # nothing changed for other servers

    def departed(self, client: Client) -> None:
        """A client is gone: when it was the player's last, their seek goes, and their
        live challenges unless they are online on another server."""
        if bool(self.host.clients.of(client.key)):
            return
        self._cancel_seek(client.key)
        if self.shared and client.key in self.others.online():
            return
        self.challenges.left(client)

    def clients_of(self, key: str) -> list[Client]:
        """This player's connections to this server (not those relayed from another
        server into a room here: seeks and challenges are their own server's to tell)."""
        return [c for c in self.host.clients.of(key) if not c.relayed]

    def online(self, key: str) -> bool:
        """Whether the player of this identity is online here or on another server."""
        return bool(self.clients_of(key)) or (self.shared and key in self.others.online())

    def tell(self, key: str, text: str) -> None:
        for client in self.clients_of(key):
            client.send(Notice(text))
        if self.shared:
            self.host.bus.broadcast("matching.tell", {"key": key, "text": text})

    def _heard_tell(self, body: dict[str, Any], sender: str) -> None:
        for client in self.clients_of(str(body["key"])):
            client.send(Notice(str(body["text"])))

    def _playing(self, key: str) -> Room | None:
        """The room where this player has a seat in a game under way played at one
        sitting, if any (correspondence games go on beside anything else)."""
        return next(
            (
                r
                for r in self.host.rooms.values()
                if r.under_way
                and r.seat_of(key) is not None
                and (r.control is None or not r.control.correspondence)
            ),
            None,
        )

    # ---- automatch ----------------------------------------------------------------

    def _playing_anywhere(self, key: str) -> bool:
        """`_playing` on this server, or on another (as the store keeps its rooms)."""
        if self._playing(key) is not None:
            return True
        if not self.shared:
            return False
        try:
            return self._seeks().playing(key)
        except StoreError as error:
            log.warning("whether %s plays elsewhere is not known: %s", key, error)
            return False

    def _seated(self, key: str) -> bool:
        """Whether this player has a seat in a game of one sitting that is on here, with
        both seats taken, moved in or not (paired, a challenge accepted): no seek then."""
        return any(
            r.on
            and r.seat_of(key) is not None
            and (r.control is None or not r.control.correspondence)
            for r in self.host.rooms.values()
        )

    def seek(self, client: Client, text: str) -> None:
        control = self.control(text)
        if self._playing_anywhere(client.key) or self._seated(client.key):
            raise Refused("Finish your game first: you have a seat in a game under way.")
        rating = self.rated.standing(client.key, client.name, control).rating
        seek = self.queue.seek(client.key, client.name, rating.r, control.text)
        if self.shared:
            try:  # the wait as the servers count it: Unix seconds
                waited = self.queue.waited(seek)
                self._seeks().keep(
                    Sought(seek.key, seek.name, seek.rating, seek.control, self.wall() - waited)
                )
            except StoreError as error:
                self.queue.cancel(client.key)
                raise Refused(f"The server cannot look for a game now: {error}") from None
        log.info("%s seeks a %s game", client.who, control.text)
        self.tick()

    def unseek(self, client: Client) -> None:
        self._stop_seeking(client.key)

    def _cancel_seek(self, key: str) -> None:
        self.queue.cancel(key)
        if self.shared:
            try:
                self._seeks().cancel(key)
            except StoreError as error:  # it is paired no more: its server is not live
                log.warning("the seek of %s stays in the store: %s", key, error)

    def _stop_seeking(self, key: str) -> None:
        """The player's seek is over (found, stopped, or they sat down elsewhere)."""
        self._cancel_seek(key)
        for client in self.clients_of(key):
            client.send(Seeking(None))

    def tick(self) -> None:
        """Pair whom the rules allow, let challenges expire, tell seekers how they wait."""
        self.challenges.expire()
        for seek in list(self.queue.seeks.values()):
            gone = not self.clients_of(seek.key)
            if gone or self._playing_anywhere(seek.key) or self._seated(seek.key):
                self._stop_seeking(seek.key)
        most = max(0, self.host.limits.rooms - len(self.host.rooms))
        found = self._pair(most)
        if found is None:
            return
        pairings, waiting = found
        for pairing in pairings:
            first, second = pairing.first, pairing.second
            for key in (first.key, second.key):
                self._stop_seeking(key)
            if self.shared:  # their servers tell them, before the summons comes
                self.host.bus.broadcast("matching.paired", {"keys": [first.key, second.key]})
            control = TimeControl.parse(str(first.control))
            log.info("automatch: %s and %s, %s", first.name, second.name, control.text)
            self.open_room((first.key, first.name), (second.key, second.name), control, rated=True)
        for seek in list(self.queue.seeks.values()):
            if seek.key not in waiting.seeks:  # paired by another server
                self._stop_seeking(seek.key)
                continue
            count = len(waiting.others_for(seek))  # a blocked seeker will never be met
            message = Seeking(
                str(seek.control), self.queue.widening.words(self.queue.waited(seek)), count
            )
            for client in self.clients_of(seek.key):
                client.send(message)

    def _heard_paired(self, body: dict[str, Any], sender: str) -> None:
        """Another server paired these players: the seeks of those here are over."""
        for key in body.get("keys", ()):
            if key in self.queue.seeks:
                self._stop_seeking(str(key))

    def _pair(self, most: int) -> tuple[list[Pairing], SeekQueue] | None:
        """The pairings made now (at most `most`) and the queue still waiting: this
        server's queue, or every live server's seeks in the store (None: the store
        failed, so nobody is paired this time)."""
        if not self.shared:
            return self.queue.pair(most), self.queue
        try:
            live = set(self.host.leasing.records.live()) | {self.host.server}
            return self._seeks().pair(live, self.wall, self.blocks, most, self.queue.widening)
        except StoreError as error:
            log.warning("automatch could not pair: %s", error)
            return None

    @staticmethod
    def control(text: str) -> TimeControl:
        try:
            return TimeControl.parse(text)
        except ValueError as error:
            raise Refused(str(error)) from None

    # ---- the rooms of paired games --------------------------------------------------

    def full(self) -> str | None:
        """Why no room can be opened now (the server has its rooms), or None."""
        most = self.host.limits.rooms
        return (
            f"The server has its {most} rooms: try again later."
            if len(self.host.rooms) >= most
            else None
        )

    def open_room(
        self, first: tuple[str, str], second: tuple[str, str], control: TimeControl, *, rated: bool
    ) -> Room:
        """A room for two, colours drawn, and both players' clients in the lobby sent there."""
        host = self.host
        taken = {seat.code for room in host.rooms.values() for seat in room.seats}
        people = [first, second]
        if secrets.randbelow(2):
            people.reverse()
        seats = []
        for key, name in people:
            code = new_code(lambda code: code in taken)
            taken.add(code)
            address = next((c.address for c in self.clients_of(key)), "")
            seats.append(Seat(key, name, code=code, address=address))
        number = host.leasing.new_number()
        code = new_code(lambda code: any(r.code == code for r in host.rooms.values()))
        start = Position.start(7, 6, 4)
        name = new_game_name(number)
        room = Room(number, code, Game(start), seats, name=name, control=control, rated=rated)
        if rated:
            self.rated.keep_terms(room.name, control)
        host.rooms[number] = room
        self.queue.played(first[0], second[0])  # a challenge's game is their last one too
        for index, (key, _) in enumerate(people):
            if is_bot_key(key):
                continue  # a bot follows its game by its game's stream (server/desks/bots.py)
            for client in self.clients_of(key):
                if client.room is None or self._playing(key) is None:
                    host.leave(client)
                    host.enter(client, room, index)
        host.changed(room)
        if self.shared and number in host.rooms:
            try:  # automatch's pairings keep theirs as they pair
                self._seeks().played(first[0], second[0])
            except StoreError as error:
                log.warning("room %d: who met whom not kept: %s", number, error)
            for key, _ in people:  # their connections to other servers, through this one
                if not is_bot_key(key) and not self._playing_anywhere(key):  # nor a game under way
                    host.summon(key, number)
        return room
