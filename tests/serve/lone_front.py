"""An ssh front alone in a process, running the stand-in client: for killing it in tests.

Prints the port it listens on, then serves until killed. With a second argument `fork`,
its clients come from a fork server (c4tui/server/fronts/forks.py), and it prints the port once
that is ready.
"""

import asyncio
import sys
from pathlib import Path

from c4tui.server.fronts.client_process import ClientCommand
from c4tui.server.fronts.forks import Forks
from c4tui.server.fronts.session_limits import Gate, ServeLimits
from c4tui.server.fronts.ssh import SshFront
from tests.serve.conftest import ECHO_CLIENT, ECHO_ENTRY, token_for


async def main(state_dir: Path, fork: bool) -> None:
    command = ClientCommand(ECHO_CLIENT)
    front = SshFront(
        host="127.0.0.1",
        port=0,
        state_dir=state_dir,
        gate=Gate(ServeLimits()),
        command=command,
        credentials=token_for,
        forks=Forks(command, ECHO_ENTRY) if fork else None,
    )
    await front.start()
    if front.forks is not None:
        await front.forks.start()
        await front.forks.ready.wait()
    print(front.port, flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), sys.argv[2:] == ["fork"]))
