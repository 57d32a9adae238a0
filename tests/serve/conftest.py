"""Fixtures of the fronts' tests: an ssh front on 127.0.0.1 running a stand-in client."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from pathlib import Path

import pytest

from c4tui.server.fronts.client_process import ClientCommand
from c4tui.server.fronts.forks import Forks
from c4tui.server.fronts.players import Player
from c4tui.server.fronts.session_limits import Gate, ServeLimits
from c4tui.server.fronts.ssh import SshFront

ECHO_CLIENT = (sys.executable, str(Path(__file__).with_name("echo_client.py")))
ECHO_ENTRY = f"{ECHO_CLIENT[1]}:main"  # the same, run by a fork server's child


def token_for(player: Player) -> dict[str, str]:
    """Stand-in credentials: the token names the player, so a test can see who it was."""
    return {"C4TUI_ROOMS_SOCKET": "/no/socket", "C4TUI_ROOMS_TOKEN": f"token:{player.key}"}


@pytest.fixture
def limits() -> ServeLimits:
    return ServeLimits(client_memory_mb=512, client_nice=5)


@contextlib.asynccontextmanager
async def running_front(state_dir: Path, limits: ServeLimits, authorized=None, fork=False):
    """An ssh front on 127.0.0.1 (a free port) running the stand-in client; with `fork`,
    from a fork server (ready before this yields)."""
    command = ClientCommand(ECHO_CLIENT, memory=limits.client_memory, nice=limits.client_nice)
    front = SshFront(
        host="127.0.0.1",
        port=0,
        state_dir=state_dir,
        gate=Gate(limits),
        command=command,
        credentials=token_for,
        authorized=authorized,
        forks=Forks(command, ECHO_ENTRY) if fork else None,
    )
    await front.start()
    if front.forks is not None:  # (the server starts it after its fronts, and stops it)
        await front.forks.start()
        await asyncio.wait_for(front.forks.ready.wait(), 60)
    try:
        yield front
    finally:
        await front.stop("the server is stopping")
        if front.forks is not None:
            await front.forks.stop()


@pytest.fixture
async def ssh_front(tmp_path, limits):
    async with running_front(tmp_path / "state", limits) as front:
        yield front
