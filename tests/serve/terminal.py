"""Test helpers: an ssh player with a PTY whose screen a terminal emulator (pyte) draws."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re

import asyncssh
import pyte


class ScreenSession:
    """An asyncssh client session with a PTY; `screen` is what its terminal would show."""

    def __init__(self, process: asyncssh.SSHClientProcess, columns: int, rows: int) -> None:
        self.process = process
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.changed = asyncio.Event()
        self.ended = False
        self.raw = bytearray()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        while True:
            data = await self.process.stdout.read(65536)
            if not data:
                break
            self.raw += data
            self.stream.feed(data)
            self.changed.set()
        self.ended = True
        self.changed.set()

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    async def wait_for(self, text: str | re.Pattern[str], timeout: float = 60.0) -> str:
        """Wait until `text` (or a match of the pattern) is on the screen.

        The timeout only stops a broken test; nothing depends on the machine's speed.
        """
        shown = text.search if isinstance(text, re.Pattern) else lambda screen: text in screen
        try:
            async with asyncio.timeout(timeout):
                while not shown(self.text()):
                    if self.ended:
                        raise AssertionError(f"ended before {text!r} showed:\n{self.text()}")
                    self.changed.clear()
                    await self.changed.wait()
        except TimeoutError:
            raise AssertionError(f"{text!r} never showed:\n{self.text()}") from None
        return self.text()

    async def wait_end(self, timeout: float = 60.0) -> int | None:
        async with asyncio.timeout(timeout):
            await self.reader
            await self.process.wait_closed()
        return self.process.exit_status

    async def press(self, keys: str) -> None:
        """Type `keys` and wait for the screen to answer (for a key that moves the focus)."""
        self.changed.clear()
        self.type(keys)
        async with asyncio.timeout(60):
            await self.changed.wait()

    def type(self, keys: str | bytes) -> None:
        self.process.stdin.write(keys.encode() if isinstance(keys, str) else keys)

    def resize(self, columns: int, rows: int) -> None:
        self.screen.resize(rows, columns)
        self.process.change_terminal_size(columns, rows)


async def connect(port: int, username: str = "alice", key=None, **options):
    """An ssh connection to the test server on 127.0.0.1 (host key not checked)."""
    return await asyncssh.connect(
        "127.0.0.1",
        port,
        username=username,
        known_hosts=None,
        client_keys=[key] if key is not None else None,
        # Without a key, asyncssh answers keyboard-interactive only when it has a password.
        password=None if key is not None else "",
        **{"agent_path": None, **options},
    )


@contextlib.asynccontextmanager
async def screen_session(port: int, username: str = "alice", key=None, columns=80, rows=24):
    async with await connect(port, username, key) as conn:
        process = await conn.create_process(
            term_type="xterm-256color", term_size=(columns, rows), encoding=None
        )
        session = ScreenSession(process, columns, rows)
        session.conn = conn
        try:
            yield session
        finally:
            process.close()
            session.reader.cancel()


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # A zombie of ours counts as gone: it runs nothing.
    with open(f"/proc/{pid}/stat") as handle:
        return handle.read().split(")")[-1].split()[0] == "Z"


async def wait_gone(*pids: int) -> None:
    async with asyncio.timeout(30):
        while not all(gone(pid) for pid in pids):
            await asyncio.sleep(0.05)
