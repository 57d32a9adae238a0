"""ServerRecords: which servers of a community are alive, by their heartbeats.

Each server writes its heartbeat (`beat`) every third of its lease (the host does it as
it renews its leases); a server whose last heartbeat is older than half a lease has
missed one and is silent (its relayed players are told its game is moving, while its
leases still run); one whose last heartbeat is older than a lease's length is dead: the
rooms it held go to a live server (room_leases.py), and the players it relayed to other
servers' rooms are let go there (server/rooms/relay.py). The time is each server's Unix
clock, as the leases' is: the servers' clocks must agree (NTP).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from c4tui.server.store.store import Store

# A server silent this long is forgotten (its row deleted at another's heartbeat): every
# live server noticed it gone within a lease, and a server taken out of service for good
# (a new --state directory is a new server) would otherwise stay in the table forever.
FORGET_AFTER = 7 * 24 * 3600.0


class ServerRecords:
    """The heartbeats of the server `server`, and who else lives (`seconds`: the longest
    silence of a live server)."""

    def __init__(
        self,
        store: Store,
        server: str,
        seconds: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store, self.server, self.seconds, self.clock = store, server, seconds, clock
        self.started = clock()

    def beat(self) -> None:
        """This server lives (its row made at its first beat, with when it started); the
        servers silent for FORGET_AFTER are forgotten."""
        now = self.clock()
        self.store.execute(
            "INSERT INTO servers (server, started, seen) VALUES (?, ?, ?)"
            " ON CONFLICT (server) DO UPDATE SET started = excluded.started,"
            " seen = excluded.seen",
            (self.server, self.started, now),
        )
        self.store.execute("DELETE FROM servers WHERE seen < ?", (now - FORGET_AFTER,))

    def live(self) -> list[str]:
        """The servers alive now (this one among them once it has beaten), by name."""
        return [
            str(server)
            for (server,) in self.store.rows(
                "SELECT server FROM servers WHERE seen >= ? ORDER BY server",
                (self.clock() - self.seconds,),
            )
        ]

    def seen(self) -> dict[str, float]:
        """Each server's last heartbeat (Unix seconds by its clock), the long silent too."""
        return {
            str(server): float(seen)
            for server, seen in self.store.rows("SELECT server, seen FROM servers")
        }

    def stopped(self) -> None:
        """This server stops cleanly: it is gone at once, not after a lease's silence."""
        self.store.execute("DELETE FROM servers WHERE server = ?", (self.server,))
