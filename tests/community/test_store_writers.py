"""The store's writers (server/store/writer.py): as many PostgreSQL connections as the
operator's `--store-writers` says; SQLite, with its one write lock, always one."""

from __future__ import annotations

import pytest

from c4tui.server.service.service import RoomService
from c4tui.server.wire.identity import RoomLimits


@pytest.mark.slow  # 0.4-0.8 s: a server on PostgreSQL
async def test_a_server_on_postgresql_writes_through_as_many_connections_as_it_is_told(
    postgres, tmp_path
):
    count = 3
    service = RoomService(
        tmp_path / "state", RoomLimits(store_writers=count), store_url=postgres.fresh_url()
    )
    await service.start()
    try:
        writers = service.host.line.writers
        assert writers is not None and len(writers.writers) == count
        stores = {id(writer.store) for writer in writers.writers}
        assert len(stores) == count and id(service.host.store) not in stores
    finally:
        await service.close()


async def test_a_server_on_sqlite_has_one_writer_whatever_it_is_told(tmp_path):
    service = RoomService(tmp_path / "state", RoomLimits(store_writers=3))
    await service.start()
    try:
        writers = service.host.line.writers
        assert writers is not None and len(writers.writers) == 1
    finally:
        await service.close()
