"""The Textual internals the app relies on (textual_internals.py) still exist and behave.

When this fails after a Textual upgrade, mend textual_internals.py: nothing else in the
app touches Textual's private names.
"""

from __future__ import annotations

import pytest
from textual import events
from textual.app import App
from textual.geometry import Size
from textual.widgets import OptionList, Static
from textual.widgets._footer import FooterKey

from c4tui.app import textual_internals as internals


async def test_notifications_are_listed_and_withdrawn():
    app = App()
    async with app.run_test() as pilot:
        app.notify("first")
        app.notify("second")
        await pilot.pause()
        shown = internals.notifications(app)
        assert [n.message for n in shown] == ["first", "second"]
        internals.withdraw(app, shown[0])
        await pilot.pause()
        assert [n.message for n in internals.notifications(app)] == ["second"]


async def test_the_css_generation_changes_with_the_theme():
    app = App()
    async with app.run_test() as pilot:
        before = internals.css_generation(app)
        assert isinstance(before, int)
        app.theme = "textual-light" if app.theme != "textual-light" else "nord"
        await pilot.pause()
        assert internals.css_generation(app) != before


async def test_a_screen_is_laid_out_at_a_size():
    app = App()
    async with app.run_test(size=(60, 20)) as pilot:
        await app.mount(Static("x" * 10))
        await pilot.pause()
        internals.lay_out(app.screen, Size(60, 20))
        assert app.screen.query_one(Static).region.width == 60


def test_a_footer_key_takes_another_keys_face():
    key = FooterKey("enter", "⏎", "Drop", "drop")
    like = FooterKey("u", "u", "Take back", "take_back", disabled=True, tooltip="Undo")
    assert internals.footer_key_face(key) == ("enter", "⏎", "Drop", "drop", False, None)
    internals.set_footer_key_face(key, internals.footer_key_face(like))
    assert internals.footer_key_face(key) == internals.footer_key_face(like)


def test_a_message_taken_aside_is_still_waiting():
    """Textual's message loop takes the next message out of the queue to see whether it
    replaces the one in hand: the queue's size no longer counts it (a key on its way)."""
    widget = Static()  # not running: nothing takes its messages but the test
    key, other = events.Key("x", "x"), events.Key("y", "y")
    widget.post_message(key)
    assert internals.messages_waiting(widget) == 1
    assert internals.holds_message(widget, key) and not internals.holds_message(widget, other)
    widget._peek_message()  # what the loop does, busy with the message before it
    assert widget.message_queue_size == 0
    assert internals.messages_waiting(widget) == 1
    assert internals.holds_message(widget, key)


async def test_an_app_told_to_exit_is_exiting():
    app: App[None] = App()
    async with app.run_test():
        assert not internals.exiting(app)
        app.exit()
        assert internals.exiting(app)


async def test_an_options_first_line_counts_the_lines_of_those_above():
    class Listing(App[None]):
        def compose(self):
            yield OptionList("one", "two\nlines", "three")

    app = Listing()
    async with app.run_test():
        options = app.query_one(OptionList)
        assert [internals.option_line(options, i) for i in range(3)] == [0, 1, 3]


async def test_the_error_that_stopped_an_app_is_kept():
    class Falling(App):
        def on_mount(self) -> None:
            raise RuntimeError("fell")

    app = Falling()
    with pytest.raises(RuntimeError):
        async with app.run_test():
            pass
    assert isinstance(internals.stopping_error(app), RuntimeError)


async def test_a_timer_is_running_until_paused():
    app = App()
    async with app.run_test():
        timer = app.set_interval(60, lambda: None)
        assert internals.timer_running(timer)
        timer.pause()
        assert not internals.timer_running(timer)
        timer.resume()
        assert internals.timer_running(timer)
