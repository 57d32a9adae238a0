"""Stopping `c4tui serve`: SIGHUP (its terminal closed) stops it as Ctrl-C does, and a
burst of signals while it stops never cuts the stop short."""

from __future__ import annotations

import asyncio
import signal

from tests.serve.served import served
from tests.serve.terminal import screen_session, wait_gone
from tests.serve.test_play_together import LOBBY, SIZE, client_pids


async def test_sighup_then_nine_more_signals_stop_the_server_whole(tmp_path):
    async with (
        served(tmp_path, "--no-web") as server,
        screen_session(server.ssh_port, "ann", **SIZE) as ann,
    ):
        await ann.wait_for(LOBBY)
        clients = client_pids(server)
        # The terminal that ran it closes, then someone presses Ctrl-C again and again.
        for number in [signal.SIGHUP] + [signal.SIGINT, signal.SIGTERM] * 4 + [signal.SIGINT]:
            if server.process.returncode is None:
                server.process.send_signal(number)
            await asyncio.sleep(0.02)
        assert await server.stop() == 0
        await ann.wait_end()
        assert "server is stopping" in ann.raw.decode(errors="replace")
        await wait_gone(*clients)
    assert not (tmp_path / "run" / "rooms.sock").exists()
    assert not list((tmp_path / "clients").iterdir())
    assert "Traceback" not in server.log.decode()
