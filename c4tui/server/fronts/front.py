"""Front: what the ssh front and the web front share. Where one listens, the gate that
admits or refuses, how it starts a client, the players online, and the watch that ends
its idle sessions (idle.py), and the fork server its clients come from (forks.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from pathlib import Path

from c4tui.server.fronts.client_process import ClientCommand
from c4tui.server.fronts.forks import Forks
from c4tui.server.fronts.idle import Session, end_idle_sessions
from c4tui.server.fronts.players import Credentials, Players
from c4tui.server.fronts.session_limits import Gate


class Front:
    """The ground a front of `c4tui serve` stands on; `kind` names it in log lines."""

    kind = ""

    def __init__(
        self,
        *,
        host: str,
        port: int,
        state_dir: Path,
        gate: Gate,
        command: ClientCommand,
        credentials: Credentials,
        forks: Forks | None = None,
    ) -> None:
        """`forks`: the fork server that starts the clients, shared by the fronts and
        started and stopped by their owner (the server); None to start each by exec."""
        self.host, self.port = host, port
        self.state_dir = state_dir
        self.gate = gate
        self.command = command
        self.credentials = credentials
        self.forks = forks
        self.players = Players()
        self.idle_watch: asyncio.Task[None] | None = None

    def watch_idle(self, sessions: Collection[Session]) -> None:
        """From now on, end each of `sessions` that goes without a key too long."""
        self.idle_watch = asyncio.create_task(end_idle_sessions(self.gate, sessions, self.kind))

    async def end_all(self, sessions: Collection[Session], message: str) -> None:
        """Stop the idle watch and end every session with `message` on its screen."""
        if self.idle_watch is not None:
            self.idle_watch.cancel()
        await asyncio.gather(*(session.end(message) for session in list(sessions)))
