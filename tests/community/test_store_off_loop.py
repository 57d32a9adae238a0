"""The server's own statements are off the event loop: while the database holds its
lease renewal, its heartbeat or its timed read of the other servers' people (frozen,
until its statement timeout), the rooms play on and a move is shown at once."""

from __future__ import annotations

import asyncio
import threading

import pytest

from c4tui.server.cluster.bus_servers import ServerRecords
from c4tui.server.cluster.presence import PresenceRecords
from c4tui.server.cluster.room_leases import RoomLeases
from c4tui.server.rooms.other_servers import REFRESH_EVERY
from c4tui.server.service.service import RoomService
from tests.community.two_servers import a_game, play
from tests.rooms.support import PATIENCE


@pytest.mark.slow  # a server on PostgreSQL
@pytest.mark.parametrize(
    ("held", "statement"),
    [(RoomLeases, "renew"), (ServerRecords, "beat"), (PresenceRecords, "online")],
)
async def test_a_move_is_shown_while_the_database_holds_the_servers_own_statement(
    postgres, tmp_path, monkeypatch, held, statement
):
    service = RoomService(tmp_path / "state", store_url=postgres.fresh_url())
    await service.start()
    try:
        ann, bob, _ = await a_game(service, service)
        happened: list[str] = []
        holding, thaw = threading.Event(), threading.Event()
        done = getattr(held, statement)

        def frozen(self, *args):
            if not holding.is_set():  # the first one: held as a frozen database holds
                holding.set()  # a statement, until its timeout
                thaw.wait(PATIENCE)
                happened.append("answered")
            return done(self, *args)

        monkeypatch.setattr(held, statement, frozen)
        if held is PresenceRecords:  # the next tick reads the other servers' people
            service.requests.others._ticks = REFRESH_EVERY - 1
        else:  # due now: the next tick sees to the leases
            service.host.leasing.due = 0.0
        await asyncio.to_thread(holding.wait, PATIENCE)
        await play("4", (ann, bob), ann, bob)
        happened.append("shown")
        thaw.set()
        assert happened[0] == "shown", happened
        await ann.close()
        await bob.close()
    finally:
        thaw.set()
        await service.close()
