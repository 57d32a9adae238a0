"""Helpers for the room service's tests: a service in a temporary directory, clients."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from c4tui.server.service.service import Identity, RoomLimits, RoomService
from c4tui.server.wire.codec import to_wire
from c4tui.server.wire.room_client import RoomClient

PATIENCE = 60.0  # seconds before a test gives up on a message that never comes


class Time:
    """A time the test moves by hand (`moved`), handed to a service as its `now`."""

    def __init__(self, start: float = 1000.0) -> None:
        self.seconds = start

    def __call__(self) -> float:
        return self.seconds

    def moved(self, seconds: float) -> None:
        self.seconds += seconds


class Clocked(NamedTuple):
    service: RoomService
    time: Time


@pytest.fixture
async def clocked(tmp_path: Path) -> AsyncIterator[Clocked]:
    """A service and the time it runs on, moved by the test (a fixture of the conftests
    of tests/rooms and tests/app)."""
    time = Time()
    async with running(tmp_path / "state", time, ai_seconds=0.3) as service:
        yield Clocked(service, time)


@contextlib.asynccontextmanager
async def running(
    state: Path, now: Time | None = None, **limits: Any
) -> AsyncIterator[RoomService]:
    """A started service in `state`, with one AI worker, no pause between a tournament's
    rounds and these limits (and the time `now`, when given); closed after."""
    limits = {"ai_workers": 1, "round_pause": 0.0, **limits}
    service = RoomService(state, RoomLimits(**limits), now=now)
    await service.start()
    try:
        yield service
    finally:
        await service.close()


async def login(service: RoomService, name: str, key: str | None = None) -> RoomClient:
    identity = Identity(key or f"ssh-name:{name}", name, "127.0.0.1")
    return await RoomClient.connect(service.socket_path, token=service.issue_token(identity))


async def next_of(client: RoomClient, kind: str, where=lambda message: True) -> dict[str, Any]:
    """The next message of this kind (and matching `where`); others are skipped."""

    async def look() -> dict[str, Any]:
        while True:
            received = await client.receive()
            if received is None:
                raise ConnectionError(f"connection ended while waiting for {kind}")
            # The declared message as the wire has it, so a test reads what was sent.
            message = {"kind": received.kind, **to_wire(received)}
            if message["kind"] == kind and where(message):
                return message

    return await asyncio.wait_for(look(), PATIENCE)


async def room_where(client: RoomClient, where) -> dict[str, Any]:
    return await next_of(client, "room", where)
