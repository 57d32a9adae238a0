"""PresenceRecords: who is online on which server, for servers sharing one database.

Each server keeps a row for every identity connected to it (`arrive` with its first
connection, `depart` with its last) and clears its own rows when it starts, so a server
that restarts does not show the people it had before. Whoever asks hands in the servers
that are live now (their heartbeats run): a server that died without a word drops its
people from every lobby as soon as its heartbeat stops, though its rows stay until it
comes back. Two sessions of one identity on two servers are one player online.
"""

from __future__ import annotations

from collections.abc import Collection

from c4tui.server.store.store import Store


class PresenceRecords:
    """The presence rows of every server, in one store; `server` is this one's."""

    def __init__(self, store: Store, server: str) -> None:
        self.store, self.server = store, server

    def arrive(self, key: str, name: str, when: float) -> None:
        """`key` is online here under `name` (again: its name may have changed)."""
        self.store.execute(
            "INSERT INTO presence (server, key, name, since) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (server, key) DO UPDATE SET name = excluded.name",
            (self.server, key, name, when),
        )

    def depart(self, key: str) -> None:
        """`key`'s last connection here has ended."""
        self.store.execute("DELETE FROM presence WHERE server = ? AND key = ?", (self.server, key))

    def clear(self) -> None:
        """This server has (re)started: nobody is connected to it yet."""
        self.store.execute("DELETE FROM presence WHERE server = ?", (self.server,))

    def online(self, live: Collection[str]) -> dict[str, str]:
        """Who is online on the other `live` servers: identity -> name (one entry per
        identity, the name it arrived under first)."""
        found: dict[str, str] = {}
        for server, key, name in self.store.rows(
            "SELECT server, key, name FROM presence WHERE server <> ? ORDER BY since, key",
            (self.server,),
        ):
            if server in live:
                found.setdefault(str(key), str(name))
        return found

    def servers_of(self, key: str, live: Collection[str]) -> list[str]:
        """The other `live` servers `key` is connected to, the earliest arrival first."""
        return [
            str(server)
            for (server,) in self.store.rows(
                "SELECT server FROM presence WHERE key = ? AND server <> ? ORDER BY since, server",
                (key, self.server),
            )
            if server in live
        ]
