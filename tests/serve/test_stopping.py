"""Stopping `c4tui serve`: SIGHUP (its terminal closed) stops it as Ctrl-C does, and a
burst of signals while it stops never cuts the stop short."""

from __future__ import annotations

import asyncio
import signal

from tests.serve.served import served
from tests.serve.terminal import screen_session, wait_gone
from tests.serve.test_play_together import LOBBY, SIZE, client_pids


async def stopped_cleanly(server, session, clients) -> None:
    await session.wait_end()
    assert "server is stopping" in session.raw.decode(errors="replace")
    await wait_gone(*clients)
    assert not (server.state_dir / "run" / "rooms.sock").exists()
    assert not list((server.state_dir / "clients").iterdir())
    assert "Traceback" not in server.log.decode()


async def test_sighup_stops_the_server_and_tells_the_players(tmp_path):
    async with (
        served(tmp_path, "--no-web") as server,
        screen_session(server.ssh_port, "ann", **SIZE) as ann,
    ):
        await ann.wait_for(LOBBY)
        clients = client_pids(server)
        assert await server.stop(signal.SIGHUP) == 0
        await stopped_cleanly(server, ann, clients)


async def test_ten_signals_while_stopping_do_not_cut_it_short(tmp_path):
    async with (
        served(tmp_path, "--no-web") as server,
        screen_session(server.ssh_port, "ann", **SIZE) as ann,
    ):
        await ann.wait_for(LOBBY)
        clients = client_pids(server)
        for number in [signal.SIGINT, signal.SIGTERM] * 5:
            if server.process.returncode is None:
                server.process.send_signal(number)
            await asyncio.sleep(0.02)
        assert await server.stop() == 0
        await stopped_cleanly(server, ann, clients)
