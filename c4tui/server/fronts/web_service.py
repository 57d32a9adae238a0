"""A browser tab's client process behind textual-serve, forked by the fork server.

textual-serve's `AppService` runs one shell command per tab on three pipes and speaks the
web driver's packets over them. `TabService` changes only how that process starts (its
`_open_app_process`, the one step textual-serve leaves to a command): the fork server
(forks.py) forks the client on the three pipes, its imports done and their memory
shared, as it forks an ssh session's client on a PTY. The prelude, the packets, the
downloads and quitting stay textual-serve's. When the fork server cannot start it (none,
not ready yet, gone), the tab's client is started by exec through the confinement
program, as every tab's was before.
"""

from __future__ import annotations

import asyncio
import os
import shlex
from asyncio.streams import FlowControlMixin
from asyncio.subprocess import Process
from functools import partial
from pathlib import Path
from typing import Any, cast

from textual_serve.app_service import AppService

from c4tui.server.fronts.client_process import ClientCommand, PrivateHome
from c4tui.server.fronts.confine import WEB_DRIVER_VARIABLES
from c4tui.server.fronts.forks import ForkedClient, Forks

PID_FILE = "pid"  # in the client's private home: its process (group) id, for the front


class ForkedProcess:
    """What textual-serve reads of a client process it did not start: its three streams."""

    def __init__(
        self,
        client: ForkedClient,
        stdin: asyncio.StreamWriter,
        stdout: asyncio.StreamReader,
        stderr: asyncio.StreamReader,
    ) -> None:
        self.client = client
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr

    @property
    def pid(self) -> int:
        return self.client.pid

    @property
    def returncode(self) -> int | None:
        return self.client.returncode

    async def wait(self) -> int:
        return await self.client.wait()


class TabService(AppService):
    """One tab's client: forked when the fork server can, else started by exec; either
    way confined to `home` with `environment` (its token, its home) and the web driver's
    variables, and its process id written to the home's PID_FILE."""

    def __init__(
        self,
        command: ClientCommand,
        home: PrivateHome,
        environment: dict[str, str],
        forks: Forks | None,
        **service: Any,
    ) -> None:
        super().__init__("", **service)
        self.client_command = command
        self.home = home
        self.environment = environment
        self.forks = forks

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        driver = self._build_environment(width=width, height=height)
        environment = {name: driver[name] for name in WEB_DRIVER_VARIABLES if name in driver}
        env_file = self.home.keep_environment({**self.environment, **environment})
        pid_file = self.home.root / PID_FILE
        if self.forks is not None:
            forked = await self._fork(self.forks, env_file)
            if forked is not None:
                pid_file.write_text(str(forked.pid))
                # textual-serve reads only the three streams of what it holds as its
                # process, and writes through `_stdin`.
                self._process = cast(Process, forked)
                self._stdin = forked.stdin
                return self._process
        argv = self.client_command.confined(
            self.home.root, terminal=False, env_file=env_file, pid_file=pid_file
        )
        self.command = "exec " + shlex.join(argv)  # exec: the client is the server's own child
        return await super()._open_app_process(width, height)

    async def _fork(self, forks: Forks, env_file: Path) -> ForkedProcess | None:
        """The client forked on three new pipes, or None (its environment file is then
        still there, for the exec'd client)."""
        ends: list[int] = []
        theirs: list[int] = []
        try:
            for _ in range(3):
                read, write = os.pipe()
                ends += [read, write]
            # The child's ends: input's read end, output's and errors' write ends.
            theirs = [ends[0], ends[3], ends[5]]
            ours = [ends[1], ends[2], ends[4]]
            client = await forks.spawn(self.home.root, env_file, theirs)
        except BaseException:
            for fd in ends:
                os.close(fd)
            raise
        for fd in theirs:
            os.close(fd)
        if client is None:
            for fd in ours:
                os.close(fd)
            return None
        return await connected(client, *ours)


async def connected(client: ForkedClient, stdin: int, stdout: int, stderr: int) -> ForkedProcess:
    """The client's streams on the event loop, as asyncio's subprocesses have them."""
    loop = asyncio.get_running_loop()
    # Each pipe's file is closed by the transport that holds it (closing a file twice
    # is nothing), or here if the loop would not take it.
    pipes = [os.fdopen(stdout, "rb", 0), os.fdopen(stderr, "rb", 0), os.fdopen(stdin, "wb", 0)]
    readers = [asyncio.StreamReader(), asyncio.StreamReader()]
    try:
        for pipe, reader in zip(pipes, readers, strict=False):
            await loop.connect_read_pipe(partial(asyncio.StreamReaderProtocol, reader), pipe)
        transport, protocol = await loop.connect_write_pipe(FlowControlMixin, pipes[2])
    except BaseException:
        for pipe in pipes:
            pipe.close()
        raise
    writer = asyncio.StreamWriter(transport, protocol, None, loop)
    return ForkedProcess(client, writer, readers[0], readers[1])
