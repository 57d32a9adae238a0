"""Opening a server's bus: over PostgreSQL's LISTEN/NOTIFY, or alone beside a SQLite
store. Apart from bus.py, so the interface does not import its own implementations.
"""

from __future__ import annotations

from c4tui.server.cluster.bus import Bus, LocalBus


def open_bus(server: str, url: str | None) -> Bus:
    """The bus of the server `server`: over the PostgreSQL database at `url`, or alone
    (None: a SQLite store). It starts hearing at `start`."""
    if url is None:
        return LocalBus(server)
    from c4tui.server.cluster.bus_postgres import PostgresBus

    return PostgresBus(url, server)
