"""People in the room service: profiles, blocks and passwords, as clients ask for them.

A profile is asked for by name (the lobby's online list, a room's seats): the player
a name stands for is an online client's under that name (on this server, then on the
others sharing its store: rooms/other_servers.py), else the one the store knows
(community/profiles.py). It shows the player's ratings by class, results, and the games
they are in now (the rooms' seats, in memory). A block is between players and one way:
the blocked player's chat no longer reaches the blocker, and automatch and challenges
ask `blocks` both ways. A password is for a keyless ssh name only (a key, or a
browser's cookie, is an identity already): it claims the name, and from then on a
keyless login under it must give the password (serve/ssh.py asks).
"""

from __future__ import annotations

import time

from c4tui.community.bot_tokens import is_bot_key
from c4tui.community.glicko2 import provisional
from c4tui.community.passwords import hashed, password_refusal
from c4tui.community.people_records import KEYLESS, PeopleRecords
from c4tui.community.profiles import ProfileRecords
from c4tui.rooms.host import Client, Refused, RoomHost
from c4tui.rooms.other_servers import OtherServers
from c4tui.rooms.protocol import Notice, PlayingShown, Profile, RatingShown

PASSWORD_EVERY = 10.0  # seconds between one identity's passwords (each costs a hash)


class People:
    """Profiles, blocks and passwords over one RoomHost's store."""

    def __init__(self, host: RoomHost, others: OtherServers | None = None) -> None:
        self.host = host
        self.others = others or OtherServers(host)
        self._password_set: dict[str, float] = {}  # identity -> when it last set one

    def records(self) -> PeopleRecords:
        return PeopleRecords(self.host.store)

    def blocks(self, key: str, other: str) -> bool:
        """Whether the player of identity `key` blocks the player of `other`."""
        return self.records().blocks(key, other)

    def _online(self) -> dict[str, str]:
        """Who is online, here first, then on the other servers: identity -> name."""
        online = {c.key: c.name for c in self.host.clients}
        for key, name in self.others.online().items():
            online.setdefault(key, name)
        return online

    def player_named(self, name: str) -> int:
        """The player `name` stands for; Refused when nobody."""
        folded = name.strip().casefold()
        online = self._online()
        here = next((key for key, named in online.items() if named.casefold() == folded), None)
        if here is not None:
            return self.records().players.player(here, online[here])
        found = ProfileRecords(self.host.store).player_named(folded)
        if found is None:
            raise Refused(f"No player here is called {name.strip()[:20]}.")
        return found

    def profile(self, client: Client, name: str) -> Profile:
        player = self.player_named(name)
        profiles = ProfileRecords(self.host.store)
        keys = set(profiles.keys(player))
        online = [name for key, name in self._online().items() if key in keys]
        shown = online[0] if online else profiles.name_of(player)
        playing = []
        rooms = {**self.others.elsewhere(), **self.host.rooms}  # on any server
        for room in sorted(rooms.values(), key=lambda r: r.number):
            seat = next((i for i, s in enumerate(room.seats) if s.key in keys), None)
            if seat is not None and not room.over:
                other = room.seats[1 - seat]
                opponent = other.ai or (other.title() if other.bot else other.name) or "(open)"
                playing.append(PlayingShown(room.number, opponent, room.position.moves))
        ratings = tuple(
            RatingShown(c, s.rating.r, s.rating.rd, provisional(s.rating), s.games)
            for c, s in profiles.ratings(player).items()
        )
        results = profiles.results(player)
        you = client.key in keys
        password = None
        if you and client.key.startswith(KEYLESS):
            password = self.records().password_of(client.key.removeprefix(KEYLESS)) is not None
        return Profile(
            name=shown,
            you=you,
            online=bool(online),
            blocked=not you and self.records().blocks_player(client.key, player),
            ratings=ratings,
            wins=results.wins,
            draws=results.draws,
            losses=results.losses,
            playing=tuple(playing),
            password=password,
            bot=any(is_bot_key(key) for key in keys),
        )

    def block(self, client: Client, name: str, on: bool) -> None:
        player = self.player_named(name)
        records = self.records()
        if records.players.player_of(client.key) == player:
            raise Refused("That is you: nobody blocks themselves.")
        if on:
            records.block(client.key, client.name, player)
            words = f"You block {name}: no challenges, pairings or chat from them."
        else:
            records.unblock(client.key, player)
            words = f"You no longer block {name}."
        client.send(Notice(words))
        client.send(self.profile(client, name))

    def set_password(self, client: Client, password: str) -> None:
        if not client.key.startswith(KEYLESS):
            raise Refused(
                "A password is for a name without an ssh key: your key (or your browser)"
                " already makes you you."
            )
        refusal = password_refusal(password)
        if refusal is not None:
            raise Refused(refusal[0].upper() + refusal[1:] + ".")
        now = time.monotonic()
        if now - self._password_set.get(client.key, -PASSWORD_EVERY) < PASSWORD_EVERY:
            raise Refused("A password was just set: try again in a few seconds.")
        self._password_set[client.key] = now
        name = client.key.removeprefix(KEYLESS)
        if not self.records().set_password(client.key, name, hashed(password)):
            raise Refused(f"The name {name} is another player's.")
        client.send(
            Notice(f"Your password is set: a login as {name} without a key must give it now.")
        )
        client.send(self.profile(client, client.name))  # the profile says so now
