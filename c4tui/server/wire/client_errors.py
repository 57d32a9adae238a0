"""What stopped a served client goes to the server's log, never to the player's screen.

A client of `c4tui serve` draws on a stranger's terminal (an ssh PTY, a browser's page),
where a traceback would show the host's source paths and whatever its local values held.
So the server names a file in the client's private home (`ERRORS_ENV`); the client
writes an error's whole text there (`keep`: app/served_errors.py for the app, the fork
server for a child that failed before it) and tells the player `TOLD`; the server logs
the file when the client ends (server/fronts/client_process.py).
"""

from __future__ import annotations

import contextlib
import os

ERRORS_ENV = "C4TUI_CLIENT_ERRORS"
TOLD = "c4tui: this session stopped on an error; the server has logged it. Log in again to go on."


def keep(details: str) -> None:
    """Add an error's whole text to the server's file (no file named: it is said nowhere)."""
    place = os.environ.get(ERRORS_ENV)
    if place and details:
        with contextlib.suppress(OSError), open(place, "a", encoding="utf-8") as errors:
            errors.write(details if details.endswith("\n") else details + "\n")
