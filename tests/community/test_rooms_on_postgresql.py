"""The room service on PostgreSQL (`c4tui serve --store URL`): a game kept move by move
comes back after a restart, and a second server on the same database is refused."""

from __future__ import annotations

import pytest

from c4tui.community.store import StoreError
from c4tui.rooms.service import RoomService
from tests.rooms.support import login, room_where


async def test_a_game_on_postgresql_comes_back_after_a_restart(postgres, tmp_path):
    url = postgres.fresh_url()
    service = RoomService(tmp_path / "state", store_url=url)
    await service.start()
    try:
        second = RoomService(tmp_path / "other", store_url=url)
        with pytest.raises(StoreError, match="another c4tui serve is using this database"):
            await second.start()
        ann, bob = await login(service, "ann"), await login(service, "bob")
        await ann.send("create")
        code = (await room_where(ann, lambda m: m["seat"] == 0))["code"]
        await bob.send("join", code=code)
        await room_where(bob, lambda m: m["seat"] == 1)
        for ply, col in enumerate("445"):
            await (ann, bob)[ply % 2].send("drop", column=int(col) - 1, ply=ply)
            await room_where(ann, lambda m, n=ply + 1: len(m["moves"]) == n)
        await ann.close()
        await bob.close()
    finally:
        await service.close()
    again = RoomService(tmp_path / "state", store_url=url)  # the lock went with the first
    await again.start()
    try:
        ann = await login(again, "ann")
        back = await room_where(ann, lambda m: m["seat"] == 0)
        assert back["moves"] == "445" and back["seats"][1]["name"] == "bob"
        await ann.close()
    finally:
        await again.close()
