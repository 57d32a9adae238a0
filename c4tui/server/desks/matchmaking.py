"""Matchmaking: automatch and challenges in the room service, and the rated games they open.

The room service keeps one `Matchmaking` (requests.py's `matching`), which hands it
what clients ask (seek, challenge, answer, cancel); the host tells it when a client
comes or goes, and calls `tick` once a second: that
pairs the seekers (community/automatch.py), lets challenges expire, and tells each
seeker the range their seek has widened to.

A pairing or an accepted challenge opens a room of its own for the two, with the time
control they chose, rated or casual (an automatch game is rated), and seats them there;
colours are drawn. What a rated game moves when it ends (the ratings, the leaderboard)
is rated_games.py's (`Matchmaking.rated`). Players are identity keys here, as in the
rooms' seats.

Several servers on one database (PostgreSQL) match their players together. Seeks are
rows in the store (server/store/seek_records.py), and any server's tick pairs them, under
a lock, so each is paired once; the pairing server opens the room (it holds its lease)
and summons both players (`RoomHost.summon`: a player on another server plays through
it). The challenge book is the store's (challenge_records.py), changed under its lock,
so a challenge is numbered once and answered once; the players online on the other
servers (server/rooms/other_servers.py) can be challenged, and what they are told goes over the
bus ("matching.tell", "matching.challenges"). The answering server opens the room. On
one server (SQLite) the seeks and the book are this object's own, in memory, as always.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from c4tui.community.automatch import Pairing, SeekQueue
from c4tui.community.automatch import Seek as Sought
from c4tui.community.bot_tokens import is_bot_key
from c4tui.community.challenges import Challenge, ChallengeBook, ChallengeRefused
from c4tui.community.clocks import TimeControl
from c4tui.engine.board.game import Game
from c4tui.engine.board.position import Position
from c4tui.server.desks.rated_games import RatedGames
from c4tui.server.rooms.access import new_code
from c4tui.server.rooms.audience import Client
from c4tui.server.rooms.hooks import HostListener, Refused
from c4tui.server.rooms.host import RoomHost
from c4tui.server.rooms.keeping import new_game_name
from c4tui.server.rooms.other_servers import OtherServers
from c4tui.server.rooms.room import Room, Seat
from c4tui.server.store.challenge_records import ChallengeRecords
from c4tui.server.store.people_records import PeopleRecords
from c4tui.server.store.player_records import PlayerRecords
from c4tui.server.store.profiles import ProfileRecords
from c4tui.server.store.seek_records import SeekRecords
from c4tui.server.store.store import Store, StoreError
from c4tui.server.wire.protocol import (
    ChallengeListed,
    Challenges,
    Notice,
    Seeking,
)

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
        self.queue = SeekQueue(clock, blocked=self._blocks)
        self.book = ChallengeBook(self.wall, blocked=self._blocks)
        self.rated = RatedGames(host, self.wall, self.others)

    def _store(self) -> Store:
        return self.host.store

    def _blocks(self, a: str, b: str) -> bool:
        """Whether the player of identity `a` blocks that of `b` (people's blocking)."""
        return PeopleRecords(self._store()).blocks(a, b)

    @property
    def shared(self) -> bool:
        """Whether other servers may share the store (and so the seeks and challenges)."""
        return self.others.shared

    def _seeks(self) -> SeekRecords:
        return SeekRecords(self._store(), self.host.server)

    def started(self) -> None:
        """Open challenges back from the store."""
        for challenge in ChallengeRecords(self._store()).load():
            self.book.restore(challenge)
        if self.shared:
            self._seeks().clear()  # this server's seekers of before a restart are gone
            self.host.bus.on("matching.tell", self._heard_tell)
            self.host.bus.on("matching.challenges", self._heard_challenges)
            self.host.bus.on("matching.paired", self._heard_paired)

    # ---- clients ------------------------------------------------------------------

    def arrived(self, client: Client) -> None:
        """Every identity that logs in is a player of the community (ratings, challenges
        while away); the challenges waiting for it are shown."""
        try:
            PlayerRecords(self._store()).player(client.key, client.name)
        except StoreError as error:  # a newcomer then has no rating yet; play goes on
            log.warning("client %s: not kept as a player: %s", client.who, error)
        self._tell_challenges(client.key, told=True)  # nothing changed for other servers

    def departed(self, client: Client) -> None:
        """A client is gone: when it was the player's last, their seek goes, and their
        live challenges unless they are online on another server."""
        if bool(self.host.clients.of(client.key)):
            return
        self._cancel_seek(client.key)
        if self.shared and client.key in self.others.online():
            return
        try:
            with self._challenges():
                gone = self.book.left(client.key)
                self._forget(*gone)
        except Refused:
            return  # the store failed: they expire at a tick
        for challenge in gone:
            other = (
                challenge.opponent if challenge.challenger == client.key else challenge.challenger
            )
            self._tell(other, f"{client.name} left: the challenge is off.")
            self._tell_challenges(other)

    def _clients(self, key: str) -> list[Client]:
        """This player's connections to this server (not those relayed from another
        server into a room here: seeks and challenges are their own server's to tell)."""
        return [c for c in self.host.clients.of(key) if not c.relayed]

    def _online(self, key: str) -> bool:
        """Whether the player of this identity is online here or on another server."""
        return bool(self._clients(key)) or (self.shared and key in self.others.online())

    def _tell(self, key: str, text: str) -> None:
        for client in self._clients(key):
            client.send(Notice(text))
        if self.shared:
            self.host.bus.broadcast("matching.tell", {"key": key, "text": text})

    def _heard_tell(self, body: dict[str, Any], sender: str) -> None:
        for client in self._clients(str(body["key"])):
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
        control = self._control(text)
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
        for client in self._clients(key):
            client.send(Seeking(None))

    def tick(self) -> None:
        """Pair whom the rules allow, let challenges expire, tell seekers how they wait."""
        self._expire_challenges()
        for seek in list(self.queue.seeks.values()):
            gone = not self._clients(seek.key)
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
            self._open_room((first.key, first.name), (second.key, second.name), control, rated=True)
        for seek in list(self.queue.seeks.values()):
            if seek.key not in waiting.seeks:  # paired by another server
                self._stop_seeking(seek.key)
                continue
            count = len(waiting.others_for(seek))  # a blocked seeker will never be met
            message = Seeking(
                str(seek.control), self.queue.widening.words(self.queue.waited(seek)), count
            )
            for client in self._clients(seek.key):
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
            return self._seeks().pair(live, self.wall, self._blocks, most, self.queue.widening)
        except StoreError as error:
            log.warning("automatch could not pair: %s", error)
            return None

    @staticmethod
    def _control(text: str) -> TimeControl:
        try:
            return TimeControl.parse(text)
        except ValueError as error:
            raise Refused(str(error)) from None

    # ---- challenges ---------------------------------------------------------------

    def challenge(self, client: Client, name: str, text: str, rated: bool) -> None:
        control = self._control(text)
        folded = name.strip().casefold()
        online = [(c.key, c.name) for c in self.host.clients if c.name.casefold() == folded]
        if not online and self.shared:
            online = [(k, n) for k, n in self.others.online().items() if n.casefold() == folded]
        found = online[0] if online else self._player_away(name.strip())
        try:
            with self._challenges():
                challenge = self.book.make(
                    (client.key, client.name),
                    found,
                    control.text,
                    rated=rated,
                    correspondence=control.correspondence,
                    opponent_online=bool(online),
                )
                if challenge.correspondence or self.shared:
                    ChallengeRecords(self._store()).keep(challenge)
        except ChallengeRefused as error:
            raise Refused(str(error)) from None
        log.info("%s challenges %s (%s)", client.who, challenge.opponent_name, control.text)
        self._tell(
            challenge.opponent,
            f"{client.name} challenges you: {challenge.terms()}.",
        )
        self._tell_challenges(challenge.opponent)
        self._tell_challenges(client.key)

    def _player_away(self, name: str) -> tuple[str, str]:
        """An identity and the name of a player who is not online: whom the name stands
        for (profiles.py), else the player who last logged in under it."""
        store = self._store()
        profiles = ProfileRecords(store)
        player = profiles.player_named(name)
        if player is None:
            player = store.value("SELECT id FROM players WHERE name = ? ORDER BY id DESC", (name,))
        keys = [] if player is None else profiles.keys(int(player))
        if player is None or not keys:
            raise Refused(f"No player here is called {name[:20]}.")
        return keys[-1], profiles.name_of(int(player))

    def answer(self, client: Client, number: int, accept: bool) -> None:
        book = self.book
        full = self._full()
        if accept and full is not None:
            raise Refused(full)
        try:
            with self._challenges():
                challenge = (
                    book.accept(number, client.key) if accept else book.decline(number, client.key)
                )
                self._forget(challenge)
        except ChallengeRefused as error:
            raise Refused(str(error)) from None
        challenger = (challenge.challenger, challenge.challenger_name)
        if not accept:
            self._tell(challenge.challenger, f"{client.name} declines your challenge.")
        elif not challenge.correspondence and not self._online(challenge.challenger):
            self._tell_challenges(client.key)
            raise Refused(f"{challenge.challenger_name} has left: the challenge is off.")
        else:
            control = TimeControl.parse(challenge.control)
            self._open_room(challenger, (client.key, client.name), control, rated=challenge.rated)
        self._tell_challenges(challenge.challenger)
        self._tell_challenges(client.key)

    def cancel(self, client: Client, number: int) -> None:
        try:
            with self._challenges():
                challenge = self.book.cancel(number, client.key)
                self._forget(challenge)
        except ChallengeRefused as error:
            raise Refused(str(error)) from None
        self._tell(challenge.opponent, f"{client.name} took back the challenge.")
        self._tell_challenges(challenge.opponent)
        self._tell_challenges(client.key)

    def _forget(self, *challenges: Challenge) -> None:
        """Challenges out of the book go from the store too (on several servers, in the
        transaction of `_challenges`, whose failure undoes the change)."""
        for challenge in challenges:
            if self.shared:
                ChallengeRecords(self._store()).forget(challenge.id)
            elif challenge.correspondence:
                try:
                    ChallengeRecords(self._store()).forget(challenge.id)
                except StoreError as error:  # it comes back after a restart, and expires then
                    log.warning("challenge %d not forgotten: %s", challenge.id, error)

    @contextmanager
    def _challenges(self) -> Iterator[None]:
        """Change the challenge book: this server's own, or, with other servers, the
        store's, read under its lock and written in the same transaction (Refused when
        the store fails: nothing is changed)."""
        if not self.shared:
            yield
            return
        try:
            with ChallengeRecords(self._store()).locked() as found:
                self.book.open = {challenge.id: challenge for challenge in found}
                yield
        except StoreError as error:
            log.warning("the challenges could not be changed: %s", error)
            raise Refused("The server cannot keep challenges just now: try again soon.") from None

    def _expire_challenges(self) -> None:
        """Challenges whose time is up go; with other servers, so do live ones whose
        players are online on no server (one died), and the book is read again: this
        server's players whose challenges another server changed are told, should the
        bus have lost the word. The lock is taken only when some challenge is to go."""
        before = dict(self.book.open)
        if self.shared:
            try:
                self.book.open = {c.id: c for c in ChallengeRecords(self._store()).load()}
            except StoreError as error:
                log.warning("the challenges could not be read: %s", error)
                return
        changed = set(before.items()) ^ set(self.book.open.items())
        gone: list[Challenge] = []
        if self._to_go():
            try:
                with self._challenges():
                    gone = self._to_go()
                    for challenge in gone:
                        del self.book.open[challenge.id]
                    self._forget(*gone)
            except Refused:
                return
        for challenge in gone:
            for key in (challenge.challenger, challenge.opponent):
                self._tell_challenges(key)
        for key in {key for _, c in changed for key in (c.challenger, c.opponent)}:
            self._tell_challenges(key, told=True)

    def _to_go(self) -> list[Challenge]:
        """The open challenges to go now: their time is up, or (with other servers) they
        are for a game now and one of their players is online on no server."""
        gone = self.book.expired()
        if self.shared:
            gone += [
                c
                for c in self.book.open.values()
                if not c.correspondence
                and c not in gone
                and not (self._online(c.challenger) and self._online(c.opponent))
            ]
        return gone

    def _heard_challenges(self, body: dict[str, Any], sender: str) -> None:
        """Another server changed the challenges of these players: read them, tell them."""
        try:
            self.book.open = {c.id: c for c in ChallengeRecords(self._store()).load()}
        except StoreError as error:
            log.warning("the challenges could not be read: %s", error)
            return
        for key in body.get("keys", ()):
            self._tell_challenges(str(key), told=True)

    def _tell_challenges(self, key: str, *, told: bool = False) -> None:
        """Tell this player their challenges (`told` False: on the other servers too)."""
        if self.shared and not told:
            self.host.bus.broadcast("matching.challenges", {"keys": [key]})
        clients = self._clients(key)
        if not clients:
            return
        now = self.wall()

        def listed(challenge: Challenge, name: str) -> ChallengeListed:
            return ChallengeListed(
                challenge.id,
                name,
                challenge.control,
                challenge.rated,
                challenge.correspondence,
                max(0.0, challenge.expires - now),
            )

        message = Challenges(
            tuple(listed(c, c.challenger_name) for c in self.book.made_to(key)),
            tuple(listed(c, c.opponent_name) for c in self.book.made_by(key)),
        )
        for client in clients:
            client.send(message)

    # ---- the rooms of paired games --------------------------------------------------

    def _full(self) -> str | None:
        """Why no room can be opened now (the server has its rooms), or None."""
        most = self.host.limits.rooms
        return (
            f"The server has its {most} rooms: try again later."
            if len(self.host.rooms) >= most
            else None
        )

    def _open_room(
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
            address = next((c.address for c in self._clients(key)), "")
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
            for client in self._clients(key):
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
