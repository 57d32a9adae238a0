"""BellRecords: whether each player wants a terminal bell when it becomes their move.

A player with many correspondence games waits in the lobby or plays another game; when
an opponent moves in one of theirs, the room service tells them, with a bell unless
they turned it off in the lobby (migration 031: `player_bells`; no row is on).
"""

from __future__ import annotations

from c4tui.server.store.store import Store


class BellRecords:
    """The players' bell toggles, in one store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def wanted(self, key: str) -> bool:
        """Whether the player with this identity key wants the bell (on unless turned off)."""
        bell = self.store.value("SELECT bell FROM player_bells WHERE key = ?", (key,))
        return bell is None or bool(bell)

    def keep(self, key: str, on: bool) -> None:
        self.store.execute(
            "INSERT INTO player_bells (key, bell) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET bell = excluded.bell",
            (key, int(on)),
        )
