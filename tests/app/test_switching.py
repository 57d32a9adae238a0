"""The app shortens the GIL switch interval while it runs and gives the old one back."""

from __future__ import annotations

import sys

import pytest

from c4tui.engine.gil import SWITCH_INTERVAL


async def test_the_switch_interval_is_short_while_the_app_runs_and_restored_after(make_app):
    before = sys.getswitchinterval()
    assert before != pytest.approx(SWITCH_INTERVAL)  # else the test could not tell
    async with make_app().run_test() as pilot:
        assert sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL)
        await pilot.press("q")
    assert sys.getswitchinterval() == pytest.approx(before)
