"""An ssh front alone in a process, running the stand-in client: for killing it in tests.

Prints the port it listens on, then serves until killed.
"""

import asyncio
import sys
from pathlib import Path

from c4tui.serve.client_process import ClientCommand
from c4tui.serve.session_limits import Gate, ServeLimits
from c4tui.serve.ssh import SshFront
from tests.serve.conftest import ECHO_CLIENT, token_for


async def main(state_dir: Path) -> None:
    front = SshFront(
        host="127.0.0.1",
        port=0,
        state_dir=state_dir,
        gate=Gate(ServeLimits()),
        command=ClientCommand(ECHO_CLIENT),
        credentials=token_for,
    )
    await front.start()
    print(front.port, flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
