"""`c4tui serve --tournament NAME,CONTROL,ROUNDS,START`: the operator's tournaments."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from c4tui.cli import main
from c4tui.commands.common import CommandError
from c4tui.commands.serve import operators_tournaments

NOON = datetime(2026, 11, 26, 12, 0, tzinfo=UTC).timestamp()


def test_a_start_is_the_next_such_time_in_utc_or_minutes_from_now():
    (later, tomorrow, soon) = operators_tournaments(
        ["Evening,5+3,5,20:30", "Early, 3+2 ,3, 09:00", "Now,1+0,1,+15"], now=NOON
    )
    assert later == ("Evening", "5+3", 5, NOON + 8.5 * 3600)
    assert tomorrow == ("Early", "3+2", 3, NOON + 21 * 3600)
    assert soon == ("Now", "1+0", 1, NOON + 15 * 60)


@pytest.mark.parametrize(
    ("flag", "message"),
    [
        ("Evening,5+3,5", "give NAME,CONTROL,ROUNDS,START"),
        ("Evening,5 min,5,20:30", "a time control is like 5+3"),
        ("Evening,3d,5,20:30", "live"),
        ("Evening,5+3,40,20:30", "give 1 to 15"),
        ("Evening,5+3,5,tonight", "give HH:MM (UTC) or +MINUTES"),
    ],
)
def test_a_bad_tournament_flag_is_one_line_and_status_2(flag, message, capsys):
    with pytest.raises(CommandError, match="--tournament"):
        operators_tournaments([flag])
    assert main(["serve", "--tournament", flag]) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1


@pytest.mark.parametrize("pause", ["-1", "3601"])
def test_a_round_pause_out_of_range_is_one_line_and_status_2(pause, capsys):
    assert main(["serve", "--round-pause", pause]) == 2
    error = capsys.readouterr().err
    assert "--round-pause" in error and "0 to 3600" in error and error.count("\n") == 1
