"""`c4tui serve`'s flags: a bad one is one line and status 2 (the rest: test_play_together)."""

from __future__ import annotations

import pytest

from c4tui.cli import main


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
