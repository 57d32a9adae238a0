"""Who plays in a session: the identity a front established, and one live session each.

A name belongs to one identity. An ssh key that logs in under a name claims it for good
(kept in the community's store: server/store/player_records.py); from then on a login
without that key, or with another key, cannot use the name, and is told so before its
client starts. Names a
browser gets ("web-1a2b") are the web front's alone. Login names ssh cannot carry (an
emoji, a control character) are refused with words, not ssh's own disconnect.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import asyncssh

from c4tui.community.chosen_names import WEB_NAMES
from c4tui.community.look_alikes import skeleton
from c4tui.server.store.people_records import PeopleRecords
from c4tui.server.store.player_records import PlayerRecords
from c4tui.server.store.store import StoreError

log = logging.getLogger("c4tui.server")
KEYLESS, KEYED = "ssh-name:", "ssh-key:"
NAMES_FILE = "names.json"  # in a state directory from before the store (brought in once)


@dataclass(frozen=True)
class Player:
    """Who a session belongs to, as the front established it."""

    key: str  # "ssh-key:SHA256:...", "ssh-name:<name>" or "web:<id>"
    name: str
    address: str


# The room service's side of a new session: the client's environment variables that
# let it in (the socket, and a one-time token bound to the player).
Credentials = Callable[[Player], dict[str, str]]


class NameTaken(Exception):
    """A login under a name that belongs to another identity; the words are for the player."""


# What a player whose login name ssh cannot carry is told (ASCII: ssh shows it escaped).
LOGIN_NAME_WORDS = (
    "c4tui: that login name has a character ssh names cannot hold (an emoji?). "
    "Log in with letters and digits instead, e.g. ssh ann@HOST"
)


def guard_login_names(conn: asyncssh.SSHServerConnection) -> None:
    """Have `conn` refuse a login name ssh cannot carry with LOGIN_NAME_WORDS.

    asyncssh checks the name (SASLprep) before any of our callbacks hears of it, and
    disconnects with its own terse reason ("Unassigned character: '\\360...'"); its
    user-authentication handler is wrapped, on this connection alone, to say ours. If
    asyncssh is ever built otherwise, its own refusal stands (and still gets a log line).
    """
    handlers = getattr(type(conn), "_packet_handlers", None)
    request = handlers.get(asyncssh.MSG_USERAUTH_REQUEST) if isinstance(handlers, dict) else None
    if request is None:
        return

    def checked(self: object, *packet: object) -> Any:
        try:
            return request(self, *packet)
        except asyncssh.IllegalUserName:
            raise asyncssh.IllegalUserName(LOGIN_NAME_WORDS) from None

    conn._packet_handlers = {**handlers, asyncssh.MSG_USERAUTH_REQUEST: checked}  # type: ignore[dict-item]  # asyncssh's private table, checked above


class NameBook:
    """Which ssh key's player holds each name, kept in the store (None: no names held,
    as on the web front, whose names are its own)."""

    def __init__(self, records: PlayerRecords | None) -> None:
        self.records = records

    def owner(self, name: str) -> int | None:
        """The player who holds `name`, None when nobody does (or it cannot be told)."""
        if self.records is None:
            return None
        try:
            return self.records.holder_of(name)
        except StoreError as error:
            log.warning("name %s not checked: %s", name, error)
            return None

    def identity(self, player: Player) -> Player:
        """The player as the community knows it: a keyless login's identity is its name
        in any case (people_records.py), so `BOB` and `bob` are one player; a key plays
        under the name it claimed first, whatever login name it comes with (an ssh client
        sends the local user's name unless told another: a second name would rename the
        player in everyone's lists, issue 45 item 17)."""
        if player.key.startswith(KEYED):
            return replace(player, name=self._first_name(player) or player.name)
        if not player.key.startswith(KEYLESS):
            return player
        name = player.key.removeprefix(KEYLESS)
        key = KEYLESS + name.casefold()
        if self.records is not None:
            try:
                key = PeopleRecords(self.records.store).keyless_identity(name)
            except StoreError as error:
                log.warning("name %s not looked up: %s", name, error)
        return replace(player, key=key)

    def refusal(self, player: Player) -> str | None:
        """Why `player` may not use its name (None when it may); a key's first use claims it."""
        name, key = player.name, player.key
        if key.startswith((KEYLESS, KEYED)) and name.casefold().startswith(WEB_NAMES):
            return f"names starting with {WEB_NAMES} are the browsers': choose another name."
        if self.records is None:
            return None
        try:
            owner = self.records.holder_of(name)
            # A keyless name that a password made its player's: the login gave it (ssh.py).
            if (
                key.startswith(KEYLESS)
                and owner is not None
                and owner != self.records.player_of(key)
            ):
                if not self._keyed(owner):
                    return f"the name {name} is another player's: choose another name."
                return (
                    f"the name {name} belongs to a player with an ssh key: log in with that "
                    "key, or choose another name (ssh OTHERNAME@HOST)."
                )
            if key.startswith(KEYED):
                mine = owner is None or owner == self.records.player_of(key)
                if not mine or not self.records.claim(name, key):  # the first use claims it
                    if owner is not None and not self._keyed(owner):  # a password's
                        return f"the name {name} is another player's: choose another name."
                    return f"the name {name} belongs to another ssh key: choose another name."
        except StoreError as error:  # names cannot be checked: nobody may take one now
            log.warning("name %s not checked: %s", name, error)
            return "the server cannot check names just now: try again in a while."
        return None

    def _first_name(self, player: Player) -> str | None:
        """The name this key's player claimed first, None for a new key."""
        if self.records is None:
            return None
        try:
            found = self.records.store.value(
                "SELECT n.name FROM names n JOIN identities i ON i.player = n.player"
                " WHERE i.key = ? ORDER BY n.claimed, n.name LIMIT 1",
                (player.key,),
            )
        except StoreError as error:
            log.warning("the name of key %s not looked up: %s", player.key, error)
            return None
        return None if found is None else str(found)

    def _keyed(self, player: int) -> bool:
        """Whether `player` logs in with an ssh key (else a password holds the name)."""
        assert self.records is not None
        found = self.records.store.value(
            "SELECT 1 FROM identities WHERE player = ? AND key LIKE ?", (player, f"{KEYED}%")
        )
        return found is not None


class Players:
    """The players with a live session on one front.

    Two sessions of one identity at once (two terminals of one key, two tabs of one
    browser) are one player: one entry in the online list, one seat in a room, each
    session showing it. A key that would claim a name a keyless session is using right
    now, here or on another server sharing the store (`elsewhere`: who is online there,
    identity -> name), is refused until that session has left: else two people would
    show as one name.
    """

    def __init__(
        self,
        names: NameBook | None = None,
        elsewhere: Callable[[], dict[str, str]] = dict,
    ) -> None:
        self.names = names or NameBook(None)
        self.elsewhere = elsewhere
        self.sessions: Counter[Player] = Counter()  # live sessions of each player

    def enter(self, player: Player) -> Player:
        """The player this session plays as; NameTaken when the name is another
        identity's (or another identity's right now)."""
        player = self.names.identity(player)
        refusal = self.in_use(player) or self.names.refusal(player)
        if refusal is not None:
            raise NameTaken(refusal)
        self.sessions[player] += 1
        return player

    def in_use(self, player: Player) -> str | None:
        """Why `player` may not take its name now: a keyless session has it, or another
        identity online has a name that looks like it (look_alikes.py: a keyless "аnn"
        in Cyrillic beside a keyless "ann" would be two players no one tells apart)."""
        name, look = player.name.casefold(), skeleton(player.name)
        online = [(p.key, p.name) for p in self.sessions] + list(self.elsewhere().items())
        if any(
            key != player.key and named.casefold() != name and skeleton(named) == look
            for key, named in online
        ):
            return (
                f"a player online has a name that looks like {player.name}: "
                "choose another name, or come back when they have left."
            )
        if not player.key.startswith(KEYED) or self.names.owner(name) is not None:
            return None
        if any(key.startswith(KEYLESS) and named.casefold() == name for key, named in online):
            return (
                f"the name {player.name} is in use right now by a player without a key: "
                "choose another name, or come back when they have left."
            )
        return None

    def leave(self, player: Player) -> None:
        """One session of `player` (as `enter` returned it) has ended; call it once."""
        self.sessions[player] -= 1
        if self.sessions[player] <= 0:
            del self.sessions[player]
