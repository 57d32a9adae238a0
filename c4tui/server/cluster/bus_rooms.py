"""RoomsElsewhere: the rooms other live servers hold, found by number, code or seat.

A player connected to one server reaches a room another server holds through that server
(server/rooms/relay.py); these are the questions its server asks the store first. A room is
another's while that server's lease on it runs (room_leases.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from c4tui.server.store.store import Store

_HELD = "SELECT room, server FROM room_leases WHERE server <> ? AND expires >= ?"


class RoomsElsewhere:
    """What the server `server` asks of the rooms the others hold (by `clock`, Unix seconds)."""

    def __init__(self, store: Store, server: str, clock: Callable[[], float] = time.time) -> None:
        self.store, self.server, self.clock = store, server, clock

    def holder(self, number: int) -> str | None:
        """The other server holding room `number`, None when none does."""
        row = self.store.row(f"{_HELD} AND room = ?", (self.server, self.clock(), number))
        return None if row is None else str(row[1])

    def by_code(self, code: str) -> tuple[int, str] | None:
        """The room another server holds whose code, or one of whose taken seats' code,
        is `code` (normalised as the rooms keep it), with that server."""
        row = self.store.row(
            f"{_HELD} AND room IN (SELECT number FROM rooms WHERE code = ?"
            " UNION SELECT room FROM room_seats WHERE code = ? AND key IS NOT NULL)",
            (self.server, self.clock(), code, code),
        )
        return None if row is None else (int(row[0]), str(row[1]))

    def seats_in(self, numbers: list[int]) -> dict[str, int]:
        """Who has a seat in these rooms (a game at one sitting), and in which."""
        if not numbers:
            return {}
        marks = ", ".join("?" * len(numbers))
        return {
            str(key): int(room)
            for key, room in self.store.rows(
                f"SELECT key, room FROM room_seats WHERE room IN ({marks}) AND key IS NOT NULL"
                f" AND room NOT IN (SELECT room FROM room_clocks WHERE days > 0)",
                tuple(numbers),
            )
        }

    def seated(self, key: str) -> tuple[int, str] | None:
        """The lowest-numbered room another server holds where `key` has a seat, in a game
        played at one sitting (a correspondence game waits in the lobby), with its server."""
        row = self.store.row(
            f"{_HELD} AND room IN (SELECT room FROM room_seats WHERE key = ?)"
            " AND room NOT IN (SELECT room FROM room_clocks WHERE days > 0) ORDER BY room",
            (self.server, self.clock(), key),
        )
        return None if row is None else (int(row[0]), str(row[1]))
