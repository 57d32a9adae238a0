"""Helpers for the room service's tests: a service in a temporary directory, clients."""

from __future__ import annotations

import asyncio
from typing import Any

from c4tui.rooms.client import RoomClient
from c4tui.rooms.service import Identity, RoomService

PATIENCE = 60.0  # seconds before a test gives up on a message that never comes


async def login(service: RoomService, name: str, key: str | None = None) -> RoomClient:
    identity = Identity(key or f"ssh-name:{name}", name, "127.0.0.1")
    return await RoomClient.connect(service.socket_path, token=service.issue_token(identity))


async def next_of(client: RoomClient, kind: str, where=lambda message: True) -> dict[str, Any]:
    """The next message of this kind (and matching `where`); others are skipped."""

    async def look() -> dict[str, Any]:
        while True:
            message = await client.receive()
            if message is None:
                raise ConnectionError(f"connection ended while waiting for {kind}")
            if message["kind"] == kind and where(message):
                return message

    return await asyncio.wait_for(look(), PATIENCE)


async def room_where(client: RoomClient, where) -> dict[str, Any]:
    return await next_of(client, "room", where)
