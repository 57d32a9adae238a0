"""The GIL policy: the switch interval comes back, long C calls release the GIL and short
ones keep it, and the search's stop event waits while the UI is busy, never once set."""

from __future__ import annotations

import ctypes
import sys
import threading

import pytest

from c4tui.engine.gil import SWITCH_INTERVAL, CourteousStop, QuickSwitching, UiActivity
from c4tui.engine.kernels import library


class CountedActivity(UiActivity):
    """Busy for the first `busy_polls` questions, then idle."""

    def __init__(self, busy_polls: int) -> None:
        super().__init__()
        self.left = busy_polls
        self.asked = 0

    def busy(self) -> bool:
        self.asked += 1
        self.left -= 1
        return self.left >= 0


def test_polling_waits_out_a_busy_ui_then_answers():
    activity = CountedActivity(busy_polls=3)
    stop = CourteousStop(activity)
    assert stop.is_set() is False
    assert activity.asked == 4  # three busy answers waited out, then the idle one


def test_a_set_stop_answers_without_asking_about_the_ui():
    activity = CountedActivity(busy_polls=1000)
    stop = CourteousStop(activity)
    stop.set()
    assert stop.is_set() is True
    assert activity.asked == 0


def test_setting_the_stop_ends_a_wait_for_a_busy_ui():
    stop = CourteousStop(CountedActivity(busy_polls=10**9))  # busy for ever
    answers: list[bool] = []
    poller = threading.Thread(target=lambda: answers.append(stop.is_set()))
    poller.start()
    stop.set()
    poller.join(timeout=10)
    assert answers == [True]


def test_touch_makes_the_ui_busy_for_its_window():
    activity = UiActivity(window=60.0)
    assert not activity.busy()
    activity.touch()
    assert activity.busy()


def test_quick_switching_restores_the_previous_interval():
    before = sys.getswitchinterval()
    switching = QuickSwitching()
    with switching:
        assert sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL)
        switching.start()  # a second start must not take the short interval as "previous"
    assert sys.getswitchinterval() == pytest.approx(before)
    switching.stop()  # stopping twice leaves it alone
    assert sys.getswitchinterval() == pytest.approx(before)


def test_the_solver_call_releases_the_gil_and_the_playout_keeps_it():
    lib = library.library()
    if lib is None:
        pytest.skip(f"no compiled kernels: {library.kernels()}")
    keeps_gil = ctypes._FUNCFLAG_PYTHONAPI
    assert not lib.c4_negamax._flags_ & keeps_gil
    assert lib.c4p_game._flags_ & keeps_gil
