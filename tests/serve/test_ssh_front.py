"""The ssh front with a stand-in client: PTY, identity, window size, limits, refusals."""

from __future__ import annotations

import asyncio
import os

import asyncssh

from tests.serve.terminal import screen_session


async def test_a_session_runs_its_client_in_a_pty_of_the_asked_size(ssh_front):
    async with screen_session(ssh_front.port, columns=100, rows=30) as session:
        screen = await session.wait_for("ready")
        assert "size 100x30" in screen
        assert "TERM=xterm-256color" in screen
        assert "C4TUI_ROOMS_TOKEN=token:ssh-name:alice" in screen
        session.type("x")
        await session.wait_for("key b'x'")
        session.type("q")
        assert await session.wait_end() == 3


async def test_a_window_size_change_reaches_the_client(ssh_front):
    async with screen_session(ssh_front.port) as session:
        await session.wait_for("ready")
        session.resize(120, 40)
        await session.wait_for("size 120x40")


async def test_an_offered_key_is_the_identity_whatever_the_name(ssh_front):
    key = asyncssh.generate_private_key("ssh-ed25519")
    fingerprint = key.get_fingerprint("sha256")
    for name in ("bob", "robert"):
        async with screen_session(ssh_front.port, name, key, columns=160) as session:
            await session.wait_for(f"C4TUI_ROOMS_TOKEN=token:ssh-key:{fingerprint}")


async def test_the_client_is_confined(ssh_front, limits, tmp_path):
    async with screen_session(ssh_front.port, columns=250) as session:
        screen = await session.wait_for("ready")
        assert f"memory-limit={limits.client_memory}" in screen
        assert f"nice={min(19, os.nice(0) + limits.client_nice)}" in screen
        # A home of its own inside the state directory, and nothing of the server's env.
        assert f"HOME={tmp_path / 'state' / 'clients'}" in screen
        assert "SECRET_OF_HOST=-" in screen
        session.type("m")
        await session.wait_for("memory refused")
        session.type("w")
        await session.wait_for("wrote mine.txt")
        await session.wait_for("refused escaped.txt (Permission denied)")
    assert not (tmp_path / "state" / "escaped.txt").exists()


async def test_the_client_reads_only_what_it_needs(ssh_front):
    async with screen_session(ssh_front.port, columns=250) as session:
        await session.wait_for("ready")
        session.type("w")
        await session.wait_for("wrote mine.txt")
        session.type("r")
        screen = await session.wait_for("read all")
    assert "read mine.txt" in screen
    assert "refused reading ssh_host_ed25519_key (Permission denied)" in screen
    assert "refused reading shadow (Permission denied)" in screen
    assert "refused listing the state directory (Permission denied)" in screen


async def test_the_end_of_the_players_input_does_not_end_the_game(ssh_front):
    async with screen_session(ssh_front.port) as session:
        await session.wait_for("ready")
        session.process.stdin.write_eof()  # `ssh -tt host < /dev/null` does this
        session.resize(90, 20)
        await session.wait_for("size 90x20")


async def test_a_second_live_session_of_one_identity_is_the_same_player(ssh_front):
    async with screen_session(ssh_front.port) as first:
        await first.wait_for("C4TUI_ROOMS_TOKEN=token:ssh-name:alice\n")
        async with screen_session(ssh_front.port) as second:
            await second.wait_for("C4TUI_ROOMS_TOKEN=token:ssh-name:alice\n")
            assert list(ssh_front.players.sessions.values()) == [2]
    async with asyncio.timeout(30):  # the server has seen both connections close
        while ssh_front.players.sessions:
            await asyncio.sleep(0.01)
