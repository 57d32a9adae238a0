"""A room service in a temporary state directory for each test."""

from __future__ import annotations

import pytest

from c4tui.rooms.service import RoomLimits, RoomService


@pytest.fixture
async def service(tmp_path):
    service = RoomService(tmp_path / "state", RoomLimits(ai_workers=1, ai_seconds=0.3))
    await service.start()
    yield service
    await service.close()
