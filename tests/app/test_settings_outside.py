"""An outside engine in the settings: it is offered as it is, its time can be changed,
and saving keeps what it runs."""

from __future__ import annotations

import sys
from pathlib import Path

from textual.widgets import Input, Select

from c4tui.app.screens.settings_form import SettingsScreen, split_spec
from c4tui.app.screens.spec_fields import join_spec
from c4tui.app.settings import Settings
from tests.app.showcase import open_settings, settle

SIZE = (120, 40)
BOT = Path(__file__).parents[1] / "bots" / "c4e_bot.py"
SPEC = f"cmd:{sys.executable} {BOT},time=0.5,name=Centre"


def test_an_outside_spec_splits_into_the_forms_fields_and_back():
    name, kind, value, c, noise, extras = split_spec(SPEC)
    assert name == f"cmd:{sys.executable} {BOT}"
    assert (kind, value, extras) == ("time", "0.5", (("name", "Centre"),))
    assert join_spec(name, kind, value, c, noise, extras) == SPEC


async def test_the_settings_keep_an_outside_opponent_and_change_its_time(make_app):
    app = make_app(settings=Settings(opponent=SPEC, theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_settings(app, pilot)
        assert isinstance(screen, SettingsScreen)
        engine = screen.query_one("#opponent-engine", Select)
        assert engine.value == f"cmd:{sys.executable} {BOT}"
        screen.query_one("#opponent-amount", Input).value = "0.25"
        await pilot.pause()
        screen.action_save()
        await settle(pilot)
        assert app.settings.opponent == SPEC.replace("time=0.5", "time=0.25")
        assert app.match.sides.name(1) == "Centre"


async def test_an_outside_engine_is_typed_in_the_form_and_checked_there(make_app):
    app = make_app(settings=Settings(opponent="level:3", theme="textual-dark"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_settings(app, pilot)
        program = screen.query_one("#opponent-program", Input)
        assert not screen.query_one("#opponent-program-field").display
        screen.query_one("#opponent-engine", Select).value = "outside"
        await pilot.pause()
        assert screen.query_one("#opponent-program-field").display
        assert not screen.query_one("#opponent-c-field").display
        for typed, words in (
            ("", "Program: cmd:COMMAND LINE"),
            ("mcts", "Program: cmd:COMMAND LINE"),  # ours are picked, not typed
            ("cmd:no-such-program-here", "not found"),
            ("connectx:/no/such/agent.py", "connectx"),
        ):
            program.value = typed
            await pilot.pause()
            errors = str(screen.query_one("#opponent-errors").render())
            assert words in errors and program.has_class("-invalid"), (typed, errors)
            assert screen.query_one("#save").disabled
        program.value = f"cmd:{sys.executable} {BOT}"
        await pilot.pause()
        screen.query_one("#opponent-amount", Input).value = "0.5"
        await pilot.pause()
        assert not program.has_class("-invalid")
        screen.action_save()
        await settle(pilot)
        assert app.settings.opponent == f"cmd:{sys.executable} {BOT},time=0.5"
