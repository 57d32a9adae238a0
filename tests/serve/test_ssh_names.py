"""Names over ssh: a key's name is its own; a name ssh cannot carry is refused in words."""

from __future__ import annotations

import asyncio
import logging
import shutil
import threading
import time
from dataclasses import replace

import asyncssh
import pytest

from c4tui.community.passwords import hashed
from c4tui.server.fronts import ssh as ssh_module
from c4tui.server.store.people_records import PeopleRecords
from tests.serve.conftest import running_front
from tests.serve.terminal import ScreenSession, screen_session


async def test_a_keyless_login_cannot_take_a_key_holders_name(ssh_front, caplog):
    caplog.set_level(logging.INFO, logger="c4tui.server")
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with screen_session(ssh_front.port, "bob", key, columns=160) as owner:
        await owner.wait_for("C4TUI_ROOMS_TOKEN=token:ssh-key:")
    async with screen_session(ssh_front.port, "bob", columns=160) as impostor:
        await impostor.wait_for("belongs to a player with an ssh key")
        assert await impostor.wait_end() == 1
    assert "ssh-name:bob" not in impostor.text()  # no client started under the name
    lines = [r.getMessage() for r in caplog.records if "refused a name" in r.getMessage()]
    assert len(lines) == 1 and "bob" in lines[0]


async def test_an_emoji_login_name_is_refused_in_words_with_one_log_line(ssh_front, caplog):
    # asyncssh's own client will not send such a name; OpenSSH's will, as players' do.
    if shutil.which("ssh") is None:
        pytest.skip("no OpenSSH client here")
    caplog.set_level(logging.INFO, logger="c4tui.server")
    ssh = await asyncio.create_subprocess_exec(
        "ssh",
        "-p",
        str(ssh_front.port),
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        "UserKnownHostsFile=/dev/null",
        "-o",
        "BatchMode=yes",
        "-F",
        "/dev/null",
        "-T",
        "ann\N{GRINNING FACE}@127.0.0.1",
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    said, _ = await asyncio.wait_for(ssh.communicate(), 60)
    assert "ssh names cannot hold (an emoji?)" in said.decode(errors="replace")
    assert ssh.returncode != 0
    async with asyncio.timeout(30):  # the server's side of the connection has ended
        while ssh_front.addresses:
            await asyncio.sleep(0.01)
    lines = [r.getMessage() for r in caplog.records if "login name" in r.getMessage()]
    assert lines == ["ssh 127.0.0.1: refused a login name ssh cannot carry (an emoji?)"]


async def test_a_password_guards_a_keyless_name_from_every_other_identity(ssh_front):
    # The end-to-end check of names (docs/community.md#names), over real ssh.
    PeopleRecords(ssh_front.store).set_password("ssh-name:bob", "bob", hashed("bobs secret"))

    async def login(password: str):
        return await asyncssh.connect(
            "127.0.0.1",
            ssh_front.port,
            username="bob",
            password=password,
            known_hosts=None,
            client_keys=None,
            agent_path=None,
        )

    for wrong in ("", "bobs secreT"):
        with pytest.raises(asyncssh.PermissionDenied):
            await login(wrong)
    async with await login("bobs secret") as conn:
        process = await conn.create_process(
            term_type="xterm-256color", term_size=(160, 24), encoding=None
        )
        session = ScreenSession(process, 160, 24)
        try:
            await session.wait_for("C4TUI_ROOMS_TOKEN=token:ssh-name:bob")
        finally:
            process.close()
            session.reader.cancel()
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with screen_session(ssh_front.port, "Bob", key, columns=160) as keyed:
        await keyed.wait_for("is another player")  # no key may claim it either
        assert await keyed.wait_end() == 1


async def test_password_guesses_are_limited_per_name_and_address_the_right_one_too(
    tmp_path, limits, caplog
):
    caplog.set_level(logging.INFO, logger="c4tui.server")
    limits = replace(limits, password_guesses=3, password_wait=3600)
    async with running_front(tmp_path / "state", limits) as front:
        PeopleRecords(front.store).set_password("ssh-name:bob", "bob", hashed("bobs secret"))

        async def login(name: str, password: str, address: str = "127.0.0.1"):
            return await asyncssh.connect(
                "127.0.0.1",
                front.port,
                username=name,
                password=password,
                local_addr=(address, 0),
                known_hosts=None,
                client_keys=None,
                agent_path=None,
            )

        for wrong in ("a", "b", "c"):
            with pytest.raises(asyncssh.PermissionDenied):
                await login("bob", wrong)
        # Now even the right password waits: the name's, from this address or another,
        # and any other name's from this address; another name elsewhere is let in.
        PeopleRecords(front.store).set_password("ssh-name:cy", "cy", hashed("cys secret"))
        for name, password, address in [
            ("Bob", "bobs secret", "127.0.0.1"),
            ("bob", "bobs secret", "127.0.0.2"),
            ("cy", "cys secret", "127.0.0.1"),
        ]:
            with pytest.raises(asyncssh.DisconnectError, match="too many wrong passwords"):
                await login(name, password, address)
        async with await login("cy", "cys secret", "127.0.0.2"):
            pass
    wrong = [r for r in caplog.records if "a wrong password for 'bob'" in r.getMessage()]
    limited = [r for r in caplog.records if "too many wrong ones" in r.getMessage()]
    assert len(wrong) == 3 and len(limited) == 3


async def test_passwords_are_checked_one_at_a_time_on_one_thread(tmp_path, limits, monkeypatch):
    # scrypt holds 16 MB a check: spread over many threads, glibc kept it all (the
    # server grew from 63 to 160 MB for good after 20 guesses at once).
    threads = set()

    def slow_check(password: str, kept: str) -> bool:
        threads.add(threading.get_ident())
        time.sleep(0.05)  # as scrypt takes a while: the checks overlap if they may
        return False

    monkeypatch.setattr(ssh_module, "matches", slow_check)
    limits = replace(limits, password_guesses=100)
    async with running_front(tmp_path / "state", limits) as front:
        PeopleRecords(front.store).set_password("ssh-name:bob", "bob", hashed("bobs secret"))

        async def guess(number: int) -> None:
            with pytest.raises(asyncssh.PermissionDenied):
                await asyncssh.connect(
                    "127.0.0.1",
                    front.port,
                    username="bob",
                    password=f"guess {number}",
                    known_hosts=None,
                    client_keys=None,
                    agent_path=None,
                )

        await asyncio.gather(*(guess(n) for n in range(8)))
    assert len(threads) == 1
