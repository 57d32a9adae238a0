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
        (["--store-writers", "0"], "--store-writers 0: must be more than 0"),
        (["--authorized-keys", "/no/such/file"], "cannot read it"),
    ],
)
def test_bad_flags_are_one_line_and_status_2(flags, message, capsys):
    assert main(["serve", *flags]) == 2
    error = capsys.readouterr().err
    assert message in error
    assert error.count("\n") == 1


def test_the_room_limits_are_flags_with_their_defaults_in_the_help(capsys):
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    for flag, default in (
        ("--max-rooms-per-player N", "default 3"),
        ("--max-rooms-per-address N", "default 10"),
        ("--code-guesses N", "default 5"),
        ("--code-guesses-per-address N", "default 30"),
        ("--seat-hold SECONDS", "default 300"),
        ("--store-writers N", "default 4"),
    ):
        assert flag in shown
        assert default in shown.rsplit(flag, 1)[1][:120]  # its help line, not the usage
