"""WatcherRecords: who watches which room, kept for the server that takes the room next.

The seats of a room are kept with it (room_records.py); its spectators only here: a
row while a person watches (one room a person, the last), gone when they leave it or
it closes. A server that dies leaves its spectators' rows behind, and that is their
use: the server that takes its rooms over, or the one a spectator connects to again,
finds what they watched (server/rooms/watching.py).
"""

from __future__ import annotations

from collections.abc import Collection

from c4tui.server.store.store import Store


class WatcherRecords:
    """The room_watchers rows, in one store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def watch(self, key: str, room: int, when: float) -> None:
        """`key` watches `room` now (and no other)."""
        self.store.execute(
            "INSERT INTO room_watchers (key, room, since) VALUES (?, ?, ?)"
            " ON CONFLICT (key) DO UPDATE SET room = excluded.room, since = excluded.since",
            (key, room, when),
        )

    def unwatch(self, key: str, room: int) -> None:
        """`key` no longer watches `room` (a later room of theirs stays)."""
        self.store.execute("DELETE FROM room_watchers WHERE key = ? AND room = ?", (key, room))

    def forget(self, room: int) -> None:
        """The room has closed: nobody watches it."""
        self.store.execute("DELETE FROM room_watchers WHERE room = ?", (room,))

    def watched_by(self, key: str) -> int | None:
        """The room `key` watches, if any."""
        row = self.store.row("SELECT room FROM room_watchers WHERE key = ?", (key,))
        return None if row is None else int(row[0])

    def watching(self, rooms: Collection[int]) -> dict[str, int]:
        """Who watches these rooms, and which."""
        if not rooms:
            return {}
        marks = ", ".join("?" * len(rooms))
        return {
            str(key): int(room)
            for key, room in self.store.rows(
                f"SELECT key, room FROM room_watchers WHERE room IN ({marks})", tuple(rooms)
            )
        }
