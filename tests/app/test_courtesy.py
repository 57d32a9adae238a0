"""The search's stop event waits while the UI is busy, and never once it is set."""

from __future__ import annotations

import threading

from c4tui.app.courtesy import CourteousStop, UiActivity


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
