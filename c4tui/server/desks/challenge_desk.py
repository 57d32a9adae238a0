"""ChallengeDesk: challenges between people, from one to another, answered or gone.

A player challenges another by name (`challenge`), with a time control, rated or not;
the other accepts or declines (`answer`), the challenger may take it back (`cancel`).
A challenge for a game now goes when its time is up, or when either player leaves
every server; one by post waits for its player to log in. The rules, numbers and
expiry are the community's (community/challenges.py). Accepted, matchmaking opens the
room for the two (`Matching.open_room`).

Several servers on one database: the challenge book is the store's
(challenge_records.py), changed under its lock, so a challenge is numbered once and
answered once; the players online on the other servers can be challenged, and what they
are told goes over the bus ("matching.tell", "matching.challenges"). On one server
(SQLite) the book is this desk's own, in memory. Matchmaking (matchmaking.py) holds
one, as `challenges`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from c4tui.community.challenges import Challenge, ChallengeBook, ChallengeRefused
from c4tui.community.clocks import TimeControl
from c4tui.server.rooms.audience import Client
from c4tui.server.rooms.hooks import Refused
from c4tui.server.rooms.host import RoomHost
from c4tui.server.rooms.other_servers import OtherServers
from c4tui.server.rooms.room import Room
from c4tui.server.store.challenge_records import ChallengeRecords
from c4tui.server.store.profiles import ProfileRecords
from c4tui.server.store.store import StoreError
from c4tui.server.wire.matchmaking_messages import ChallengeListed, Challenges

log = logging.getLogger("c4tui.server")


class Matching(Protocol):
    """What the challenges ask of matchmaking: its host and the other servers, who is
    online where, a word to a player, and a room for two."""

    host: RoomHost
    others: OtherServers
    wall: Callable[[], float]

    @property
    def shared(self) -> bool: ...
    def blocks(self, a: str, b: str) -> bool: ...
    def clients_of(self, key: str) -> list[Client]: ...
    def online(self, key: str) -> bool: ...
    def tell(self, key: str, text: str) -> None: ...
    def full(self) -> str | None: ...
    def control(self, text: str) -> TimeControl: ...
    def open_room(
        self, first: tuple[str, str], second: tuple[str, str], control: TimeControl, *, rated: bool
    ) -> Room: ...


class ChallengeDesk:
    """The challenges of one Matchmaking (see the module docstring)."""

    def __init__(self, matching: Matching) -> None:
        self.matching = matching
        self.book = ChallengeBook(matching.wall, blocked=matching.blocks)

    def started(self) -> None:
        """Open challenges back from the store; other servers' changes heard."""
        for challenge in ChallengeRecords(self.matching.host.store).load():
            self.book.restore(challenge)
        if self.matching.shared:
            self.matching.host.bus.on("matching.challenges", self._heard_challenges)

    def left(self, client: Client) -> None:
        """The player of `client` is online on no server now: their challenges for a
        game now go, and the other players are told."""
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
            self.matching.tell(other, f"{client.name} left: the challenge is off.")
            self.tell_challenges(other)

    def challenge(self, client: Client, name: str, text: str, rated: bool) -> None:
        control = self.matching.control(text)
        folded = name.strip().casefold()
        online = [
            (c.key, c.name) for c in self.matching.host.clients if c.name.casefold() == folded
        ]
        if not online and self.matching.shared:
            online = [
                (k, n) for k, n in self.matching.others.online().items() if n.casefold() == folded
            ]
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
                if challenge.correspondence or self.matching.shared:
                    ChallengeRecords(self.matching.host.store).keep(challenge)
        except ChallengeRefused as error:
            raise Refused(str(error)) from None
        log.info("%s challenges %s (%s)", client.who, challenge.opponent_name, control.text)
        self.matching.tell(
            challenge.opponent,
            f"{client.name} challenges you: {challenge.terms()}.",
        )
        self.tell_challenges(challenge.opponent)
        self.tell_challenges(client.key)

    def _player_away(self, name: str) -> tuple[str, str]:
        """An identity and the name of a player who is not online: whom the name stands
        for (profiles.py), else the player who last logged in under it."""
        store = self.matching.host.store
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
        full = self.matching.full()
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
            self.matching.tell(challenge.challenger, f"{client.name} declines your challenge.")
        elif not challenge.correspondence and not self.matching.online(challenge.challenger):
            self.tell_challenges(client.key)
            raise Refused(f"{challenge.challenger_name} has left: the challenge is off.")
        else:
            control = TimeControl.parse(challenge.control)
            self.matching.open_room(
                challenger, (client.key, client.name), control, rated=challenge.rated
            )
        self.tell_challenges(challenge.challenger)
        self.tell_challenges(client.key)

    def cancel(self, client: Client, number: int) -> None:
        try:
            with self._challenges():
                challenge = self.book.cancel(number, client.key)
                self._forget(challenge)
        except ChallengeRefused as error:
            raise Refused(str(error)) from None
        self.matching.tell(challenge.opponent, f"{client.name} took back the challenge.")
        self.tell_challenges(challenge.opponent)
        self.tell_challenges(client.key)

    def _forget(self, *challenges: Challenge) -> None:
        """Challenges out of the book go from the store too (on several servers, in the
        transaction of `_challenges`, whose failure undoes the change)."""
        for challenge in challenges:
            if self.matching.shared:
                ChallengeRecords(self.matching.host.store).forget(challenge.id)
            elif challenge.correspondence:
                try:
                    ChallengeRecords(self.matching.host.store).forget(challenge.id)
                except StoreError as error:  # it comes back after a restart, and expires then
                    log.warning("challenge %d not forgotten: %s", challenge.id, error)

    @contextmanager
    def _challenges(self) -> Iterator[None]:
        """Change the challenge book: this server's own, or, with other servers, the
        store's, read under its lock and written in the same transaction (Refused when
        the store fails: nothing is changed)."""
        if not self.matching.shared:
            yield
            return
        try:
            with ChallengeRecords(self.matching.host.store).locked() as found:
                self.book.open = {challenge.id: challenge for challenge in found}
                yield
        except StoreError as error:
            log.warning("the challenges could not be changed: %s", error)
            raise Refused("The server cannot keep challenges just now: try again soon.") from None

    def expire(self) -> None:
        """Challenges whose time is up go; with other servers, so do live ones whose
        players are online on no server (one died), and the book is read again: this
        server's players whose challenges another server changed are told, should the
        bus have lost the word. The lock is taken only when some challenge is to go."""
        before = dict(self.book.open)
        if self.matching.shared:
            try:
                self.book.open = {
                    c.id: c for c in ChallengeRecords(self.matching.host.store).load()
                }
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
                self.tell_challenges(key)
        for key in {key for _, c in changed for key in (c.challenger, c.opponent)}:
            self.tell_challenges(key, told=True)

    def _to_go(self) -> list[Challenge]:
        """The open challenges to go now: their time is up, or (with other servers) they
        are for a game now and one of their players is online on no server."""
        gone = self.book.expired()
        if self.matching.shared:
            gone += [
                c
                for c in self.book.open.values()
                if not c.correspondence
                and c not in gone
                and not (self.matching.online(c.challenger) and self.matching.online(c.opponent))
            ]
        return gone

    def _heard_challenges(self, body: dict[str, Any], sender: str) -> None:
        """Another server changed the challenges of these players: read them, tell them."""
        try:
            self.book.open = {c.id: c for c in ChallengeRecords(self.matching.host.store).load()}
        except StoreError as error:
            log.warning("the challenges could not be read: %s", error)
            return
        for key in body.get("keys", ()):
            self.tell_challenges(str(key), told=True)

    def tell_challenges(self, key: str, *, told: bool = False) -> None:
        """Tell this player their challenges (`told` False: on the other servers too)."""
        if self.matching.shared and not told:
            self.matching.host.bus.broadcast("matching.challenges", {"keys": [key]})
        clients = self.matching.clients_of(key)
        if not clients:
            return
        now = self.matching.wall()

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
