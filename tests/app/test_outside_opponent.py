"""Pilot tests: an outside engine as the app's opponent. The thinking panel shows what
it streams; when it crashes it loses the game, the reason is said, and its process ends."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from c4tui.app.settings import Settings
from c4tui.app.status_words import status_text
from tests.app.showcase import type_keys

SIZE = (120, 40)
BOT = Path(__file__).parents[1] / "bots" / "c4e_bot.py"


def panel_text(app) -> str:
    panel = app.game_screen.thinking_panel
    return "\n".join(line.plain for line in panel.lines(panel.size.width))


async def until(pilot, condition, tries: int = 500) -> None:
    """Wait for the app (an outside process answers in its own time)."""
    for _ in range(tries):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError("the app never got there")


async def test_the_panel_shows_its_figures_and_a_crash_loses_the_game(make_app):
    spec = f"cmd:{sys.executable} {BOT} --crash,time=2,name=Centre"
    app = make_app(settings=Settings(opponent=spec, theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "1")
        await until(pilot, lambda: len(app.game.moves) == 2)
        engine = app.match.engines[1]
        shown = panel_text(app)
        assert "score" in shown and "+10" in shown  # the column it chose, as it said
        await type_keys(pilot, "1")
        await until(pilot, lambda: len(app.game.moves) == 4)
        child = engine.child
        await type_keys(pilot, "2")  # its third move: it falls over
        await until(pilot, lambda: app.match.over)
        assert len(app.game.moves) == 5
        assert status_text(app.match.view()).startswith(
            "Centre ○ lost: it crashed (exit status 1: RuntimeError: the bot fell over): you win."
        )
        assert engine.child is None and child.process.poll() is not None


@pytest.mark.slow  # a program started (over 0.3 s of CPU)
async def test_the_screen_names_an_outside_engine_as_it_names_itself(make_app):
    # The bot says `id name centre bot`: the panel, the players' names and the
    # evaluation's words call it so (they said "c4e_bot.py", its file). A spec's name=
    # comes first (OutsideEngine.title).
    app = make_app(settings=Settings(opponent=f"cmd:{sys.executable} {BOT}", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "4")
        await until(pilot, lambda: len(app.game.moves) == 2)
        view = app.match.view()
        assert view.names == ("You", "centre bot")
        title = app.game_screen.thinking_panel.border_title
        assert title.startswith("AI · last search · centre bot")
        _values, judge = app.match.evaluation_line()
        assert judge is not None and judge.title == "centre bot"
        assert "c4e_bot.py" not in app.game_screen.sub_title
