"""The lobby: what the clients in no room see, sent whole once and then as diffs.

The lobby is a row for each room (views.room_listed), who is online and the bots; and
each client's own parts, the rooms where it is their move and their bell. A client that
comes into the lobby is sent it whole (`for_client`); after that only what changed
(`LobbyDiff`, lobby_messages.py). The host says what may have changed: a room
(`room_changed`: its row, and its players' "your move" lists), who is online
(`people_changed`), or anything (`changed`: every row is made again, and the other
servers' rooms and people are asked for). The news is gathered over LOBBY_EVERY; then
the rows named are made again, and those that differ go in one diff, encoded once, the
same bytes to everyone in the lobby. A client whose own parts changed gets a diff of its
own. A move changes no row, only whose move it is, so it reaches the lobby only as its
two players' lists, and only when those changed.

A player's "your move" list comes from an index of the rooms where they have a seat,
kept as rooms change, not from a walk over every room. Bells are read from the store
once per player and kept in memory after.
"""

from __future__ import annotations

import asyncio
from math import inf
from typing import Any
from weakref import WeakKeyDictionary

from c4tui.community.bot_tokens import is_bot_key
from c4tui.server.rooms.audience import Client
from c4tui.server.rooms.face import Host
from c4tui.server.rooms.room import Room
from c4tui.server.rooms.views import room_listed
from c4tui.server.store.bells import BellRecords
from c4tui.server.store.store import StoreError
from c4tui.server.wire.codec import to_wire
from c4tui.server.wire.lobby_messages import Lobby, LobbyDiff, RoomListed

LOBBY_EVERY = 0.25  # seconds: lobby updates are gathered, so a busy server sends few
NOTHING = LobbyDiff()

# What a client was last sent: its `room_changes` then (back from a room, it is sent the
# lobby whole again), its "your move" list and its bell.
Seen = tuple[int, tuple[int, ...], bool]


class LobbyBoard:
    """The lobby of one server (see the module docstring)."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self._due = False
        # What the other servers are to be told of this one's lobby: its rows that changed
        # (None: gone) and whether its people did; or that anything may have (`whole`).
        self._news_rows: dict[int, RoomListed | None] = {}
        self._news_people = self._news_whole = False
        self._rows: dict[int, RoomListed] = {}  # each room's row, as the lobby was last sent
        self._online: tuple[str, ...] = ()
        self._bots: tuple[str, ...] = ()
        self._all = True  # every row may have changed (and the other servers' part)
        self._people = True  # who is online may have changed
        self._rooms: set[int] = set()  # the rooms whose row may have changed
        self._changes: dict[int, RoomListed | None] = {}  # rows made since the last diff
        self._people_changed = False  # who is online changed since the last diff
        self._everyone = False  # every "your move" list may have changed since it was sent
        self._turns: set[str] = set()  # players whose "your move" list may have changed
        self._sent: WeakKeyDictionary[Client, Seen] = WeakKeyDictionary()
        self._seated: dict[str, set[int]] = {}  # identity -> this server's rooms with its seat
        self._seats: dict[int, set[str]] = {}  # room -> the identities seated, as indexed
        self._own: dict[str, str] = {}  # this server's people (identity -> name), as listed
        self._others: dict[str, str] = {}  # the other servers' people, as last asked
        self._others_rows: dict[int, RoomListed] = {}  # and their rooms' rows
        self._bells: dict[str, bool] = {}

    # ---- news -----------------------------------------------------------------------

    def room_changed(self, room: Room | int) -> None:
        """Room `room` (or the room of that number, gone maybe) changed: its row, and its
        players' "your move" lists, are looked at when the lobby is sent next."""
        number = room if isinstance(room, int) else room.number
        self._rooms.add(number)
        self._turns |= self._index(number)
        self._soon()

    def people_changed(self) -> None:
        """Someone came or went: who is online is looked at when the lobby is sent next."""
        self._people = True
        self._soon()

    def changed(self, here: bool = True) -> None:
        """Anything may have changed: every row is made again when the lobby is sent next,
        and the other servers' part is asked for again; `here` False: it changed on another
        server (which has told the others already)."""
        self._news_whole = self._news_whole or here
        self._all = True
        self._soon()

    def _soon(self) -> None:
        if self._due:
            return
        self._due = True
        asyncio.get_running_loop().call_later(LOBBY_EVERY, self._send)

    # ---- sending ----------------------------------------------------------------------

    def _send(self) -> None:
        self._due = False
        if self.host.closing:
            return
        self._made_again()
        diff = self._diff()
        everyone, self._everyone = self._everyone, False
        turns, self._turns = self._turns, set()
        self._tell_the_others()
        # The shared diff to everyone first, so that it is encoded once (protocol.encode
        # keeps the last line it made), then the lobbies whole and each client's own parts.
        newcomers, own = [], []
        for client in self.host.clients.in_lobby():
            seen = self._sent.get(client)
            if seen is None or seen[0] != client.room_changes:
                newcomers.append(client)
                continue
            if diff != NOTHING:
                client.send(diff)
            if everyone or client.key in turns:
                own.append((client, seen))
        for client in newcomers:
            client.send(self.for_client(client))
        for client, seen in own:
            mine = self.your_move(client.key)
            if mine != seen[1]:
                client.send(LobbyDiff(your_move=mine))
                self._sent[client] = (seen[0], mine, seen[2])

    def _made_again(self) -> None:
        """The rows, people and bots named by the news made again; what changed is kept
        for the next diff (`_diff`)."""
        host = self.host
        numbers, self._rooms = self._rooms, set()
        if self._all:
            self._all, self._people, self._everyone = False, True, True
            self._index_all()
            others: dict[str, str] = {}
            rows: dict[int, RoomListed] = {}
            for listener in host.listeners:
                listener.listing(others, rows)
            self._others, self._others_rows = others, rows
            numbers |= set(self._rows) | set(host.rooms) | set(rows)
        for number in numbers:
            room = host.rooms.get(number)
            row = self._others_rows.get(number) if room is None else self._row_of(room)
            if row is None:
                if self._rows.pop(number, None) is not None:
                    self._changes[number] = None
                    if number not in self._others_rows:
                        self._news_rows[number] = None
            elif self._rows.get(number) != row:
                self._rows[number] = self._changes[number] = row
                if room is not None:
                    self._news_rows[number] = row
        if self._people:
            self._people = False
            # One entry per identity: two people who share a name are two.
            own = {c.key: c.name for c in host.clients}
            if own != self._own:  # the other servers' people are theirs to tell
                self._own, self._news_people = own, True
            people = {**self._others, **own}
            online = tuple(sorted(name for key, name in people.items() if not is_bot_key(key)))
            bots = tuple(sorted(name for key, name in people.items() if is_bot_key(key)))
            self._people_changed |= (online, bots) != (self._online, self._bots)
            self._online, self._bots = online, bots

    # ---- the other servers ------------------------------------------------------------

    def _tell_the_others(self) -> None:
        """Tell the other servers what changed in this one's lobby ("lobby.changed"): the
        rows of its rooms that changed, which they apply as they are (`rows_elsewhere`);
        and, when its people changed or anything may have, to read the store again."""
        if not (self._news_rows or self._news_people or self._news_whole):
            return
        # With how many watch this server's rooms: only the room's server knows (a
        # watcher on another server is relayed, so it is among its clients).
        rooms, rows = self.host.rooms, self._rows
        watchers = {str(n): rows[n].watchers for n in rooms if n in rows and rows[n].watchers}
        body: dict[str, Any] = {"watchers": watchers}
        if not (self._news_people or self._news_whole):
            news = self._news_rows
            body["rows"] = [to_wire(row) for row in news.values() if row is not None]
            body["gone"] = [number for number, row in news.items() if row is None]
        self.host.bus.broadcast("lobby.changed", body)
        self._news_rows, self._news_people, self._news_whole = {}, False, False

    def rows_elsewhere(self, rows: dict[int, RoomListed], gone: list[int]) -> None:
        """Another server's rooms changed so: their rows, or gone (its "lobby.changed")."""
        for number, row in rows.items():
            if number not in self.host.rooms:
                self._others_rows[number] = row
                self._rooms.add(number)
        for number in gone:
            if number not in self.host.rooms:
                self._others_rows.pop(number, None)
                self._rooms.add(number)
        self._soon()

    def _diff(self) -> LobbyDiff:
        """What changed since the last diff (the same for every client in the lobby)."""
        changes, self._changes = self._changes, {}
        people, self._people_changed = self._people_changed, False
        if not changes and not people:
            return NOTHING
        return LobbyDiff(
            tuple(row for _, row in sorted(changes.items()) if row is not None),
            tuple(sorted(number for number, row in changes.items() if row is None)),
            self._online if people else None,
            self._bots if people else None,
        )

    def _row_of(self, room: Room) -> RoomListed:
        here = self.host.clients.in_room(room.number)
        return room_listed(room, sum(1 for c in here if room.seat_of(c.key) is None))

    def _index_all(self) -> None:
        for number in set(self._seats) | set(self.host.rooms):
            self._turns |= self._index(number)

    def _index(self, number: int) -> set[str]:
        """Index the seats of room `number` as they are now; the identities whose seats
        in it came, went or may have changed whose move it is."""
        room = self.host.rooms.get(number)
        keys = set() if room is None else {s.key for s in room.seats if s.key is not None}
        was = self._seats.pop(number, set())
        for key in was - keys:
            mine = self._seated[key]
            mine.discard(number)
            if not mine:
                del self._seated[key]
        for key in keys - was:
            self._seated.setdefault(key, set()).add(number)
        if keys:
            self._seats[number] = keys
        return keys | was

    # ---- one client's lobby ------------------------------------------------------------

    def for_client(self, client: Client) -> Lobby:
        """The lobby as this client sees it, whole and up to date (the news not yet sent
        to the others comes to it too, as a diff: applied again, it changes nothing),
        with the rooms where it is its move and its bell; remembered as sent to it."""
        self._made_again()
        mine, bell = self.your_move(client.key), self.bell(client.key)
        rows = tuple(self._rows[number] for number in sorted(self._rows))
        self._sent[client] = (client.room_changes, mine, bell)
        return Lobby(self._online, rows, self._bots, mine, bell)

    def seated(self, key: str) -> set[int]:
        """The numbers of this server's rooms where `key` has a seat, by the index: every
        room as last kept (a room whose change is still being written may be missing;
        RoomHost.seats_of adds those). A room taken over or brought back is indexed with
        the rest when the lobby is made again whole (`changed`): here first, if that is due."""
        if self._all:
            self._index_all()
        return set(self._seated.get(key, ()))

    def your_move(self, key: str) -> tuple[int, ...]:
        """The rooms where it is this player's move, the least time left first (this
        server's from the index of seats, the others' from the listeners)."""
        host, now = self.host, self.host.now()
        mine = []
        for number in self._seated.get(key, ()):
            room = host.rooms.get(number)
            seat = None if room is None else room.seat_of(key)
            if room is not None and seat is not None and room.on and room.position.to_move == seat:
                left = inf if room.clock is None else room.clock.remaining(seat, now)
                mine.append((left, number))
        for listener in host.listeners:
            mine += listener.your_move(key)
        return tuple(number for _, number in sorted(mine))

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
