"""TournamentRunners: each tournament is run by one server at a time (several servers).

Every server on one database lists every tournament, and takes entries, withdrawals and
game results for it (each a change under the tournaments' lock: tournament_records.py);
one server, its runner, pairs its rounds and makes their rooms. The runner holds a
lease on the tournament, in the tournament's own row, renewed on every look at the
tournaments (each second): `take` succeeds when the tournament has no runner, is this
server's already, or its runner's lease ran out (a server that died), and PostgreSQL
checks that on the row's newest version under its lock, so two servers never both run
one tournament. Time is each server's clock in Unix seconds, as the rooms' leases'.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from c4tui.server.store.store import Store


class TournamentRunners:
    """The tournaments one server (`server`) runs, each lease `seconds` long."""

    def __init__(
        self, store: Store, server: str, seconds: float, clock: Callable[[], float] = time.time
    ) -> None:
        self.store, self.server, self.seconds, self.clock = store, server, seconds, clock

    def take(self, number: int) -> bool:
        """Take or renew the lease of tournament `number`: whether this server runs it."""
        now = self.clock()
        return bool(
            self.store.execute(
                "UPDATE tournaments SET runner = ?, runner_until = ? WHERE id = ?"
                " AND (runner IS NULL OR runner = ? OR runner_until < ?)",
                (self.server, now + self.seconds, number, self.server, now),
            )
        )

    def runner(self, number: int) -> str | None:
        """The server whose lease on the tournament runs now, if any."""
        found = self.store.value(
            "SELECT runner FROM tournaments WHERE id = ? AND runner_until >= ?",
            (number, self.clock()),
        )
        return None if found is None else str(found)

    def release_all(self) -> None:
        """This server stops: another may run its tournaments at once."""
        self.store.execute(
            "UPDATE tournaments SET runner = NULL, runner_until = NULL WHERE runner = ?",
            (self.server,),
        )

    def clear(self) -> None:
        """Nobody runs any (a database only this server uses: a SQLite file)."""
        self.store.execute("UPDATE tournaments SET runner = NULL, runner_until = NULL")
