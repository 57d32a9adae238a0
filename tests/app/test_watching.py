"""Two engines playing: Space pauses and goes on, `.` plays one move, `-`/`+` the speed."""

from __future__ import annotations

from dataclasses import replace

import pytest

from c4tui.app.screens.settings_form import SettingsScreen
from c4tui.app.settings import Settings, SettingsError, load
from c4tui.app.status_words import status_text
from c4tui.app.textual_internals import notifications
from tests.app.showcase import open_settings, settle, type_keys, until

SIZE = (120, 40)


def watching_settings() -> Settings:
    return Settings(mode="ai-ai", opponent="greedy", second_opponent="random", theme="textual-dark")


async def test_space_pauses_and_dot_plays_one_move(make_app):
    app = make_app(settings=watching_settings(), steady=False)
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "space")
        assert app.match.paused and not app.thinking
        moves = len(app.game.moves)
        await settle(pilot)  # paused: no search runs, so nothing can be played
        assert len(app.game.moves) == moves
        assert "Paused" in status_text(app.match.view())
        await type_keys(pilot, "full_stop")
        await until(pilot, lambda: len(app.game.moves) == moves + 1, "the one move")
        await settle(pilot)
        assert len(app.game.moves) == moves + 1 and app.match.paused
        await type_keys(pilot, "space")
        await until(pilot, lambda: len(app.game.moves) > moves + 1, "the engines going on")


async def test_speed_keys_change_the_pause_between_moves_and_it_is_remembered(make_app):
    app = make_app(settings=watching_settings())
    async with app.run_test(size=SIZE) as pilot:
        start = app.match.delay
        await type_keys(pilot, "minus")
        assert app.match.delay > start
        await type_keys(pilot, "plus", "plus")
        assert app.match.delay < start
        # One notice says the speed: each new one replaces the one before.
        assert [n.message for n in notifications(app)] == [f"{app.match.delay:g} s between moves."]
    saved = load(app.config_dir)[0].watch_delay
    assert saved == app.match.delay
    again = make_app(settings=None)
    assert again.match.delay == saved


async def test_saving_the_settings_form_keeps_the_speed(make_app):
    app = make_app(settings=replace(watching_settings(), watch_delay=2.0))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_settings(app, pilot)
        assert isinstance(screen, SettingsScreen)
        screen.query_one("#width").value = "8"
        await pilot.pause()
        screen.action_save()
        await pilot.pause()
        assert app.settings.width == 8 and app.settings.watch_delay == 2.0
    assert load(app.config_dir)[0].watch_delay == 2.0


def test_a_bad_speed_in_the_settings_file_is_named():
    for bad in (-1, "fast", True, 61):
        with pytest.raises(SettingsError) as caught:
            Settings(watch_delay=bad).validate()  # type: ignore[arg-type]
        assert caught.value.field == "watch_delay"


def unhurried(settings: Settings) -> dict[str, object]:
    """make_app's options for two engines that wait a minute between moves: the game is
    still going when the test looks (a steady app skips the waits, and a finished game
    offers no watching keys)."""
    return {"settings": replace(settings, watch_delay=60.0), "steady": False}


async def test_the_watching_keys_show_only_when_two_engines_play(make_app):
    app = make_app(**unhurried(watching_settings()))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        shown = {b.binding.description for b in app.screen.active_bindings.values() if b.enabled}
        assert {"Pause", "Step", "Speed"} <= shown
        assert not {"Drop", "Hint", "AI move", "Go on"} & shown
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "One move" in titles
    person = make_app()
    async with person.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "space")  # Space still drops a disc against an engine
        await settle(pilot)
        assert len(person.game.moves) == 2
        shown = {b.binding.description for b in person.screen.active_bindings.values() if b.enabled}
        assert "Pause" not in shown


async def test_at_the_fastest_speed_two_engines_play_the_game_out(make_app):
    # A zero-second Textual timer never fires: the engines stopped after one move.
    fastest = replace(watching_settings(), watch_delay=0.0)
    app = make_app(settings=fastest, steady=False)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.game.position.is_over(), "the game's end")


async def test_space_says_go_on_in_the_footer_while_paused(make_app):
    app = make_app(**unhurried(watching_settings()))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()

        def shown() -> set[str]:
            bindings = app.screen.active_bindings.values()
            return {b.binding.description for b in bindings if b.enabled}

        await type_keys(pilot, "space")
        assert app.match.paused
        await pilot.pause()
        assert "Go on" in shown() and "Pause" not in shown()
        await type_keys(pilot, "space")  # Space goes on
        assert not app.match.paused
        await pilot.pause()
        assert "Pause" in shown() and "Go on" not in shown()
