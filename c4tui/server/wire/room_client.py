"""RoomClient: a client process's connection to the room service (asyncio).

The served app (c4tui/match/remote.py) and the tests talk to the service through it:
`connect` says hello with the process's one-time token and returns
once the service has welcomed it; `send` makes a request; `receive` gives the service's
next message, or None when the connection has ended. The lobby comes whole once, then
as diffs (lobby_messages.py): `receive` applies each to the lobby it has and gives the
whole lobby, so its callers never see a diff.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from typing import Any

from c4tui.server.wire.kinds import client_message, parse_service_line
from c4tui.server.wire.lobby_messages import Lobby, LobbyDiff
from c4tui.server.wire.protocol import (
    VERSION,
    Hello,
    Message,
    Notice,
    ProtocolError,
    Welcome,
    encode,
)
from c4tui.server.wire.protocol import Identity as WelcomedAs

SOCKET_ENV = "C4TUI_ROOMS_SOCKET"
TOKEN_ENV = "C4TUI_ROOMS_TOKEN"
MAX_SERVICE_LINE = 4 << 20  # bytes: a list of kept games is the longest message


class RoomError(Exception):
    """The service could not be reached or sent us away; the message says why."""


class RoomClient:
    """One connection to the room service."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.welcome = Welcome(VERSION, WelcomedAs("", ""), 0.0)  # until the service says
        self.lobby = Lobby((), ())  # the lobby as the service last sent it, diffs applied

    @classmethod
    async def connect(
        cls,
        socket_path: str | os.PathLike[str],
        *,
        token: str,
    ) -> RoomClient:
        try:
            reader, writer = await asyncio.open_unix_connection(
                os.fspath(socket_path), limit=MAX_SERVICE_LINE
            )
        except OSError as error:
            raise RoomError(f"cannot reach the room service: {error.strerror or error}") from None
        client = cls(reader, writer)
        await client.send(Hello(VERSION, token))
        welcome = await client.receive()
        if not isinstance(welcome, Welcome):
            await client.close()
            reason = (
                "the service closed the connection"
                if welcome is None
                else getattr(welcome, "reason", welcome.kind)
            )
            raise RoomError(f"not admitted: {reason}")
        client.welcome = welcome
        return client

    @classmethod
    async def from_environment(cls) -> RoomClient:
        """Connect as the served app does, with what its front put in the environment."""
        socket_path = os.environ.get(SOCKET_ENV)
        if not socket_path:
            raise RoomError(f"{SOCKET_ENV} is not set: --served is for clients of c4tui serve")
        token = os.environ.pop(TOKEN_ENV, None)  # once used it is worthless; drop it anyway
        if not token:
            raise RoomError(f"{TOKEN_ENV} is not set: --served is for clients of c4tui serve")
        return await cls.connect(socket_path, token=token)

    async def send(self, message: Message | str, **body: Any) -> None:
        """Send a message (or one by its kind and fields: ProtocolError if it is not one)."""
        if isinstance(message, str):
            message = client_message(message, **body)
        try:
            self.writer.write(encode(message))
            await self.writer.drain()
        except (ConnectionError, RuntimeError) as error:
            raise RoomError(f"the room service has gone: {error}") from None

    async def receive(self) -> Message | None:
        """The service's next message; None when the connection has ended. A line that is
        not a message of the protocol comes as a Notice saying so."""
        try:
            line = await self.reader.readline()
        except (ConnectionError, ValueError):
            return None
        if not line.endswith(b"\n"):
            return None
        try:
            message = parse_service_line(line)
        except ProtocolError as error:
            return Notice(f"The server sent something unreadable: {error}", "error")
        if isinstance(message, LobbyDiff):
            message = self.lobby.applied(message)
        if isinstance(message, Lobby):
            self.lobby = message
        return message

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.wait_closed()
