"""A room service in a temporary state directory for each test."""

from __future__ import annotations

import pytest

from tests.rooms.support import clocked, running  # noqa: F401  # clocked: a fixture


@pytest.fixture
async def service(tmp_path):
    async with running(tmp_path / "state", ai_seconds=0.3) as service:
        yield service


@pytest.fixture
def store(tmp_path):
    """The community's store alone, in a temporary state directory."""
    from c4tui.server.store.opening import open_store

    with open_store(tmp_path) as store:
        yield store
