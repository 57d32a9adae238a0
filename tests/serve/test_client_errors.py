"""An error that stops a served client: one line to the player, the details in the log."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from c4tui.server.fronts.client_process import ClientCommand
from c4tui.server.fronts.session_limits import Gate
from c4tui.server.fronts.ssh import SshFront
from c4tui.server.wire.client_errors import TOLD
from tests.serve.conftest import token_for
from tests.serve.crashing_client import SECRET
from tests.serve.terminal import screen_session

CRASHING_CLIENT = (sys.executable, str(Path(__file__).with_name("crashing_client.py")))


async def test_a_client_error_reaches_the_player_as_one_line_and_the_log_whole(
    tmp_path, limits, caplog
):
    command = ClientCommand(CRASHING_CLIENT, memory=limits.client_memory, nice=limits.client_nice)
    front = SshFront(
        host="127.0.0.1",
        port=0,
        state_dir=tmp_path / "state",
        gate=Gate(limits),
        command=command,
        credentials=token_for,
    )
    await front.start()
    try:
        with caplog.at_level(logging.ERROR, logger="c4tui.server"):
            async with screen_session(front.port, columns=200, rows=50) as session:
                await session.wait_for(TOLD)
                assert await session.wait_end() == 1
                screen = session.text()
    finally:
        await front.stop("the server is stopping")
    assert "Traceback" not in screen and SECRET not in screen and "RuntimeError" not in screen
    assert str(Path(sys.modules["c4tui"].__file__).parent) not in screen  # no source path
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "ssh 127.0.0.1: its client stopped on an error" in logged
    assert "RuntimeError: the lobby fell over" in logged
    assert 'crashing_client.py", line 18, in fall_over' in logged
