"""--authorized-keys: only the listed keys get in; the file is read with care."""

from __future__ import annotations

import errno
import os

import asyncssh
import pytest

from c4tui.cli import main
from c4tui.server.fronts.ssh_keys import KeyFileError, read_authorized_keys
from tests.serve.conftest import running_front
from tests.serve.terminal import connect, screen_session


async def test_only_the_listed_keys_get_in(tmp_path, limits):
    listed, other = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    path = tmp_path / "authorized_keys"
    line = listed.export_public_key().decode().strip()
    path.write_text(f'# players\n\nfrom="10.0.0.0/8" {line}\n')
    async with running_front(tmp_path / "state", limits, read_authorized_keys(path)) as front:
        async with screen_session(front.port, "ann", listed) as session:
            await session.wait_for("ready")
        for key in (other, None):
            with pytest.raises(asyncssh.PermissionDenied):
                await connect(front.port, "ann", key)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ssh-ed25519 AAAAnotakey\n", "line 1"),
        ("just words here\n", "line 1: no public key"),
        ("# only a comment\n", "no keys in it"),
    ],
)
def test_a_bad_authorized_keys_file_names_the_line(tmp_path, text, message):
    path = tmp_path / "authorized_keys"
    path.write_text(text)
    with pytest.raises(KeyFileError, match=message):
        read_authorized_keys(path)


def test_a_full_disk_at_the_first_start_says_so_and_leaves_no_half_key(
    tmp_path, capsys, monkeypatch
):
    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    state = tmp_path / "state"
    assert main(["serve", "--state", str(state), "--ssh", "0", "--no-web"]) == 2
    error = capsys.readouterr().err
    assert "cannot write the host key (No space left on device)" in error
    assert error.count("\n") == 1
    assert not [p.name for p in state.iterdir() if "key" in p.name]
