"""ChallengeRecords: the store's part for open challenges (challenges.py), kept across restarts."""

from __future__ import annotations

from dataclasses import astuple

from c4tui.community.challenges import Challenge
from c4tui.community.store import Store

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
