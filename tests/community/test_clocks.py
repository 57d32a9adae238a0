"""Time controls and the server's clock, with the time handed in by the tests."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from c4tui.community.clocks import (
    DAY,
    Clock,
    TimeControl,
    flag_ending,
    grace_seconds,
    never_moved,
)


@pytest.mark.parametrize(
    ("text", "control", "kind"),
    [
        ("1+0", TimeControl(1, 0), "bullet"),
        ("2+1", TimeControl(2, 1), "bullet"),  # 120 + 20 = 140 s
        ("3+0", TimeControl(3, 0), "blitz"),
        ("5+3", TimeControl(5, 3), "blitz"),  # 300 + 60 = 360 s
        ("7+3", TimeControl(7, 3), "rapid"),  # 420 + 60 = 480 s
        ("15+10", TimeControl(15, 10), "rapid"),
        ("0.5+0", TimeControl(0.5, 0), "bullet"),
        ("3d", TimeControl(days=3), "correspondence"),
        (" 1 days ", TimeControl(days=1), "correspondence"),
    ],
)
def test_a_time_control_reads_and_has_its_class(text, control, kind):
    assert TimeControl.parse(text) == control
    assert control.rating_class == kind
    assert TimeControl.parse(control.text) == control


@pytest.mark.parametrize(
    "text", ["", "5", "5+", "+3", "5+3+1", "0+3", "181+0", "5+181", "0d", "31d", "2d+1"]
)
def test_a_time_control_that_is_not_one_is_refused_with_the_text(text):
    with pytest.raises(ValueError, match="time control") as refused:
        TimeControl.parse(text)
    assert repr(text) in str(refused.value)


def test_words():
    assert TimeControl(5, 3).words == "5+3 blitz"
    assert TimeControl(days=1).words == "1 day a move"
    assert TimeControl(days=3).words == "3 days a move"


def test_time_runs_only_for_the_side_to_move_and_the_increment_follows_a_move():
    clock = Clock.new(TimeControl(1, 2))
    assert clock.remaining(0, 100.0) == 60.0  # not started: nobody's time runs
    clock.start(0, 100.0)
    assert clock.remaining(0, 110.0) == 50.0 and clock.remaining(1, 110.0) == 60.0
    clock.moved(0, 110.0)
    assert clock.remaining(0, 200.0) == 52.0  # stopped, and 2 s added
    assert clock.remaining(1, 115.0) == 55.0
    assert clock.falls_at() == 170.0
    assert clock.flagged(169.9) is None
    assert clock.flagged(170.0) == 1
    assert clock.remaining(1, 500.0) == 0.0  # never below nothing


def test_a_correspondence_move_gives_the_mover_its_days_again():
    clock = Clock.new(TimeControl(days=2))
    clock.start(0, 0.0)
    clock.moved(0, 1.5 * DAY)
    assert clock.remaining(0, 1.5 * DAY) == 2 * DAY
    assert clock.remaining(1, 3.0 * DAY) == 0.5 * DAY
    assert clock.flagged(3.5 * DAY) == 1


def test_a_stopped_clock_keeps_its_figures():
    clock = Clock.new(TimeControl(1, 0))
    clock.start(0, 0.0)
    clock.stop(20.0)
    assert clock.running is None and clock.falls_at() is None
    assert clock.remaining(0, 1000.0) == 40.0 and clock.flagged(1000.0) is None


def test_the_time_the_server_was_down_is_not_charged():
    clock = Clock.new(TimeControl(3, 0))
    clock.start(0, 0.0)
    clock.moved(0, 10.0)  # ○ to move from 10 s
    clock.charge(40.0)  # charged and kept 30 s into ○'s turn; the server then dies
    kept = clock.kept()
    back = Clock.resumed(kept, 5000.0)  # and is back much later
    assert back.running == 1
    assert back.remaining(1, 5000.0) == 150.0  # 180 - 30: the down time is not charged
    assert back.remaining(0, 5000.0) == 170.0
    assert back.remaining(1, 5010.0) == 140.0  # and the time runs on from the restart


@pytest.mark.parametrize(
    "kept",
    [
        None,
        [],
        {"control": {"minutes": 1, "increment": 0, "days": 0}, "left": [1, 2]},
        {"control": {"minutes": 1, "increment": 0, "days": 0}, "left": [1], "running": 0},
        {"control": {"minutes": 1, "increment": 0, "days": 0}, "left": [1, -2], "running": 0},
        {"control": {"minutes": 1, "increment": 0, "days": 0}, "left": [1, "2"], "running": 0},
        {"control": {"minutes": 1, "increment": 0, "days": 0}, "left": [1, 2], "running": 2},
        {"control": {"minutes": 1, "increment": 0, "days": 0}, "left": [1, 2], "running": True},
        {"control": {"minutes": 0, "increment": 0, "days": 0}, "left": [1, 2], "running": 0},
        {"control": {"minutes": 1, "increment": 0.5, "days": 0}, "left": [1, 2], "running": 0},
        {"control": {"minutes": 1, "days": 0}, "left": [1, 2], "running": 0},
    ],
)
def test_a_damaged_kept_clock_is_refused(kept):
    with pytest.raises(ValueError):
        Clock.resumed(kept, 0.0)


controls = st.one_of(
    st.builds(TimeControl, st.integers(1, 180).map(float), st.integers(0, 180)),
    st.builds(TimeControl, days=st.integers(1, 30)),
)


@given(controls, st.lists(st.floats(0, 1e5, allow_nan=False), min_size=1, max_size=30))
def test_a_clock_kept_and_resumed_at_once_reads_the_same(control, thinks):
    clock = Clock.new(control)
    now = 1000.0
    clock.start(0, now)
    for ply, think in enumerate(thinks):
        now += think
        if clock.flagged(now) is not None:
            break
        clock.moved(ply % 2, now)
    now += thinks[0] / 2  # into the next turn, then charged: what is kept is up to date
    clock.charge(now)
    back = Clock.resumed(clock.kept(), now)
    for side in (0, 1):
        assert back.remaining(side, now) == pytest.approx(clock.remaining(side, now), abs=1e-3)
    assert back.running == clock.running


@given(controls, st.lists(st.floats(0, 1e4, allow_nan=False), min_size=1, max_size=30))
def test_time_left_only_falls_while_a_side_thinks_and_rises_by_its_increment(control, thinks):
    clock = Clock.new(control)
    now = 0.0
    clock.start(0, now)
    for ply, think in enumerate(thinks):
        side = ply % 2
        before, other = clock.remaining(side, now), clock.remaining(1 - side, now)
        now += think
        assert clock.remaining(1 - side, now) == other  # the waiting side loses nothing
        if clock.flagged(now) is not None:
            assert clock.flagged(now) == side and before <= think
            break
        clock.moved(side, now)
        after = clock.remaining(side, now)
        if control.correspondence:
            assert after == control.start_seconds
        else:
            assert after == pytest.approx(before - think + control.increment)


def test_grace_is_a_share_of_the_game_length_within_bounds():
    assert grace_seconds(None, 300.0, 0.1, 15.0) == 300.0  # no clock: the seat hold
    assert grace_seconds(TimeControl(1, 0), 300.0, 0.1, 15.0) == 15.0
    assert grace_seconds(TimeControl(5, 3), 300.0, 0.1, 15.0) == pytest.approx(36.0)
    assert grace_seconds(TimeControl(60, 30), 300.0, 0.1, 15.0) == 300.0
    assert grace_seconds(TimeControl(days=3), 300.0, 0.1, 15.0) is None


def test_running_out_of_time_always_loses_and_never_having_moved_is_a_forfeit():
    assert never_moved(0, 0) and never_moved(1, 1) and not never_moved(1, 2)
    assert flag_ending(0, 0) == ("forfeit", 1)
    assert flag_ending(1, 1) == ("forfeit", 0)
    assert flag_ending(1, 2) == ("time", 0)
    # Even with one disc on the board, the side that flags loses: no "cannot win" draws.
    assert flag_ending(0, 1) == ("time", 1)
