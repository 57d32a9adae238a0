"""Test helpers: the real `c4tui serve` in a process of its own, on free ports of 127.0.0.1;
two of them on one PostgreSQL database, sharing one host key as docs/deployment.md says."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import signal
import sys
from pathlib import Path

from c4tui.server.fronts.ssh_keys import HOST_KEY_NAME

ROOT = Path(__file__).resolve().parents[2]


FORK_SERVER = "c4tui.server.fronts.fork_server"


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def command_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


class ServeProcess:
    """A running `c4tui serve`: its ports and log; stopped or killed at will."""

    def __init__(self, state_dir: Path, *flags: str) -> None:
        self.state_dir = state_dir
        self.flags = flags
        self.process: asyncio.subprocess.Process | None = None
        self.ssh_port: int | None = None
        self.web_port: int | None = None
        self.log = bytearray()

    async def start(self) -> None:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "c4tui",
            "serve",
            "--state",
            str(self.state_dir),
            "--ssh",
            "0",
            "--web",
            "0",
            # Clients at the server's own priority: niced below the suite's other worker,
            # a served client got a tenth of a core and a whole game took a minute, not 8 s
            # (a test that means the default names --client-nice itself; the last one wins).
            "--client-nice",
            "0",
            *self.flags,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            cwd=ROOT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        async with asyncio.timeout(120):
            while b"Ctrl-C stops" not in self.log:
                line = await self.process.stdout.readline()
                if not line:
                    raise AssertionError(f"c4tui serve ended:\n{self.log.decode()}")
                self.log += line
        text = self.log.decode()
        if match := re.search(r"ssh -p (\d+) ", text):
            self.ssh_port = int(match[1])
        if match := re.search(r"http://[^:]+:(\d+)", text):
            self.web_port = int(match[1])
        self.reader = asyncio.create_task(self._read_log())

    async def _read_log(self) -> None:
        while line := await self.process.stdout.readline():
            self.log += line

    def tracebacks(self) -> str:
        """Every traceback in the log, whole (an assertion's diff cut one after two frames:
        a served child's crash, seen once in a full run, went unexplained)."""
        text = self.log.decode(errors="replace")
        found = [m.start() for m in re.finditer(r"Traceback \(most recent call last\)", text)]
        return "\n---\n".join(text[at : at + 4000] for at in found)

    def fork_server(self) -> int | None:
        """The process id of the server's fork server (c4tui/server/fronts/forks.py), if it runs."""
        return next(
            (pid for pid in children(self.process.pid) if FORK_SERVER in command_of(pid)), None
        )

    def client_pids(self) -> list[int]:
        """The client processes: the fork server's children, and clients started by exec
        (before the fork server was ready)."""
        forks = self.fork_server()
        exec_ed = [pid for pid in children(self.process.pid) if "--served" in command_of(pid)]
        return exec_ed + ([] if forks is None else children(forks))

    async def stop(self, sig: int = signal.SIGTERM) -> int:
        """Signal the server and wait for it to end; its exit status."""
        if self.process.returncode is None:
            self.process.send_signal(sig)
        status = await self.process.wait()
        await self.reader
        return status


@contextlib.asynccontextmanager
async def served(state_dir: Path, *flags: str):
    server = ServeProcess(state_dir, *flags)
    await server.start()
    try:
        yield server
    finally:
        if server.process.returncode is None:
            await server.stop(signal.SIGKILL)


def copy_host_key(made_in: Path, state_dir: Path) -> None:
    """The deployment's one step: a new state directory holding only the key the first
    server made (owner only, as the server demands)."""
    state_dir.mkdir(mode=0o700)
    key = state_dir / HOST_KEY_NAME
    shutil.copyfile(made_in / HOST_KEY_NAME, key)
    key.chmod(0o600)


@contextlib.asynccontextmanager
async def two_served(folder: Path, store_url: str, *flags: str):
    """Two servers on one database (`--store`), each with a state directory of its own
    (`folder/one`, `folder/two`) and the host key the first made."""
    async with served(folder / "one", "--store", store_url, *flags) as one:
        copy_host_key(one.state_dir, folder / "two")
        async with served(folder / "two", "--store", store_url, *flags) as two:
            yield one, two
