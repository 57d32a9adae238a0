"""ChallengeRecords: the store's part for open challenges (challenges.py), kept across restarts.

One server keeps only correspondence challenges here (they wait days, across restarts).
Servers sharing one database keep every open challenge here, the store being their one
challenge book: each change is made in `locked`, a transaction under a lock that
PostgreSQL holds until the commit, on the challenges as they are in the store then; so
a challenge gets a number no other server gives, and is answered once.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import astuple

from c4tui.community.challenges import Challenge
from c4tui.server.store.store import Store

CHALLENGE_LOCK = 0x43345443  # PostgreSQL's advisory lock that servers change challenges under
COLUMNS = (
    "id, challenger, challenger_name, opponent, opponent_name, control, rated,"
    " correspondence, made, expires"
)


class ChallengeRecords:
    """Open challenges, in one store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def keep(self, challenge: Challenge) -> None:
        values = list(astuple(challenge))
        values[6:8] = [int(challenge.rated), int(challenge.correspondence)]
        self.store.execute(
            f"INSERT INTO challenges ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (id) DO NOTHING",
            values,
        )

    def forget(self, number: int) -> None:
        self.store.execute("DELETE FROM challenges WHERE id = ?", (number,))

    @contextmanager
    def locked(self) -> Iterator[list[Challenge]]:
        """A transaction under the challenges' lock, with every open challenge as it is
        now (what the caller keeps or forgets inside is seen by the next to lock)."""
        with self.store.transaction():
            if self.store.dialect == "postgresql":
                self.store.execute("SELECT pg_advisory_xact_lock(?)", (CHALLENGE_LOCK,))
            yield self.load()

    def load(self) -> list[Challenge]:
        rows = self.store.rows(f"SELECT {COLUMNS} FROM challenges ORDER BY id")
        return [
            Challenge(
                int(row[0]),
                str(row[1]),
                str(row[2]),
                str(row[3]),
                str(row[4]),
                str(row[5]),
                bool(row[6]),
                bool(row[7]),
                float(row[8]),
                float(row[9]),
            )
            for row in rows
        ]
