"""RoomLeases: each room is played by one server at a time, the one holding its lease.

Several `c4tui serve` on one database (PostgreSQL) share the rooms: a server takes a
room's lease before it first keeps the room, renews its leases every few seconds, and
keeps a room only while the lease is its own (`take` runs in the same transaction as the
room's record, so a server that lost a room cannot write over the one that took it). A
server that dies stops renewing; once its leases expire a live server takes the rooms
and loads them from the store, from the last move anyone was shown.

A lease is taken with one upsert (INSERT ... ON CONFLICT DO UPDATE ... WHERE the row is
ours or expired): PostgreSQL locks the row and checks the condition on its newest
version, so of two servers taking one room at once exactly one gets it. Expiry is in
Unix seconds by each server's clock: the servers' clocks must agree (NTP) to well within
the lease's length.
"""

from __future__ import annotations

import hashlib
import socket
import time
from collections.abc import Callable
from pathlib import Path

from c4tui.server.store.store import Store


class LeaseLost(Exception):
    """Another server holds this room's lease: this one no longer plays it."""


def server_id(state_dir: Path) -> str:
    """This server's name in the leases: its host and state directory, so a server that
    restarts holds its own leases again at once (each server has its own --state)."""
    where = hashlib.sha256(str(state_dir.resolve()).encode()).hexdigest()[:12]
    return f"{socket.gethostname()}:{where}"


class RoomLeases:
    """The leases of one server (`server`), each `seconds` long, by `clock` (Unix seconds)."""

    def __init__(
        self,
        store: Store,
        server: str,
        seconds: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store, self.server, self.seconds, self.clock = store, server, seconds, clock

    def take(self, room: int) -> bool:
        """Take or renew the lease of `room`: whether this server holds it now (False
        while another's lease runs)."""
        now = self.clock()
        return bool(
            self.store.rows(
                "INSERT INTO room_leases (room, server, expires) VALUES (?, ?, ?)"
                " ON CONFLICT (room) DO UPDATE SET server = excluded.server,"
                " expires = excluded.expires"
                " WHERE room_leases.server = excluded.server OR room_leases.expires < ?"
                " RETURNING room",
                (room, self.server, now + self.seconds, now),
            )
        )

    def hold(self, room: int) -> None:
        """Take or renew the lease of `room`, or LeaseLost (called in the transaction
        that keeps the room)."""
        if not self.take(room):
            raise LeaseLost(f"room {room} is leased to another server")

    def renew(self) -> set[int]:
        """Renew every lease this server holds; the rooms it holds."""
        self.store.execute(
            "UPDATE room_leases SET expires = ? WHERE server = ?",
            (self.clock() + self.seconds, self.server),
        )
        return {
            int(n)
            for (n,) in self.store.rows(
                "SELECT room FROM room_leases WHERE server = ?", (self.server,)
            )
        }

    def free(self) -> list[int]:
        """The rooms kept with no lease running (their server died or let them go)."""
        return [
            int(n)
            for (n,) in self.store.rows(
                "SELECT r.number FROM rooms r LEFT JOIN room_leases l ON l.room = r.number"
                " WHERE l.room IS NULL OR (l.expires < ? AND l.server <> ?) ORDER BY r.number",
                (self.clock(), self.server),
            )
        ]

    def elsewhere(self) -> dict[int, str]:
        """The rooms other servers hold now, with the server of each."""
        return {
            int(n): str(s)
            for n, s in self.store.rows(
                "SELECT room, server FROM room_leases WHERE server <> ? AND expires >= ?",
                (self.server, self.clock()),
            )
        }

    def last_heard(self) -> dict[int, float]:
        """The rooms leased to other servers (their leases running or not), each with
        its server's last heartbeat (Unix seconds; bus_servers.py)."""
        return {
            int(n): float(seen)
            for n, seen in self.store.rows(
                "SELECT l.room, s.seen FROM room_leases l JOIN servers s ON s.server = l.server"
                " WHERE l.server <> ?",
                (self.server,),
            )
        }

    def highest(self) -> int:
        """The highest room number kept or leased by any server (0: none)."""
        value = self.store.value(
            "SELECT MAX(n) FROM (SELECT number AS n FROM rooms"
            " UNION ALL SELECT room AS n FROM room_leases) numbers"
        )
        return 0 if value is None else int(value)

    def release(self, room: int) -> None:
        """Let `room` go (it closed, or this server stops)."""
        self.store.execute(
            "DELETE FROM room_leases WHERE room = ? AND server = ?", (room, self.server)
        )

    def release_all(self) -> None:
        self.store.execute("DELETE FROM room_leases WHERE server = ?", (self.server,))

    def clear(self) -> None:
        """Every lease goes (a database only this server uses: a SQLite file)."""
        self.store.execute("DELETE FROM room_leases")
