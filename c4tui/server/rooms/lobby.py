"""The lobby: what the clients in no room see, sent only to those for whom it changed.

A lobby is made from the rooms' listings and the people online (this server's, and the
other servers' through the listeners), gathered over LOBBY_EVERY so that changes close
together go as one. Each client in the lobby gets it only when what it sees differs
from what it was sent last: a move in some room reaches the lobby of the two players
whose turn it changes (their "your move" list), not everyone's. A room's change asks
for a lobby only when its listing changed (seats, state, watchers), so a move does not.
Bells are read from the store once per player and kept in memory after.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from math import inf
from typing import Any
from weakref import WeakKeyDictionary

from c4tui.community.bot_tokens import is_bot_key
from c4tui.server.rooms.access import show_code
from c4tui.server.rooms.audience import Client
from c4tui.server.rooms.face import Host
from c4tui.server.rooms.room import Room
from c4tui.server.rooms.views import room_summary
from c4tui.server.store.bells import BellRecords
from c4tui.server.store.store import StoreError
from c4tui.server.wire.codec import from_wire
from c4tui.server.wire.protocol import Lobby

LOBBY_EVERY = 0.25  # seconds: lobby updates are gathered, so a busy server sends few


class LobbyBoard:
    """The lobby of one server (see the module docstring)."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self._due = False
        self._news = False  # the lobby changed here: the other servers are to be told
        # What each client was sent last, and when (its `room_changes`: back from a room, it
        # is sent the lobby again even if nothing changed meanwhile).
        self._sent: WeakKeyDictionary[Client, tuple[int, Lobby]] = WeakKeyDictionary()
        self._listed: dict[int, dict[str, Any]] = {}  # each room's listing, as last made
        self._last: Lobby | None = None  # the lobby as last made
        self._whole = False  # a listing changed: the lobby is made again for everyone
        self._turns: set[str] = set()  # players whose "your move" list may have changed
        self._bells: dict[str, bool] = {}

    def listing(self) -> Lobby:
        """The lobby as everyone sees it (without anyone's "your move" list)."""
        host = self.host
        # One entry per identity: two people who share a name are two.
        people = {c.key: c.name for c in host.clients}
        rooms = [self._listing_of(room) for room in host.rooms.values()]
        self._listed = {int(summary["room"]): summary for summary in rooms}
        for listener in host.listeners:
            listener.listing(people, rooms)
        online = sorted(name for key, name in people.items() if not is_bot_key(key))
        bots = sorted(name for key, name in people.items() if is_bot_key(key))
        rooms.sort(key=lambda summary: int(summary["room"]))
        lobby = from_wire(Lobby, {"online": online, "rooms": rooms, "bots": bots}, "lobby")
        self._last = lobby
        return lobby

    def _listing_of(self, room: Room) -> dict[str, Any]:
        summary = room_summary(room)
        if summary["code"] is not None:
            summary["code"] = show_code(summary["code"])
        here = self.host.clients.in_room(room.number)
        summary["watchers"] = sum(1 for c in here if room.seat_of(c.key) is None)
        return summary

    def room_changed(self, room: Room) -> None:
        """A room changed: the lobby changes with it only if its listing did (a move
        changes no listing, only whose move it is, which `send` tells its players)."""
        if self._listed.get(room.number) != self._listing_of(room):
            self.changed()
        elif room.on:  # only its two players' "your move" lists, from the lobby as made
            self._turns.update(seat.key for seat in room.seats if seat.key is not None)
            self._soon()

    def changed(self, here: bool = True) -> None:
        """Send the lobby soon, and tell the other servers that it changed here (their
        lobbies list this one's); `here` False: it changed on another server, which has
        told the others already."""
        self._news = self._news or here
        self._whole = True
        self._soon()

    def _soon(self) -> None:
        if self._due:
            return
        self._due = True
        asyncio.get_running_loop().call_later(LOBBY_EVERY, self._send)

    def _send(self) -> None:
        self._due = False
        turns, self._turns = self._turns, set()
        if not self._whole and self._last is not None:
            # A move somewhere: no listing changed, so the lobby is not made again and
            # only the two players' connections in the lobby are looked at.
            clients = [c for key in turns for c in self.host.clients.of(key) if c.room is None]
            self._send_to(clients, self._last)
            return
        self._whole = False
        lobby = self.listing()
        if self._news:
            # With how many watch this server's rooms: only the room's server knows (a
            # watcher on another server is relayed, so it is among its clients).
            rooms = self.host.rooms
            here = {str(r.room): r.watchers for r in lobby.rooms if r.room in rooms}
            self.host.bus.broadcast(
                "lobby.changed", {"watchers": {n: w for n, w in here.items() if w}}
            )
        self._news = False
        self._send_to(self.host.clients.in_lobby(), lobby)

    def _send_to(self, clients: list[Client], lobby: Lobby) -> None:
        """The lobby to each of `clients` whose view of it changed since it was sent."""
        for client in clients:
            last = self._sent.get(client)
            seen = self.for_client(client, lobby)
            if last != (client.room_changes, seen):
                client.send(seen)

    def for_client(self, client: Client, lobby: Lobby | None = None) -> Lobby:
        """The lobby as this client sees it: with the rooms where it is their move, the
        least time left first, and their bell toggle; remembered as sent to it."""
        host = self.host
        mine = []
        for room in host.rooms.values():
            seat = room.seat_of(client.key)
            if seat is not None and room.on and room.position.to_move == seat:
                left = inf if room.clock is None else room.clock.remaining(seat, host.now())
                mine.append((left, room.number))
        for listener in host.listeners:
            mine += listener.your_move(client.key)
        seen = replace(
            lobby or self.listing(),
            your_move=tuple(number for _, number in sorted(mine)),
            bell=self.bell(client.key),
        )
        self._sent[client] = (client.room_changes, seen)
        return seen

    def bell(self, key: str) -> bool:
        """Whether this player wants the terminal bell (True until the store says)."""
        wanted = self._bells.get(key)
        if wanted is None:
            try:
                wanted = BellRecords(self.host.store).wanted(key)
            except StoreError:
                return True
            self._bells[key] = wanted
        return wanted

    def keep_bell(self, client: Client, on: bool) -> None:
        """This player's bell toggle, kept (StoreError when the store refuses)."""
        BellRecords(self.host.store).keep(client.key, on)
        self._bells[client.key] = on
