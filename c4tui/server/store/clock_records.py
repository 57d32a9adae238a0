"""ClockRecords: the store's part for the clocks of rooms with a time control.

A room's clock is kept in `room_clocks` (migration 030) as `Clock.kept()` says it: the
time control, each side's time left as of its last charge, whose time runs, and when
that charge was (migration 032). The room service keeps it with its room, in the room's
transaction (server/rooms/keeping.py); a room without a clock has no row. What is read
back is checked by `Clock.resumed`.
"""

from __future__ import annotations

from typing import Any

from c4tui.server.store.store import Store


class ClockRecords:
    """The rooms' clocks, in one store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def keep(self, room: int, kept: dict[str, Any] | None, charged: float | None = None) -> None:
        """Keep a room's clock (`Clock.kept()`'s form, last charged at `charged`, Unix
        seconds), or none when `kept` is None."""
        if kept is None:
            self.store.execute("DELETE FROM room_clocks WHERE room = ?", (room,))
            return
        control, (first, second) = kept["control"], kept["left"]
        self.store.execute(
            "INSERT INTO room_clocks"
            " (room, minutes, increment, days, left_first, left_second, running, charged)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (room) DO UPDATE SET minutes = excluded.minutes,"
            " increment = excluded.increment, days = excluded.days,"
            " left_first = excluded.left_first, left_second = excluded.left_second,"
            " running = excluded.running, charged = excluded.charged",
            (
                room,
                control["minutes"],
                control["increment"],
                control["days"],
                first,
                second,
                kept["running"],
                charged,
            ),
        )

    def load(self) -> dict[int, dict[str, Any]]:
        """Every room's kept clock, by room number (`Clock.kept()`'s form)."""
        return {
            int(room): {
                "control": {"minutes": minutes, "increment": increment, "days": days},
                "left": [first, second],
                "running": running,
            }
            for room, minutes, increment, days, first, second, running in self.store.rows(
                "SELECT room, minutes, increment, days, left_first, left_second, running"
                " FROM room_clocks"
            )
        }

    def charged(self, rooms: list[int]) -> dict[int, float]:
        """When each of these rooms' clocks was last charged (Unix seconds), where known."""
        return {
            int(room): float(at)
            for room, at in self.store.rows("SELECT room, charged FROM room_clocks")
            if int(room) in rooms and at is not None
        }
