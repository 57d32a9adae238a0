"""The ssh front refuses everything but a session with a PTY, each with one log line."""

from __future__ import annotations

import logging

import asyncssh
import pytest

from tests.serve.terminal import connect


def refusals(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]


@pytest.fixture(autouse=True)
def log_front(caplog):
    caplog.set_level(logging.INFO, logger="c4tui.server")


async def test_a_command_is_refused(ssh_front, caplog):
    async with await connect(ssh_front.port) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.run("ls", check=True)
    assert refusals(caplog) == ["ssh 127.0.0.1: refused command 'ls' (sessions only)"]


async def test_a_command_with_a_terminal_is_refused_too(ssh_front, caplog):
    async with await connect(ssh_front.port) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_process("cat /etc/passwd", term_type="xterm")
    assert refusals(caplog) == ["ssh 127.0.0.1: refused command 'cat /etc/passwd' (sessions only)"]


async def test_sftp_is_refused(ssh_front, caplog):
    async with await connect(ssh_front.port) as conn:
        with pytest.raises((asyncssh.ChannelOpenError, asyncssh.SFTPError)):
            await conn.start_sftp_client()
    assert refusals(caplog) == ["ssh 127.0.0.1: refused subsystem 'sftp' (sessions only)"]


async def test_a_shell_without_a_terminal_is_refused(ssh_front, caplog):
    async with await connect(ssh_front.port) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_process()
    assert refusals(caplog) == [
        "ssh 127.0.0.1: refused a session without a terminal (sessions only)"
    ]


async def test_local_forwarding_is_refused(ssh_front, caplog):
    async with await connect(ssh_front.port) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_connection("127.0.0.1", ssh_front.port)
    assert refusals(caplog) == [
        f"ssh 127.0.0.1: refused local port forwarding to '127.0.0.1':{ssh_front.port}"
    ]


async def test_remote_forwarding_is_refused(ssh_front, caplog):
    async with await connect(ssh_front.port) as conn:
        with pytest.raises(asyncssh.ChannelListenError):
            await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 9)
    assert refusals(caplog) == ["ssh 127.0.0.1: refused remote port forwarding of '127.0.0.1':0"]


async def test_socket_forwarding_is_refused(ssh_front, caplog):
    async with await connect(ssh_front.port) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_unix_connection("/run/anything.sock")
    assert refusals(caplog) == ["ssh 127.0.0.1: refused socket forwarding to '/run/anything.sock'"]


async def test_agent_forwarding_is_refused(ssh_front, caplog, tmp_path):
    async with await connect(
        ssh_front.port, agent_forwarding=True, agent_path=str(tmp_path / "agent")
    ) as conn:
        process = await conn.create_process(term_type="xterm", encoding=None)
        await process.stdout.readuntil(b"ready")
        process.close()
    assert refusals(caplog) == ["ssh 127.0.0.1: refused agent forwarding"]


async def test_what_a_client_names_is_logged_escaped(ssh_front, caplog):
    forged = "evil\x1b[2J\r\n12:00:00 ssh 10.0.0.1: root logged in\u202e"
    async with await connect(ssh_front.port) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_connection(forged, 80)
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_unix_connection(forged)
    lines = refusals(caplog)
    assert len(lines) == 2
    for line in lines:
        assert not any(ch in line for ch in "\x1b\r\n\u202e")
        assert "\\x1b[2J\\r\\n12:00:00" in line


async def test_a_terminal_name_with_a_nul_starts_the_game_with_one_log_line(ssh_front, caplog):
    async with await connect(ssh_front.port) as conn:
        process = await conn.create_process(term_type="xterm\x00evil", encoding=None)
        text = await process.stdout.readuntil(b"ready")
        process.close()
    assert b"TERM=xterm-256color" in text
    assert [r.levelno for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert sum("is not a terminal's name" in r.getMessage() for r in caplog.records) == 1
