"""StandIns: clients of other servers playing or watching in this server's rooms.

The other side of relay.py: another server relays one of its clients into a room this
server holds ("relay.open"), and here a `RelayedClient` stands in for it among this
server's clients. The room cannot tell it from a local client: it sits, is held when it
goes (its server says "relay.gone", or its server stops beating), is shown the room,
the AI's progress, the chat and the notices (sent back over the bus to its server, which
writes them to the real connection). Its requests come as "relay.do" and are done by
this server's Requests as any client's.

A stand-in ends when its client goes back to a lobby (this server sends it one: it left,
the room closed, or a request put it nowhere): its server is told ("relay.back") and
sends it its own lobby. The lobby, seeks, challenges and the like are its own server's
business: a stand-in is shown only what concerns its room (FORWARDED).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from c4tui.server.cluster.bus import Bus
from c4tui.server.rooms.audience import Client
from c4tui.server.rooms.hooks import HostListener
from c4tui.server.rooms.host import RoomHost
from c4tui.server.service.requests import Requests
from c4tui.server.wire.kinds import parse_client_line
from c4tui.server.wire.protocol import Message, ProtocolError, encode

log = logging.getLogger("c4tui.server")
# What a room tells its clients; the rest (lobbies, seeks, challenges) the client's own
# server tells it.
FORWARDED = frozenset({"room", "progress", "notice", "refused", "said", "your_move"})


class RelayedClient(Client):
    """A client connected to `server`, in a room of this one (relay `id` there)."""

    relayed = True

    def __init__(
        self,
        key: str,
        name: str,
        address: str,
        server: str,
        id: int,
        bus: Bus,
        in_lobby: Callable[[RelayedClient], None],
    ) -> None:
        super().__init__(key, name, address)
        self.server, self.id, self.bus, self._in_lobby = server, id, bus, in_lobby

    @property
    def who(self) -> str:
        return f"{super().who} on {self.server}"

    def send(self, message: Message) -> None:
        if message.kind == "lobby":
            if self.room is None:
                self._in_lobby(self)
            return
        if message.kind in FORWARDED:  # the line as it is, not inside the message's JSON
            self.bus.send(self.server, "relay.message", {"id": self.id}, encode(message))

    def close(self) -> None:
        """Nothing here: the connection is its server's (which a stopping server leaves
        to the live ones that take its rooms)."""


class StandIns(HostListener):
    """The stand-ins of this server's rooms (see the module docstring)."""

    def __init__(self, host: RoomHost, requests: Requests) -> None:
        self.host, self.requests = host, requests
        self.clients: dict[tuple[str, int], RelayedClient] = {}
        for kind, handler in (
            ("relay.open", self._open),
            ("relay.do", self._do),
            ("relay.close", self._close),
            ("relay.gone", self._gone),
            # A server that starts again has none of its earlier run's clients.
            ("host.started", lambda body, sender: self.server_gone(sender)),
        ):
            host.bus.on(kind, handler)
        host.listeners.append(self)

    def server_gone(self, server: str) -> None:
        """Its clients are gone, as if each had hung up (their seats held)."""
        for where, id in list(self.clients):
            if where == server:
                self._gone({"id": id}, server)

    # ---- what the bus brings ----------------------------------------------------

    def _open(self, body: dict[str, Any], sender: str) -> None:
        client = RelayedClient(
            str(body["key"]),
            str(body["name"]),
            str(body["address"]),
            sender,
            int(body["id"]),
            self.host.bus,
            self._ended,
        )
        self.clients[(sender, client.id)] = client
        self.host.clients.add(client)
        log.info("client %s relayed here", client.who)
        self._did(client, body["op"])

    def _do(self, body: dict[str, Any], sender: str) -> None:
        client = self.clients.get((sender, int(body["id"])))
        if client is None:  # not here (this server started again): its server takes it back
            self.host.bus.send(sender, "relay.back", {"id": int(body["id"])})
            return
        self._did(client, body["op"])

    def _did(self, client: RelayedClient, op: dict[str, Any]) -> None:
        """Do what the client's server asks: a request, or going into a room."""
        if "line" in op:
            try:
                self.requests.handle(client, parse_client_line(str(op["line"]).encode()))
            except ProtocolError as error:
                log.warning(
                    "client %s: a relayed request is not of the protocol: %s", client.who, error
                )
        else:
            self._enter(client, int(op["enter"]), bool(op.get("arriving")))
        if client.room is None:  # refused, or nowhere to go: back to its own server's lobby
            self._ended(client)

    def _enter(self, client: RelayedClient, number: int, arriving: bool) -> None:
        room = self.host.rooms.get(number)
        seat = None if room is None else room.seat_of(client.key)
        if room is None or (arriving and seat is None):
            return
        if client.room != number:
            self.host.leave(client)
        self.host.enter(client, room, seat)
        self.host.show(room)

    def _close(self, body: dict[str, Any], sender: str) -> None:
        """Its client left the room (for another, or the lobby): it leaves here too."""
        client = self.clients.pop((sender, int(body["id"])), None)
        if client is not None:
            self.host.leave(client)
            self.host.depart(client)

    def _gone(self, body: dict[str, Any], sender: str) -> None:
        """Its client's connection ended: it departs as any client that hung up."""
        client = self.clients.pop((sender, int(body["id"])), None)
        if client is not None:
            self.host.depart(client)

    def _ended(self, client: RelayedClient) -> None:
        """In no room here any more: its server takes it back."""
        if self.clients.pop((client.server, client.id), None) is None:
            return
        self.host.depart(client)
        self.host.bus.send(client.server, "relay.back", {"id": client.id})
