"""Bots across servers: a bot connected to one server is online, and challenged, on all.

Several servers on one database (PostgreSQL, issue 36): a bot's account stream is on
one server (the one its HTTP requests reach), and its games are played there. While
that stream is open the bot is in the store's presence (server/cluster/presence.py), so
every server's lobby lists it among the bots. A person on another server who challenges
it sends the challenge over the bus to the bot's server ("bots.challenge"), which puts
it in its bot desk's book as one made there; the bot answers through its own server's
API, that server opens the room and summons the person (`RoomHost.summon`: relayed
there through their own server). What the challenger is told (a refusal, a decline, no
answer in time) comes back over the bus ("bots.tell").

On SQLite (one server) none of this runs: a bot is online and challenged where it is.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from c4tui.community.bot_tokens import bot_key
from c4tui.server.cluster.presence import PresenceRecords
from c4tui.server.rooms.audience import Client
from c4tui.server.rooms.hooks import HostListener, Refused
from c4tui.server.rooms.host import RoomHost
from c4tui.server.store.store import StoreError
from c4tui.server.wire.protocol import Notice

log = logging.getLogger("c4tui.server")


@dataclass(frozen=True)
class Challenger:
    """A person who challenges a bot from another server: who, as the bot desk needs."""

    key: str
    name: str


@dataclass(frozen=True)
class BotChallenge:
    """A challenge to a bot as it crosses the bus: who, whom, and the game asked for."""

    by: Challenger
    bot: str
    first: bool  # the challenger plays first
    size: tuple[int, int, int]  # width, height, connect
    clock: str | None = None

    def body(self) -> dict[str, Any]:
        return {
            "key": self.by.key,
            "name": self.by.name,
            "bot": self.bot,
            "first": self.first,
            "size": list(self.size),
            "clock": self.clock,
        }

    @classmethod
    def read(cls, body: dict[str, Any]) -> BotChallenge:
        """From a bus message's body (ValueError, KeyError or TypeError if it is not one)."""
        width, height, connect = (int(n) for n in body["size"])
        clock = body.get("clock")
        return cls(
            Challenger(str(body["key"]), str(body["name"])),
            str(body["bot"]),
            bool(body["first"]),
            (width, height, connect),
            None if clock is None else str(clock),
        )


class BotsAcross(HostListener):
    """A bot desk's bots in the other servers' lobbies, and the challenges of those
    servers' people (see the module docstring). `heard`: puts a challenge that came
    over the bus in this server's book (Refused says why not)."""

    def __init__(self, host: RoomHost, heard: Callable[[BotChallenge], None]) -> None:
        self.host = host
        self._heard_challenge = heard
        host.listeners.append(self)

    @property
    def shared(self) -> bool:
        """Whether other servers may share the store (and so see this one's bots)."""
        return self.host.store.dialect == "postgresql"

    def _presence(self) -> PresenceRecords:
        return PresenceRecords(self.host.store, self.host.server)

    def started(self) -> None:
        if self.shared:
            self.host.bus.on("bots.challenge", self._challenged)
            self.host.bus.on("bots.tell", self._heard_tell)

    # ---- a bot online ---------------------------------------------------------------

    def online(self, feed: Client) -> None:
        """The bot's account stream opened here: it is present for every server."""
        if self.shared:
            try:
                self._presence().arrive(feed.key, feed.name, self.host.wall())
            except StoreError as error:
                log.warning("bot %s not shown to the other servers: %s", feed.name, error)

    def offline(self, feed: Client) -> None:
        """The bot's stream ended (it left host.clients): with its last connection here,
        it is no longer present."""
        if self.shared and not bool(self.host.clients.of(feed.key)):
            try:
                self._presence().depart(feed.key)
            except StoreError as error:
                log.warning("bot %s still shown to the other servers: %s", feed.name, error)

    def elsewhere(self, key: str) -> list[str]:
        """The other live servers where this identity is connected (none: not known)."""
        if not self.shared:
            return []
        try:
            return self._presence().servers_of(key, set(self.host.leasing.servers()))
        except StoreError as error:
            log.warning("where %s is connected is not known: %s", key, error)
            return []

    # ---- challenges from the other servers' people -------------------------------------

    def challenge(self, challenge: BotChallenge) -> bool:
        """Send a person's challenge to the server the bot is connected to; whether it
        is connected to one."""
        servers = self.elsewhere(bot_key(challenge.bot))
        if not servers:
            return False
        self.host.bus.send(servers[0], "bots.challenge", challenge.body())
        log.info("%s challenges the bot %s on %s", challenge.by.name, challenge.bot, servers[0])
        return True

    def _challenged(self, body: dict[str, Any], sender: str) -> None:
        try:
            challenge = BotChallenge.read(body)
        except (KeyError, TypeError, ValueError) as error:
            log.warning("a bot challenge from %s that does not read: %s", sender, error)
            return
        try:
            self._heard_challenge(challenge)
        except Refused as refusal:
            self.host.bus.send(sender, "bots.tell", {"key": challenge.by.key, "text": str(refusal)})

    def tell(self, key: str, text: str) -> None:
        """Tell a person in the lobby of another server about their bot challenge."""
        if self.shared:
            self.host.bus.broadcast("bots.tell", {"key": key, "text": text})

    def _heard_tell(self, body: dict[str, Any], sender: str) -> None:
        key, text = str(body.get("key", "")), str(body.get("text", ""))
        for client in self.host.clients.of(key):
            if client.room is None and not client.relayed:
                client.send(Notice(text))
