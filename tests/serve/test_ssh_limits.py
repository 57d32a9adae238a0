"""The ssh front's limits and its cleaning up: each limit says so, no process is left behind."""

from __future__ import annotations

import asyncio
import logging
import shutil
import stat
import sys
from dataclasses import replace
from pathlib import Path

import asyncssh
import pytest

from c4tui.server.fronts.ssh_keys import HOST_KEY_NAME
from tests.serve.conftest import running_front
from tests.serve.terminal import connect, screen_session, wait_gone


def field(screen: str, name: str) -> int:
    return int(screen.split(f"{name}=")[1].split()[0])


async def test_a_dropped_connection_ends_the_client_and_what_it_started(ssh_front):
    async with screen_session(ssh_front.port) as session:
        screen = await session.wait_for("ready")
        client = field(screen, "pid")
        session.type("s")
        child = field(await session.wait_for("child="), "child")
    await wait_gone(client, child)
    assert not list((ssh_front.state_dir / "clients").iterdir())


async def test_stopping_the_front_tells_the_player_and_ends_the_client(ssh_front):
    async with screen_session(ssh_front.port) as session:
        client = field(await session.wait_for("ready"), "pid")
        await ssh_front.stop("the server is stopping; your game is kept")
        await session.wait_for("c4tui: the server is stopping; your game is kept")
        await session.wait_end()
    await wait_gone(client)


@pytest.mark.parametrize("limits_changes", [{"sessions_per_address": 1}, {"sessions": 1}])
async def test_a_session_over_the_limit_is_told_why(ssh_front, limits_changes, caplog):
    caplog.set_level(logging.INFO, logger="c4tui.server")
    ssh_front.gate.limits = replace(ssh_front.gate.limits, **limits_changes)
    async with screen_session(ssh_front.port) as first:
        await first.wait_for("ready")
        async with screen_session(ssh_front.port) as second:
            await second.wait_end()
            assert "c4tui: " in second.text()
    expected = "too many sessions" if "sessions_per_address" in limits_changes else "full"
    assert expected in second.text()
    assert sum("refused a session" in r.getMessage() for r in caplog.records) == 1


async def test_a_flood_of_connections_is_refused(ssh_front, caplog):
    caplog.set_level(logging.INFO, logger="c4tui.server")
    ssh_front.gate.limits = replace(ssh_front.gate.limits, connects_per_minute=2)
    for _ in range(2):
        async with await connect(ssh_front.port):
            pass
    # Told why in ssh's own words; past as many refusals again, dropped at once (a flood
    # costs no cryptography).
    for _ in range(2):
        with pytest.raises(asyncssh.DisconnectError, match="too many connections"):
            await connect(ssh_front.port)
    with pytest.raises((asyncssh.DisconnectError, ConnectionError)):
        await connect(ssh_front.port)
    assert sum("refused a connection" in r.getMessage() for r in caplog.records) == 3


async def test_over_the_limit_openssh_shows_why(ssh_front, tmp_path):
    if shutil.which("ssh") is None:
        pytest.skip("no OpenSSH client")
    ssh_front.gate.limits = replace(ssh_front.gate.limits, connects_per_minute=1)
    async with await connect(ssh_front.port):
        pass
    openssh = await asyncio.create_subprocess_exec(
        "ssh",
        "-F",
        "/dev/null",
        "-p",
        str(ssh_front.port),
        "-o",
        "BatchMode=yes",
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        f"UserKnownHostsFile={tmp_path / 'known'}",
        "127.0.0.1",
        "true",
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    said = (await openssh.communicate())[0].decode()
    assert "too many connections from 127.0.0.1" in said
    assert "invalid characters" not in said


async def test_bare_tcp_connects_do_not_lock_an_address_out(ssh_front):
    ssh_front.gate.limits = replace(ssh_front.gate.limits, connects_per_minute=2)
    for _ in range(10):  # connect, say nothing, go (a port scan, a load balancer's probe)
        _, writer = await asyncio.open_connection("127.0.0.1", ssh_front.port)
        writer.close()
        await writer.wait_closed()
    for _ in range(2):
        async with await connect(ssh_front.port):
            pass


async def test_an_idle_session_is_closed_with_a_message(tmp_path, limits):
    async with (
        running_front(tmp_path, replace(limits, idle_timeout=0.5)) as front,
        screen_session(front.port) as session,
    ):
        await session.wait_end()  # (the client may not have started yet on a busy machine)
        assert "c4tui: closed after 0.5 s without a key press" in session.text()


async def test_the_host_key_is_made_once_private_and_kept(ssh_front):
    path = ssh_front.state_dir / HOST_KEY_NAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    async with await connect(ssh_front.port) as conn:
        first = conn.get_server_host_key().get_fingerprint()
    await ssh_front.stop("restart")
    await ssh_front.start()
    async with await connect(ssh_front.port) as conn:
        assert conn.get_server_host_key().get_fingerprint() == first


async def test_clients_die_with_a_killed_server(tmp_path):
    server = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.serve.lone_front",
        str(tmp_path),
        stdout=asyncio.subprocess.PIPE,
        cwd=Path(__file__).parents[2],
    )
    try:
        port = int(await server.stdout.readline())
        async with screen_session(port) as session:
            client = field(await session.wait_for("ready"), "pid")
            session.type("h")  # only the kernel's death signal can end it now
            await session.wait_for("holding")
            server.kill()
            await server.wait()
            await wait_gone(client)
    finally:
        if server.returncode is None:
            server.kill()
            await server.wait()


async def test_a_connection_that_does_not_log_in_in_time_is_closed(tmp_path, limits):
    async with running_front(tmp_path, replace(limits, login_timeout=0.5)) as front:
        reader, writer = await asyncio.open_connection("127.0.0.1", front.port)
        assert (await reader.readline()).startswith(b"SSH-2.0-")  # then say nothing
        async with asyncio.timeout(30):
            while await reader.read(4096):
                pass  # the server's key exchange offer, then its disconnect
        writer.close()
