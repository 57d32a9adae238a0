"""The fork server (c4tui/server/fronts/forks.py): a client forked from it is confined as one
started by exec, and dies with the server; without it, clients start by exec."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from tests.serve.conftest import running_front
from tests.serve.served import children
from tests.serve.terminal import screen_session, wait_gone
from tests.serve.test_ssh_limits import field


async def test_a_forked_client_is_confined_as_an_exec_one(tmp_path, limits):
    async with running_front(tmp_path / "state", limits, fork=True) as front:
        assert front.forks is not None
        async with screen_session(front.port, columns=250) as session:
            screen = await session.wait_for("ready")
            forked = field(screen, "pid")
            assert forked in children(front.forks.process.pid)  # not started by exec
            assert f"memory-limit={limits.client_memory}" in screen
            assert f"nice={min(19, os.nice(0) + limits.client_nice)}" in screen
            assert f"HOME={tmp_path / 'state' / 'clients'}" in screen
            assert "SECRET_OF_HOST=-" in screen
            assert "TERM=xterm" in screen  # the session's environment, not the fork server's
            assert field(screen, "sid") == forked  # a session and a terminal of its own
            # The fork server's heap was frozen before the fork: a child's collections
            # never write to (and so copy) the pages it shares with the fork server.
            assert field(screen, "gc-frozen") > 0 and field(screen, "gc-on") == 1
            session.type("w")
            await session.wait_for("refused escaped.txt (Permission denied)")
            session.type("r")
            screen = await session.wait_for("read all")
            assert "refused reading ssh_host_ed25519_key (Permission denied)" in screen
            assert "refused listing the state directory (Permission denied)" in screen
            session.type("s")
            child = field(await session.wait_for("child="), "child")
        await wait_gone(forked, child)  # the connection dropped: the client and its child
    assert not (tmp_path / "state" / "escaped.txt").exists()


async def test_a_killed_server_takes_its_fork_server_and_clients_with_it(tmp_path):
    server = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.serve.lone_front",
        str(tmp_path),
        "fork",
        stdout=asyncio.subprocess.PIPE,
        cwd=Path(__file__).parents[2],
    )
    try:
        port = int(await server.stdout.readline())
        (forks,) = children(server.pid)
        async with screen_session(port) as session:
            client = field(await session.wait_for("ready"), "pid")
            assert client in children(forks)
            session.type("h")  # only the kernel's death signal can end it now
            await session.wait_for("holding")
            server.kill()
            await server.wait()
            await wait_gone(forks, client)
    finally:
        if server.returncode is None:
            server.kill()
            await server.wait()


async def test_without_the_fork_server_a_client_starts_by_exec(tmp_path, limits):
    async with running_front(tmp_path / "state", limits, fork=True) as front:
        assert front.forks is not None and front.forks.process is not None
        front.forks.process.kill()
        await front.forks.process.wait()
        await asyncio.wait_for(_lost(front.forks), 30)
        async with screen_session(front.port) as session:
            client = field(await session.wait_for("ready"), "pid")
            assert client in children(os.getpid())
            session.type("q")
            await session.wait_end()


async def _lost(forks) -> None:
    """Until the front has heard that its fork server is gone."""
    while forks.alive:
        await asyncio.sleep(0.05)


def test_what_a_served_client_imports_first_is_preloaded():
    """A served child imports nothing more to read its command line, nor to measure and
    write its first words: the fork server did it once (the parser registers every
    command; each child did, 88 modules; rich's emoji names and cell widths were each
    child's own copy)."""
    script = (
        "import sys\n"
        "from c4tui.server.fronts.fork_server import preload\n"
        "from c4tui.server.fronts.forks import SERVED_PRELOAD\n"
        "for name in SERVED_PRELOAD: preload(name)\n"
        "before = set(sys.modules)\n"
        "from c4tui.cli import build_parser\n"
        "build_parser(['--served']).parse_known_args(['--served'])\n"
        "from rich.text import Text\n"
        "Text.from_markup(':smiley: ● ○ 名前').cell_len\n"
        "print(sorted(set(sys.modules) - before))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
