"""Keys typed in a burst are handled in the order typed, each with what it moved: a key
that moves the focus (`n` to the name field, `j` to the code box) or opens a screen with
a field (`c`, a challenge) has the field take the keys typed right after it.

A terminal hands the app every key of one read at once; `burst` does the same, where
`pilot.press` waits for the app to settle between keys and so never shows the defect
(with it, these tests passed before the fix too)."""

from __future__ import annotations

import itertools
from time import monotonic
from types import SimpleNamespace

import pytest
import textual.timer
from textual.widgets import Input

from c4tui.app.screens.lobby import LobbyScreen
from c4tui.app.screens.matchmaking import ChallengeScreen
from c4tui.app.screens.position_entry import PositionScreen
from c4tui.app.screens.profile import ProfileScreen
from c4tui.app.served import ServedApp
from c4tui.match.remote import RemoteMatch
from tests.app.showcase import burst, humans, keys_handled, post_key, type_keys
from tests.app.test_served import served_app, service, until  # noqa: F401 (a fixture)
from tests.rooms.support import login


async def test_a_name_typed_right_after_n_is_the_name(service):  # noqa: F811
    async def connect():
        return RemoteMatch(await login(service, "web-bbbb", key="web:" + "b" * 32))

    app = ServedApp(steady=True, connect_with=connect)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("p", "enter")  # oneself, first in the list
        await until(pilot, lambda: isinstance(app.screen, ProfileScreen))
        field = app.screen.query_one("#profile-name", Input)
        await burst(pilot, "n", "A", "n", "n")  # an n in the field is a letter
        assert (app.screen, field.has_focus, field.value) == (field.screen, True, "Ann")


async def test_a_code_typed_right_after_j_is_in_the_code_box(service):  # noqa: F811
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await burst(pilot, "j", *"bcgw", "backspace", "x")  # b, c, g, w are lobby keys
        assert isinstance(app.screen, LobbyScreen)
        field = app.screen.query_one("#code", Input)
        assert field.has_focus and field.value == "bcgx"


async def test_a_name_typed_right_after_c_is_in_the_challenge(service):  # noqa: F811
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await burst(pilot, "c", *"bob")  # b alone in the lobby would make a bot token
        assert isinstance(app.screen, ChallengeScreen)
        assert app.screen.query_one("#challenge-name", Input).value == "bob"


async def test_moves_typed_right_after_p_are_the_position_not_drops(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "p", *"4453", "backspace", "4")  # a digit alone drops a disc
        assert isinstance(app.screen, PositionScreen)
        assert app.screen.query_one(Input).value == "4454"
        assert app.match.game.position.to_moves() == ""


async def test_a_key_alone_goes_without_rounds_through_the_screen(make_app):
    """Only keys held behind another wait for rest: a lone key's rounds (a callback
    through every node, again and again) kept the app from going idle to paint, and an
    arrow's cursor showed three times later (28-32 ms against 8-9 in a pty)."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        rounds = []
        real_round = app.key_order._round
        app.key_order._round = lambda: (rounds.append(1), real_round())  # type: ignore[method-assign]
        await pilot.press("right")
        await keys_handled(pilot)
        await pilot.press("left")
        await keys_handled(pilot)
        assert app.key_order.quiet and rounds == []
        await burst(pilot, "right", "right")  # the second waits for the first to rest
        assert rounds


def hook_first_post(widget, key: str, then) -> None:
    """Run `then()` right after `key` is posted to `widget`, as a key typed at that moment."""
    real_post = widget.post_message

    def post(message):
        posted = real_post(message)
        if getattr(message, "key", None) == key:
            widget.post_message = real_post
            then()
        return posted

    widget.post_message = post


async def test_a_letter_typed_as_the_screen_paints_after_j_is_in_the_code_box(service):  # noqa: F811
    """The screen paints once its own queue is empty, which may be while `j` still waits
    in the focused button's queue: the app took that paint for the key's rest, and the
    letter typed then went to the button and was lost (over ssh, `j` and a code: the
    code's first letter went, 4 times in 4)."""
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))

        def painted_then_typed():
            app.key_order._settle(app.key_order._going)  # what the look a moment later does
            post_key(pilot, "x")

        hook_first_post(app.focused, "j", painted_then_typed)
        await burst(pilot, "j")
        field = app.screen.query_one("#code", Input)
        assert (field.has_focus, field.value) == (True, "x")


async def test_a_key_that_quits_comes_to_rest(make_app):
    """q ends the app and its timers with it: its look for rest never comes, and a key
    that quits is at rest all the same (type_keys waited 60 s for it)."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await type_keys(pilot, "q")
        assert app.key_order.quiet


@pytest.mark.slow  # an app on a clock that is always late (over 0.3 s of CPU)
async def test_a_key_comes_to_rest_when_the_app_is_held_up(make_app, monkeypatch):
    # Under a load of about 15 on two cores, `4` against the AI once never came to rest
    # (tests/app/test_play.py): the app looks a moment after a key whether it has, on a
    # one-shot Textual timer, and such a timer skips its only tick when the process is
    # held up past its delay before the timer first reads the clock. Here every reading
    # of the timers' clock is 20 ms later than the one before, as if held up each time
    # (past the look's 10 ms, short of the screen's 1/60 s ticks, which skip some).
    late = itertools.count()
    clock = SimpleNamespace(get_time=lambda: monotonic() + 0.02 * next(late))
    app = make_app(settings=humans())
    async with app.run_test(size=(120, 40)) as pilot:
        monkeypatch.setattr(textual.timer, "_time", clock)
        post_key(pilot, "4")
        await pilot.pause(0)
        for _ in range(1000):  # rounds of the app's callbacks, not time: a few are enough
            if app.key_order.quiet:
                break
            await pilot.pause(0)
        monkeypatch.undo()  # the app's own timers again, to close
        assert app.key_order.quiet and app.game.moves == (3,)
