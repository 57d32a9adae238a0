"""The settings offer the levels first: a level is a whole spec, rated, with no custom fields."""

from __future__ import annotations

from textual.widgets import Input, Select, Static

from c4tui.app.screens.settings_form import LEVEL_CHOICES, SettingsScreen, spec_line, split_spec
from c4tui.app.settings import Settings, load
from c4tui.engine.players.levels import LEVELS, RATINGS
from tests.app.showcase import open_settings, settle

SIZE = (120, 40)


def test_levels_come_first_and_say_what_they_are():
    assert [key for key, _ in LEVEL_CHOICES] == [f"level:{n}" for n in LEVELS]
    assert split_spec(" Level:4 ") == ("level:4", "none", "", "", "", ())
    assert spec_line("level:4") == f"spec: level:4 = {LEVELS[4]} · rated {RATINGS[4]} Elo"
    assert spec_line("greedy") == "spec: greedy"


async def test_choosing_a_level_disables_the_custom_fields_and_saves_the_level(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_settings(app, pilot)
        assert isinstance(screen, SettingsScreen)
        screen.query_one("#opponent-noise", Input).value = "0.5"
        screen.query_one("#opponent-engine", Select).value = "level:3"
        await pilot.pause()
        assert screen.query_one("#opponent-budget", Select).disabled
        for field in ("amount", "c", "noise"):
            assert screen.query_one(f"#opponent-{field}", Input).disabled
        shown = str(screen.query_one("#opponent-spec", Static).render())
        assert shown == spec_line("level:3")
        screen.action_save()
        await settle(pilot)
        assert app.settings.opponent == "level:3"
        assert app.match.sides.name(1) == "Level 3"
    assert load(app.config_dir)[0].opponent == "level:3"


async def test_a_saved_level_opens_as_that_level_and_custom_comes_back(make_app):
    app = make_app(settings=Settings(opponent="level:6", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_settings(app, pilot)
        assert screen.query_one("#opponent-engine", Select).value == "level:6"
        screen.query_one("#opponent-engine", Select).value = "mcts"
        await pilot.pause()
        assert not screen.query_one("#opponent-budget", Select).disabled
        assert not screen.query_one("#opponent-noise", Input).disabled
        assert screen.spec_of("opponent") == "mcts:time=1"


def test_the_forms_extra_settings_ride_along_as_pairs():
    from c4tui.app.screens.spec_fields import join_spec, without

    name, kind, value, c, noise, extras = split_spec("negamax:depth=8,time=1")
    assert (name, kind, value, extras) == ("negamax", "depth", "8", (("time", "1"),))
    assert join_spec(name, kind, value, c, noise, extras) == "negamax:depth=8,time=1"
    assert without(extras, "time") == () and without(extras, "depth") == extras


async def test_a_levels_rating_is_said_only_on_the_board_it_was_measured_on(make_app):
    settings = Settings(opponent="level:8", width=9, height=7, connect=5, theme="textual-dark")
    app = make_app(settings=settings)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_settings(app, pilot)
        shown = str(screen.query_one("#opponent-spec", Static).render())
        assert "Elo" not in shown and "not rated on 9x7 connect 5" in shown
        for name, value in (("width", "7"), ("height", "6"), ("connect", "4")):
            screen.query_one(f"#{name}", Input).value = value
        await pilot.pause()
        shown = str(screen.query_one("#opponent-spec", Static).render())
        assert shown == spec_line("level:8") and f"rated {RATINGS[8]} Elo" in shown
