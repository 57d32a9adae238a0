"""`c4tui serve` as a user runs it: flags checked, addresses printed, a clean stop."""

from __future__ import annotations

import signal
import stat

import pytest

from c4tui.cli import main
from tests.serve.served import served


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--ssh", "70000"], "--ssh 70000: a port is 1 to 65535"),
        (["--no-ssh", "--no-web"], "leave nothing to serve"),
        (["--max-sessions", "0"], "--max-sessions 0: must be more than 0"),
        (["--client-nice", "40"], "--client-nice 40: must be 0 to 19"),
        (["--authorized-keys", "/no/such/file"], "cannot read it"),
    ],
)
def test_bad_flags_are_one_line_and_status_2(flags, message, capsys):
    assert main(["serve", *flags]) == 2
    error = capsys.readouterr().err
    assert message in error
    assert error.count("\n") == 1


async def test_it_prints_its_addresses_and_stops_cleanly_on_sigterm(tmp_path):
    async with served(tmp_path) as server:
        text = server.log.decode()
        assert f"ssh -p {server.ssh_port} 127.0.0.1" in text
        assert f"http://127.0.0.1:{server.web_port}" in text
        key = tmp_path / "ssh_host_ed25519_key"
        assert stat.S_IMODE(key.stat().st_mode) == 0o600
        assert stat.S_IMODE(tmp_path.stat().st_mode) == 0o700
        assert await server.stop(signal.SIGTERM) == 0
    assert "stopping (games are kept)" in server.log.decode()
    assert "Traceback" not in server.log.decode()
