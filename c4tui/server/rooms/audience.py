"""The audience: every client of the server, indexed by the room it is in and by who it is.

A room owns its audience: the members of room 12 are looked up in `by_room[12]`, not
found by scanning every client of the server, and the lobby's audience is `by_room[None]`.
A client moves between rooms by having its `room` set; the setter keeps the index, so
no part of the server (the host, the relays, the bot desk) can move a client without
the index following.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from typing import TypeVar

from c4tui.server.wire.kinds import parse_service_line
from c4tui.server.wire.protocol import Message, escaped


class Client(ABC):
    """A logged-in client, as the host sees it (service.py's Connection is the one)."""

    relayed = False  # a stand-in for a client connected to another server (relay_standins.py)

    def __init__(self, key: str, name: str, address: str) -> None:
        self.key, self.name, self.address = key, name, address
        self._room: int | None = None
        self._audience: Audience | None = None
        self.room_changes = 0  # how often it went from one room (or the lobby) to another

    @property
    def room(self) -> int | None:
        """The room it is in (as a player or watching), None in the lobby."""
        return self._room

    @room.setter
    def room(self, number: int | None) -> None:
        if number == self._room:
            return
        if self._audience is not None:
            self._audience.moved(self, self._room, number)
        self._room = number
        self.room_changes += 1

    @property
    def who(self) -> str:
        return f"{self.name} ({escaped(self.key)}, {self.address})"  # a key holds a typed name

    @abstractmethod
    def send(self, message: Message) -> None:
        """One message to the client (never blocks: a client that does not read is cut)."""

    def send_line(self, line: bytes) -> None:
        """One message as a line the service made (a relay's, from the room's server):
        read and sent here; a connection writes it as it is."""
        self.send(parse_service_line(line))

    @abstractmethod
    def close(self) -> None:
        """End the connection."""


class Audience:
    """The server's clients, by room and by identity (a set to iterate, add and discard)."""

    def __init__(self) -> None:
        self._by_room: dict[int | None, set[Client]] = {}
        self._by_key: dict[str, set[Client]] = {}

    def add(self, client: Client) -> None:
        if client._audience is self:
            return
        client._audience = self
        self._by_room.setdefault(client.room, set()).add(client)
        self._by_key.setdefault(client.key, set()).add(client)

    def discard(self, client: Client) -> None:
        if client._audience is not self:
            return
        client._audience = None
        _drop(self._by_room, client.room, client)
        _drop(self._by_key, client.key, client)

    def moved(self, client: Client, old: int | None, new: int | None) -> None:
        """`client` left room `old` for room `new` (its `room` setter says so)."""
        _drop(self._by_room, old, client)
        self._by_room.setdefault(new, set()).add(client)

    def in_room(self, number: int) -> list[Client]:
        """The clients in room `number`, players and watchers."""
        return list(self._by_room.get(number, ()))

    def in_lobby(self) -> list[Client]:
        """The clients in no room."""
        return list(self._by_room.get(None, ()))

    def of(self, key: str) -> list[Client]:
        """The connections of identity `key` (several tabs or terminals)."""
        return list(self._by_key.get(key, ()))

    def present(self, key: str, number: int) -> bool:
        """Whether identity `key` has a connection in room `number`."""
        return any(c.room == number for c in self._by_key.get(key, ()))

    def __contains__(self, client: object) -> bool:
        return isinstance(client, Client) and client._audience is self

    def __iter__(self) -> Iterator[Client]:
        return iter([c for clients in self._by_key.values() for c in clients])

    def __len__(self) -> int:
        return sum(len(clients) for clients in self._by_key.values())


At = TypeVar("At")


def _drop(index: dict[At, set[Client]], at: At, client: Client) -> None:
    clients = index.get(at)
    if clients is not None:
        clients.discard(client)
        if not clients:
            del index[at]
