"""Pilot tests: screens made ready ahead of their keys (prewarm.py) show what they must."""

from __future__ import annotations

from dataclasses import replace

import pytest

from c4tui.app import prewarm
from c4tui.app.screens.settings_form import SettingsScreen
from tests.app.showcase import type_keys, until

SIZE = (120, 40)


@pytest.fixture(autouse=True)
def quick_quiet(monkeypatch):
    # A spare form waits for a quiet second; a tenth keeps these tests quick.
    monkeypatch.setattr(prewarm, "QUIET", 0.1)


def settings_shown(app) -> bool:
    """The settings screen is on top, its form composed."""
    return isinstance(app.screen, SettingsScreen) and bool(app.screen.query("#opponent-engine"))


async def spare_built(app, pilot) -> SettingsScreen:
    await until(pilot, lambda: app.prewarmer.spare is not None, "a spare settings screen")
    return app.prewarmer.spare


async def test_s_opens_the_settings_screen_built_ahead_and_a_new_one_follows(make_app):
    app = make_app()
    app.prewarmer.spare_settings = True  # headless apps build none unless asked
    async with app.run_test(size=SIZE) as pilot:
        spare = await spare_built(app, pilot)
        assert app.screen_stack == [app.screen] and not isinstance(app.screen, SettingsScreen)
        await type_keys(pilot, "s")
        assert app.screen is spare
        assert spare.query_one("#opponent-engine").value == "random"
        await type_keys(pilot, "escape")
        following = await spare_built(app, pilot)
        assert following is not spare and not spare.is_attached  # the used one is gone
        # Settings changed since it was built (a theme from the palette): a new form.
        app.settings = replace(app.settings, opponent="greedy")
        await type_keys(pilot, "s")
        await until(pilot, lambda: settings_shown(app), "a new form")
        assert app.screen is not following
        assert app.screen.query_one("#opponent-engine").value == "greedy"
        await type_keys(pilot, "escape")
        await spare_built(app, pilot)  # not cut off in the middle by the test's end


async def test_a_headless_app_builds_no_spare(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.5)
        assert app.prewarmer.spare is None
        await type_keys(pilot, "s")
        await until(pilot, lambda: settings_shown(app), "the settings")


def shown_styles(screen) -> list[tuple]:
    return [
        (widget, widget.styles.background, widget.styles.color, widget.styles.border)
        for widget in screen.query("*")
    ]


async def test_the_form_built_ahead_shows_the_styles_a_full_restyle_gives(make_app):
    # Its styles are not recomputed when it is shown (a third of its first paint), so
    # they must already be right: as built, and after a theme change since.
    app = make_app()
    app.prewarmer.spare_settings = True
    async with app.run_test(size=SIZE) as pilot:
        for theme in (None, "textual-light"):
            await spare_built(app, pilot)
            if theme is not None:
                app.theme = theme  # the app's CSS changes, the settings do not
                await pilot.pause()
            await type_keys(pilot, "s")
            await pilot.pause()
            assert isinstance(app.screen, SettingsScreen)
            shown = shown_styles(app.screen)
            app.screen.update_node_styles(animate=False)
            assert shown_styles(app.screen) == shown
            await type_keys(pilot, "escape")
        await spare_built(app, pilot)
