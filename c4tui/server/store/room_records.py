"""RoomRecords: the store's part for the rooms of the room service.

A room is kept whole, in one transaction: its row, its two seats, its offers, and the
game it plays (game_records.py); a move in a game under way writes only its move and
the clock (server/rooms/keeping.py's `moved_only`). A kill at any moment leaves the
room as it was before the change or after it, never between. The room service turns
its rooms into RoomRecords and back (c4tui/server/rooms/keeping.py); nothing here knows a room
beyond what is kept of it.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from c4tui.engine.board.gamefile import GameRecord
from c4tui.server.store.game_records import GameRecords
from c4tui.server.store.store import Store, now
from c4tui.server.store.watcher_records import WatcherRecords


@dataclass(frozen=True)
class SeatRecord:
    """A seat as it is kept: a person (key and name), an engine (ai), or open."""

    key: str | None = None
    name: str = ""
    ai: str | None = None
    code: str = ""


@dataclass(frozen=True)
class RoomRecord:
    """What is kept of a room: everything but who is connected and what the AI thinks."""

    number: int
    code: str
    public: bool
    game_name: str  # the game it plays now (a rematch starts another)
    game: GameRecord
    seats: tuple[SeatRecord, SeatRecord]
    offers: dict[str, int] = field(default_factory=dict)  # offer -> the seat that made it
    clock: dict[str, Any] | None = None  # Clock.kept()'s form (clock_records.py keeps it)


class RoomRecords:
    """Rooms, their seats and offers, in one store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.games = GameRecords(store)

    def keep(self, room: RoomRecord) -> int:
        """Keep the room whole (its game too); the game's id."""
        with self.store.transaction():
            game = self.games.keep(
                room.game_name,
                room.game,
                room=room.number,
                keys=tuple(seat.key for seat in room.seats),
            )
            self.store.execute(
                "INSERT INTO rooms (number, code, public, game, updated) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (number) DO UPDATE SET code = excluded.code,"
                " public = excluded.public, game = excluded.game, updated = excluded.updated",
                (room.number, room.code, int(room.public), game, now()),
            )
            for index, seat in enumerate(room.seats):
                self.store.execute(
                    "INSERT INTO room_seats (room, seat, key, name, ai, code)"
                    " VALUES (?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (room, seat) DO UPDATE SET key = excluded.key,"
                    " name = excluded.name, ai = excluded.ai, code = excluded.code",
                    (room.number, index, seat.key, seat.name, seat.ai, seat.code),
                )
            self.store.execute("DELETE FROM room_offers WHERE room = ?", (room.number,))
            for kind, seat_index in sorted(room.offers.items()):
                self.store.execute(
                    "INSERT INTO room_offers (room, kind, seat) VALUES (?, ?, ?)",
                    (room.number, kind, seat_index),
                )
        return game

    def forget(self, number: int) -> None:
        """The room has closed: it goes (its games stay), and nobody watches it."""
        self.store.execute("DELETE FROM rooms WHERE number = ?", (number,))
        WatcherRecords(self.store).forget(number)

    def load(self, numbers: Collection[int] | None = None) -> list[RoomRecord]:
        """Every room kept (only those of `numbers`, unless None), lowest number first."""
        rooms = self.store.rows(
            "SELECT r.number, r.code, r.public, r.game, g.name FROM rooms r"
            " JOIN games g ON g.id = r.game ORDER BY r.number"
        )
        if numbers is not None:  # a game's moves are the cost: only the rooms asked for
            rooms = [row for row in rooms if int(row[0]) in numbers]
        seats: dict[int, list[SeatRecord]] = {number: [] for number, *_ in rooms}
        for number, key, name, ai, code in self.store.rows(
            "SELECT room, key, name, ai, code FROM room_seats ORDER BY room, seat"
        ):
            if number in seats:
                seats[number].append(SeatRecord(key, name, ai, code))
        offers: dict[int, dict[str, int]] = {number: {} for number, *_ in rooms}
        for number, kind, seat in self.store.rows("SELECT room, kind, seat FROM room_offers"):
            if number in offers:
                offers[number][kind] = seat
        found = []
        for number, code, public, game, name in rooms:
            both = seats[number] + [SeatRecord()] * (2 - len(seats[number]))
            found.append(
                RoomRecord(
                    int(number),
                    code,
                    bool(public),
                    name,
                    self.games.record(int(game)),
                    (both[0], both[1]),
                    offers[number],
                )
            )
        return found

    def numbers(self) -> set[int]:
        return {int(number) for (number,) in self.store.rows("SELECT number FROM rooms")}
