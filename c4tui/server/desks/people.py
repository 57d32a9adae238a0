"""People in the room service: profiles, blocks and passwords, as clients ask for them.

A profile is asked for by name (the lobby's online list, a room's seats): the player a
name stands for is an online client's under that name (on this server, then on the
others sharing its store: server/rooms/other_servers.py), else the one the store knows
(server/store/profiles.py). It shows the player's ratings by class, results, the games
they are in now (the rooms' seats, in memory) and their last finished games (the
store's). A block is between players and one way: the blocked player's chat no longer
reaches the blocker, and automatch and challenges ask `blocks` both ways. A password is
for a keyless ssh name only (a key, or a browser's cookie, is an identity already): it
claims the name, and from then on a keyless login under it must give the password
(server/fronts/ssh.py asks). A browser may choose a name (community/chosen_names.py: its
rules, and the store's part): refused when it is another player's, or in use right now,
with one log line each; else the player is called by it everywhere at once
(server/desks/renaming.py).
"""

from __future__ import annotations

import logging
import time

from c4tui.community.bot_tokens import is_bot_key
from c4tui.community.chosen_names import name_refusal
from c4tui.community.glicko2 import provisional
from c4tui.community.passwords import hashed, password_refusal
from c4tui.server.desks.renaming import BROWSER, Renaming
from c4tui.server.rooms.audience import Client
from c4tui.server.rooms.hooks import Refused
from c4tui.server.rooms.host import RoomHost
from c4tui.server.rooms.other_servers import OtherServers
from c4tui.server.store.chosen_names import ChosenNames
from c4tui.server.store.people_records import KEYLESS, PeopleRecords
from c4tui.server.store.profiles import ProfileRecords
from c4tui.server.store.store import StoreError
from c4tui.server.wire.people_messages import PlayedShown, PlayingShown, Profile, RatingShown
from c4tui.server.wire.protocol import Notice, escaped

log = logging.getLogger("c4tui.server")
PASSWORD_EVERY = 10.0  # seconds between one identity's passwords (each costs a hash)
NAME_EVERY = 5.0  # seconds between one identity's names chosen (each is kept for good)


class People:
    """Profiles, blocks and passwords over one RoomHost's store."""

    def __init__(self, host: RoomHost, others: OtherServers | None = None) -> None:
        self.host = host
        self.others = others or OtherServers(host)
        self._password_set: dict[str, float] = {}  # identity -> when it last set one
        self._name_chosen: dict[str, float] = {}  # identity -> when it last chose a name
        self.renaming = Renaming(host, self.others)
        host.listeners.append(self.renaming)

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
            choose=you and client.key.startswith(BROWSER),
            games=tuple(
                PlayedShown(played.name, played.record.to_text(), 0 if played.side == 0 else 1)
                for played in profiles.recent(player)
            ),
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

    def choose_name(self, client: Client, name: str) -> None:
        """A browser player's own name, claimed in the store and shown everywhere."""
        name = name.strip()
        try:
            self._check_name(client, name)
        except Refused as refusal:
            log.warning("client %s: refused the name %s: %s", client.who, escaped(name), refusal)
            raise
        self.renaming.rename(client.key, name)
        log.info("client %s is called %s now", client.who, escaped(name))
        client.send(Notice(f"You are {name} now: this browser keeps the name."))
        client.send(self.profile(client, name))  # the profile says so now

    def _check_name(self, client: Client, name: str) -> None:
        """Refused, in words, unless `name` is the browser player's now (kept)."""
        if not client.key.startswith(BROWSER):
            raise Refused("Over ssh your name is your login name (ssh NAME@HOST).")
        refusal = name_refusal(name)
        if refusal is not None:
            raise Refused(refusal)
        now = time.monotonic()
        if now - self._name_chosen.get(client.key, -NAME_EVERY) < NAME_EVERY:
            raise Refused("A name was just chosen: try again in a few seconds.")
        folded = name.casefold()
        if any(k != client.key and n.casefold() == folded for k, n in self._online().items()):
            raise Refused(f"The name {name} is in use right now: choose another.")
        try:
            records = self.records()
            mine = records.players.player_of(client.key)
            keyless = records.players.player_of(records.keyless_identity(name))
            if keyless is not None and keyless != mine:
                raise Refused(f"The name {name} is an ssh player's: choose another.")
            if not ChosenNames(self.host.store).choose(client.key, name):
                raise Refused(f"The name {name} is another player's: choose another.")
            self._name_chosen[client.key] = now  # a name claimed for good: not many at once
        except StoreError:
            raise Refused("The server cannot keep names just now: try again in a while.") from None
