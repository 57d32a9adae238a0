"""Forks: the server's side of the fork server (fork_server.py), which starts its clients.

`Forks.start()` runs the fork server, which imports the client once; `spawn()` asks it for
a client on a PTY (an ssh session's) or on pipes (a browser tab's, web_service.py) and
returns a `ForkedClient`, which a `TerminalClient` waits on and
signals as it would a process of its own. When the fork server cannot start, or dies,
`spawn` says so (None) and the client is started by exec as before: a session never
fails for want of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from c4tui.server.fronts.client_process import PYTHON, ClientCommand, readable_places

log = logging.getLogger("c4tui.server")

SERVED_ENTRY = "c4tui.cli:run_served_client"
# What every served client imports (or does) before its first key, done once in the
# fork server so that its children share it: the app, and the command line's parser.
SERVED_PRELOAD = (
    "c4tui.app.served",
    "c4tui.cli:prepare_served_client",
    # Imported or loaded by every client as its first screens are drawn (found by
    # listing a child's sys.modules after its first game against its parent's): the
    # emoji names, the cell widths' table (its default version, as no client sets one),
    # and Textual's parts loaded on first use.
    "rich._emoji_codes",
    "rich._unicode_data:load",
    "textual.drivers.headless_driver",
    "textual.layouts.factory",
    "textual.layouts.horizontal",
    "textual.layouts.stream",
    "textual.pilot",
    "textual.scrollbar",
    "c4tui.app.served_errors",
)
# What reads the environment as it is imported, read again in each child under its own:
# a browser's client is told its driver (textual-serve's) through Textual's settings.
SERVED_REREAD = ("textual.constants",)
# The fork server's own environment: what a client's imports may read as they run.
FORK_SERVER_ENV = {"PATH": os.defpath, "LANG": "C.UTF-8"}
READY_WAIT = 60.0  # seconds the server waits at start for the fork server's imports


class ForkedClient:
    """A client the fork server started: its pid, and its end as the fork server saw it."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._ended = asyncio.Event()

    def ended(self, status: int) -> None:
        self.returncode = status
        self._ended.set()

    async def wait(self) -> int:
        await self._ended.wait()
        assert self.returncode is not None  # set with the event
        return self.returncode


class Forks:
    """The fork server of one front (module docstring)."""

    def __init__(
        self,
        command: ClientCommand,
        entry: str,
        preload: tuple[str, ...] = (),
        reread: tuple[str, ...] = (),
    ) -> None:
        self.command = command
        self.entry = entry
        self.preload = preload
        self.reread = reread
        self.process: asyncio.subprocess.Process | None = None
        self.channel: socket.socket | None = None
        self.ready = asyncio.Event()
        self.alive = False
        self.asked: dict[int, asyncio.Future[int]] = {}
        self.clients: dict[int, ForkedClient] = {}
        self.ends: dict[int, int] = {}  # ends heard before their start was answered
        self.numbers = 0

    async def start(self) -> None:
        """Run the fork server and wait until its imports are done (a second or so), so
        that the first players' clients are forked too; if it is not ready within
        READY_WAIT, or ends, clients start by exec until it is."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        argv = [*PYTHON, "-m", "c4tui.server.fronts.fork_server", "--parent", str(os.getpid())]
        argv += ["--entry", self.entry, "--socket", str(theirs.fileno())]
        for module in self.preload:
            argv += ["--preload", module]
        for module in self.reread:
            argv += ["--reread", module]
        try:
            self.process = await asyncio.create_subprocess_exec(
                *argv,
                pass_fds=(theirs.fileno(),),
                stdin=asyncio.subprocess.DEVNULL,
                env=FORK_SERVER_ENV,
                start_new_session=True,  # a Ctrl-C at the server's terminal is the server's
            )
        except OSError:
            log.exception("the fork server did not start: clients start by exec")
            ours.close()
            return
        finally:
            theirs.close()
        ours.setblocking(False)
        self.channel = ours
        self.alive = True
        asyncio.get_running_loop().add_reader(ours, self._heard)
        waits = [
            asyncio.ensure_future(self.ready.wait()),
            asyncio.ensure_future(self.process.wait()),
        ]
        _done, pending = await asyncio.wait(
            waits, timeout=READY_WAIT, return_when="FIRST_COMPLETED"
        )
        for wait in pending:
            wait.cancel()
        if not self.ready.is_set():
            log.warning("the fork server is not ready: clients start by exec meanwhile")

    def _heard(self) -> None:
        assert self.channel is not None  # read only while open
        try:
            data = self.channel.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._lost()
            return
        message: dict[str, Any] = json.loads(data)
        if "ready" in message:
            self.ready.set()
        elif "started" in message:
            future = self.asked.pop(int(message["started"]), None)
            if future is not None and not future.done():
                future.set_result(int(message["pid"]))
        elif "failed" in message:
            future = self.asked.pop(int(message["failed"]), None)
            if future is not None and not future.done():
                future.set_exception(OSError(str(message["error"])))
        elif "ended" in message:
            pid, status = int(message["ended"]), int(message["status"])
            client = self.clients.pop(pid, None)
            if client is not None:
                client.ended(status)
            else:
                self.ends[pid] = status

    def _lost(self) -> None:
        """The fork server is gone (and its children with it): every client has ended."""
        if not self.alive:
            return
        self.alive = False
        if self.channel is not None:
            asyncio.get_running_loop().remove_reader(self.channel)
            self.channel.close()
            self.channel = None
        for future in self.asked.values():
            if not future.done():
                future.set_exception(OSError("the fork server ended"))
        self.asked.clear()
        for client in self.clients.values():
            client.ended(-9)
        self.clients.clear()

    async def spawn(
        self, home: Path, env_file: Path, streams: Sequence[int]
    ) -> ForkedClient | None:
        """A client on `streams` (a PTY's terminal end, or the ends of its input, output
        and errors' pipes), confined as `self.command` says, its environment read from
        `env_file` (PrivateHome.keep_environment); None when the fork server is not (or no
        longer) ready to start it."""
        if not (self.alive and self.ready.is_set() and self.channel is not None):
            return None
        self.numbers += 1
        number = self.numbers
        request = {
            "spawn": number,
            "home": str(home),
            "read": readable_places(self.command.argv, home),
            "memory": self.command.memory,
            "nice": self.command.nice,
            "env_file": str(env_file),
        }
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.asked[number] = future
        try:
            socket.send_fds(self.channel, [json.dumps(request).encode()], list(streams))
            pid = await future
        except OSError as error:
            self.asked.pop(number, None)
            log.warning("the fork server did not start a client (%s): by exec instead", error)
            return None
        client = ForkedClient(pid)
        if pid in self.ends:
            client.ended(self.ends.pop(pid))
        else:
            self.clients[pid] = client
        return client

    async def stop(self) -> None:
        """End the fork server (its clients, if any are left, die with it)."""
        if self.channel is not None:
            asyncio.get_running_loop().remove_reader(self.channel)
            self.channel.close()
            self.channel = None
        self.alive = False
        if self.process is not None and self.process.returncode is None:
            try:
                await asyncio.wait_for(self.process.wait(), 5.0)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    self.process.kill()
                await self.process.wait()
