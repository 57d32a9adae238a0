"""Matchmaking: automatch, challenges and rated games in the room service.

The RoomHost keeps one `Matchmaking` (`host.matching`). requests.py hands it what
clients ask (seek, challenge, answer, cancel, the leaderboard); the host tells it when
a client comes or goes and when a room changes, and calls `tick` once a second: that
pairs the seekers (community/automatch.py), lets challenges expire, and tells each
seeker the range their seek has widened to.

A pairing or an accepted challenge opens a room of its own for the two, with the time
control they chose, rated or casual (an automatch game is rated), and seats them there;
colours are drawn. When a rated game ends its players' ratings move at once (people's
Glicko-2, community/glicko2.py, through rating_records.py), and everyone in the lobby
gets the new leaderboard. Players are identity keys here, as in the rooms' seats.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable

from c4tui.community.automatch import SeekQueue
from c4tui.community.challenge_records import ChallengeRecords
from c4tui.community.challenges import Challenge, ChallengeBook, ChallengeRefused
from c4tui.community.clocks import RATING_CLASSES, TimeControl
from c4tui.community.endings import changes_ratings
from c4tui.community.people_records import PeopleRecords
from c4tui.community.player_records import PlayerRecords
from c4tui.community.profiles import ProfileRecords
from c4tui.community.rating_records import RatingRecords, Standing
from c4tui.community.store import Store, StoreError
from c4tui.engine.board.game import Game
from c4tui.engine.board.position import Position
from c4tui.rooms.access import new_code
from c4tui.rooms.host import Client, HostListener, Refused, RoomHost
from c4tui.rooms.keeping import new_game_name
from c4tui.rooms.protocol import (
    ChallengeListed,
    Challenges,
    Leaderboard,
    Notice,
    Ranked,
    RatingClassListed,
    Seeking,
)
from c4tui.rooms.room import Room, Seat

log = logging.getLogger("c4tui.rooms")


class Matchmaking(HostListener):
    """Seeks, challenges and rated games of one RoomHost (see the module docstring)."""

    def __init__(
        self,
        host: RoomHost,
        *,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.host = host
        self.wall = wall
        self.queue = SeekQueue(clock, blocked=self._blocks)
        self.book = ChallengeBook(wall, blocked=self._blocks)
        self._rated: set[str] = set()  # names of rated games that have ended
        self._terms: set[str] = set()  # names of rated games whose terms are kept

    def _store(self) -> Store:
        return self.host.store

    def _blocks(self, a: str, b: str) -> bool:
        """Whether the player of identity `a` blocks that of `b` (people's blocking)."""
        return PeopleRecords(self._store()).blocks(a, b)

    @property
    def ratings(self) -> RatingRecords:
        return RatingRecords(self._store())

    def started(self) -> None:
        """Open challenges back from the store; the rooms' rated games as they were."""
        for challenge in ChallengeRecords(self._store()).load():
            self.book.restore(challenge)
        for room in self.host.rooms.values():
            terms = self.ratings.terms(room.name)
            room.rated = terms is not None and terms.rated
            if room.rated:
                self._terms.add(room.name)
            if terms is not None and terms.applied:
                self._rated.add(room.name)

    # ---- clients ------------------------------------------------------------------

    def arrived(self, client: Client) -> None:
        """Every identity that logs in is a player of the community (ratings, challenges
        while away); the challenges waiting for it are shown."""
        try:
            PlayerRecords(self._store()).player(client.key, client.name)
        except StoreError as error:  # a newcomer then has no rating yet; play goes on
            log.warning("client %s: not kept as a player: %s", client.who, error)
        self._tell_challenges(client.key)

    def departed(self, client: Client) -> None:
        """A client is gone: when it was the player's last, their seek and live challenges go."""
        if any(c.key == client.key for c in self.host.clients):
            return
        self.queue.cancel(client.key)
        for challenge in self.book.left(client.key):
            self._forget(challenge)
            other = (
                challenge.opponent if challenge.challenger == client.key else challenge.challenger
            )
            self._tell(other, f"{client.name} left: the challenge is off.")
            self._tell_challenges(other)

    def _clients(self, key: str) -> list[Client]:
        return [c for c in self.host.clients if c.key == key]

    def _tell(self, key: str, text: str) -> None:
        for client in self._clients(key):
            client.send(Notice(text))

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

    def seek(self, client: Client, text: str) -> None:
        control = self._control(text)
        if self._playing(client.key) is not None:
            raise Refused("Finish your game first: you have a seat in a game under way.")
        rating = self._standing(client.key, client.name, control).rating
        self.queue.seek(client.key, client.name, rating.r, control.text)
        log.info("%s seeks a %s game", client.who, control.text)
        self.tick()

    def unseek(self, client: Client) -> None:
        self._stop_seeking(client.key)

    def _stop_seeking(self, key: str) -> None:
        """The player's seek is over (found, stopped, or they sat down elsewhere)."""
        self.queue.cancel(key)
        for client in self._clients(key):
            client.send(Seeking(None))

    def tick(self) -> None:
        """Pair whom the rules allow, let challenges expire, tell seekers how they wait."""
        for challenge in self.book.expire():
            self._forget(challenge)
            for key in (challenge.challenger, challenge.opponent):
                self._tell_challenges(key)
        for seek in list(self.queue.seeks.values()):
            if not self._clients(seek.key) or self._playing(seek.key) is not None:
                self._stop_seeking(seek.key)
        for pairing in self.queue.pair(max(0, self.host.limits.rooms - len(self.host.rooms))):
            first, second = pairing.first, pairing.second
            for key in (first.key, second.key):
                self._stop_seeking(key)
            control = TimeControl.parse(str(first.control))
            log.info("automatch: %s and %s, %s", first.name, second.name, control.text)
            self._open_room((first.key, first.name), (second.key, second.name), control, rated=True)
        for seek in self.queue.seeks.values():
            waiting = len(self.queue.waiting(seek.control)) - 1
            message = Seeking(
                str(seek.control), self.queue.widening.words(self.queue.waited(seek)), waiting
            )
            for client in self._clients(seek.key):
                client.send(message)

    @staticmethod
    def _control(text: str) -> TimeControl:
        try:
            return TimeControl.parse(text)
        except ValueError as error:
            raise Refused(str(error)) from None

    # ---- challenges ---------------------------------------------------------------

    def challenge(self, client: Client, name: str, text: str, rated: bool) -> None:
        control = self._control(text)
        online = [c for c in self.host.clients if c.name.casefold() == name.strip().casefold()]
        found = (online[0].key, online[0].name) if online else self._player_away(name.strip())
        try:
            challenge = self.book.make(
                (client.key, client.name),
                found,
                control.text,
                rated=rated,
                correspondence=control.correspondence,
                opponent_online=bool(online),
            )
        except ChallengeRefused as error:
            raise Refused(str(error)) from None
        if challenge.correspondence:
            ChallengeRecords(self._store()).keep(challenge)
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
            challenge = (
                book.accept(number, client.key) if accept else book.decline(number, client.key)
            )
        except ChallengeRefused as error:
            raise Refused(str(error)) from None
        self._forget(challenge)
        challenger = (challenge.challenger, challenge.challenger_name)
        if not accept:
            self._tell(challenge.challenger, f"{client.name} declines your challenge.")
        elif not challenge.correspondence and not self._clients(challenge.challenger):
            self._tell_challenges(client.key)
            raise Refused(f"{challenge.challenger_name} has left: the challenge is off.")
        else:
            control = TimeControl.parse(challenge.control)
            self._open_room(challenger, (client.key, client.name), control, rated=challenge.rated)
        self._tell_challenges(challenge.challenger)
        self._tell_challenges(client.key)

    def cancel(self, client: Client, number: int) -> None:
        try:
            challenge = self.book.cancel(number, client.key)
        except ChallengeRefused as error:
            raise Refused(str(error)) from None
        self._forget(challenge)
        self._tell(challenge.opponent, f"{client.name} took back the challenge.")
        self._tell_challenges(challenge.opponent)
        self._tell_challenges(client.key)

    def _forget(self, challenge: Challenge) -> None:
        if challenge.correspondence:
            try:
                ChallengeRecords(self._store()).forget(challenge.id)
            except StoreError as error:  # it comes back after a restart, and expires then
                log.warning("challenge %d not forgotten: %s", challenge.id, error)

    def _tell_challenges(self, key: str) -> None:
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
        number = host.new_number()
        code = new_code(lambda code: any(r.code == code for r in host.rooms.values()))
        start = Position.start(7, 6, 4)
        name = new_game_name(number)
        room = Room(number, code, Game(start), seats, name=name, control=control, rated=rated)
        if rated:
            self.ratings.set_terms(room.name, control.rating_class, rated=True)
            self._terms.add(room.name)
        host.rooms[number] = room
        self.queue.played(first[0], second[0])  # a challenge's game is their last one too
        for index, (key, _) in enumerate(people):
            for client in self._clients(key):
                if client.room is None or self._playing(key) is None:
                    host.leave(client)
                    host.enter(client, room, index)
        host.changed(room)
        return room

    # ---- rated games ---------------------------------------------------------------

    def changed(self, room: Room) -> None:
        """A room changed: a rated game that has just ended moves its players' ratings; a
        rematch in a rated room is rated too (its terms are kept as it begins)."""
        if not room.rated or room.name in self._rated:
            return
        if not room.over:
            if room.name not in self._terms and room.control is not None:
                self.ratings.set_terms(room.name, room.control.rating_class, rated=True)
                self._terms.add(room.name)
            return
        self._rated.add(room.name)
        if not changes_ratings(room.ending) or any(seat.key is None for seat in room.seats):
            return
        winner = room.winner if room.ended is not None else room.position.winner()
        score = 0.5 if winner is None else float(winner == 0)
        players = PlayerRecords(self._store())
        ids = tuple(players.player(seat.key or "", seat.name) for seat in room.seats)
        ratings = self.ratings
        try:
            terms = ratings.terms(room.name)
            if terms is None:
                return
            before = [ratings.standing(player, terms.rating_class).rating for player in ids]
            new = ratings.rate(room.name, (ids[0], ids[1]), score, self.wall())
        except StoreError as error:
            log.warning("room %d: the ratings could not be kept: %s", room.number, error)
            return
        if new is None:
            return
        changes = ", ".join(
            f"{seat.name} {after.r:.0f} ({after.r - old.r:+.0f})"
            for seat, old, after in zip(room.seats, before, new, strict=True)
        )
        self.host.tell(room, f"Ratings: {changes}.")
        leaderboard = self.leaderboard()
        for client in self.host.clients:
            client.send(leaderboard)

    def _standing(self, key: str, name: str, control: TimeControl) -> Standing:
        player = PlayerRecords(self._store()).player(key, name)
        return self.ratings.standing(player, control.rating_class)

    # ---- the leaderboard -------------------------------------------------------------

    def leaderboard(self) -> Leaderboard:
        ratings = self.ratings
        classes = []
        for name in RATING_CLASSES:
            top = ratings.leaderboard(name)
            players = tuple(
                Ranked(r.name, round(r.rating.r), round(r.rating.rd), r.provisional, r.games)
                for r in top
            )
            classes.append(RatingClassListed(name, players))
        return Leaderboard(tuple(classes))
