"""The served app on a clock: the clock line counts the side to move down, a player whose
opponent is gone claims the game with a key, and a move in another game rings the bell."""

from __future__ import annotations

import pytest

from c4tui.app.reader.switch import set_reading
from c4tui.app.reader.view import ReaderView
from c4tui.app.screens.game import GameScreen
from c4tui.app.screens.lobby import LobbyScreen
from c4tui.app.status_words import room_outcome_text
from c4tui.app.textual_internals import timer_running
from c4tui.app.widgets.clock import GameClock, clock_text, clock_words
from c4tui.match.room_view import ClockView
from tests.app.test_served import footer_keys, served_app, until
from tests.rooms.support import login, room_where


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (245, "4:05"),
        (3723, "1:02:03"),
        (7.34, "0:07.3"),
        (0, "0:00.0"),
        (2 * 86400 + 5 * 3600, "2d 05h"),
    ],
)
def test_time_left_as_a_clock_shows_it(seconds, words):
    assert clock_words(seconds) == words


def test_the_running_side_is_marked_by_a_glyph_and_counts_down():
    clock = ClockView("1+0", "1+0 bullet", (60.0, 42.0), 1, at=100.0)
    line = clock_text(clock, ("ann", "bob"), now=112.0).plain
    assert line == " ● ann 1:00   ▸○ bob 0:30"


def test_both_sides_of_a_correspondence_clock_read_alike():
    clock = ClockView("1d", "1 day a move", (86400.0, 86400.0), 0, at=100.0)
    line = clock_text(clock, ("ann", "bob"), now=104.0).plain
    assert line == "▸● ann 23h 59m    ○ bob 1d 00h"


async def test_a_timed_room_shows_its_clock_and_a_gone_opponent_is_claimed_with_a_key(clocked):
    service, time = clocked
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("m")  # New room's time control: the next after none, 1+0
        assert "1+0 bullet" in str(app.screen.query_one("#new-room").label)
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.match.room)
        bob = await login(service, "bob")
        await bob.send("join", code=app.match.room.code)
        await until(pilot, lambda: app.match.room.clock and app.match.room.clock.running == 0)
        shown = app.screen.query_one(GameClock)
        line = str(shown.render())  # ann's time runs (by the app's own clock, from 1:00)
        assert shown.display and "▸● ann 0:5" in line and " ○ bob 1:00" in line
        await pilot.press("4")
        await room_where(bob, lambda m: m["moves"] == "4")
        await bob.send("drop", column=3, ply=1)
        await until(pilot, lambda: app.match.room.position.moves == 2)
        assert not footer_keys(app) & {"Claim win", "Claim draw"}  # bob is still here
        await bob.close()  # gone; the grace of 1+0 is 15 s
        await until(pilot, lambda: app.match.room.seats[1].held_until is not None)
        time.moved(15)
        service.host.look()
        await until(pilot, lambda: app.match.room.claim_for_me())
        await pilot.pause()
        assert {"Claim win", "Claim draw"} <= footer_keys(app)
        await pilot.press("w")
        await until(pilot, lambda: app.match.room.over)
        assert (app.match.room.ended, app.match.room.winner) == ("abandoned", 0)
        # bob's seat opens once the game is over, and still names him.
        await until(pilot, lambda: app.match.room.seats[1].open)
        assert room_outcome_text(app.match.room) == "bob ○ left the game: You win with ●!"


@pytest.mark.slow  # over 0.3 s of CPU (a served app or two players)
async def test_the_readers_clock_ticks_only_in_the_mode_with_a_clock_running(clocked):
    """Its warnings are said only in the mode: out of it, a served client doing nothing
    woke once a second for none."""
    service = clocked.service
    app = served_app(service)
    app.steady = False  # time on screen, as a player's
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("m")  # a room on a clock: 1+0
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.match.room)
        bob = await login(service, "bob")
        await bob.send("join", code=app.match.room.code)
        await until(pilot, lambda: app.match.room.clock and app.match.room.clock.running == 0)
        reader = app.screen.query_one(ReaderView)
        await pilot.pause()
        assert not timer_running(reader._clock_timer)  # out of the mode
        set_reading(app, True)
        assert timer_running(reader._clock_timer)
        set_reading(app, False)
        assert not timer_running(reader._clock_timer)
        await bob.close()


async def test_a_move_in_another_game_rings_the_bell_in_the_lobby(clocked):
    service = clocked.service
    ann, bob = await login(service, "ann"), await login(service, "bob")
    await ann.send("create", clock="3d")
    made = await room_where(ann, lambda m: m["seat"] == 0)
    await bob.send("join", code=made["code"])
    await room_where(bob, lambda m: m["seat"] == 1)
    await ann.send("drop", column=3, ply=0)
    await room_where(bob, lambda m: m["moves"] == "4")
    await ann.close()
    app = served_app(service, "ann")
    rung: list[bool] = []
    async with app.run_test(size=(80, 24)) as pilot:
        app.bell = lambda: rung.append(True)  # type: ignore[method-assign]
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.match.lobby.rooms)
        assert app.match.lobby.your_move == ()  # bob to move
        await bob.send("drop", column=3, ply=1)
        await until(pilot, lambda: rung)
        await until(pilot, lambda: app.match.lobby.your_move == (made["room"],))
        assert app.screen.rooms[0].number == made["room"]  # first in the list
        assert "B: bell on" in str(app.screen.query_one("#online").render())
        await pilot.press("B")  # the toggle, kept by the server
        await until(pilot, lambda: not app.match.lobby.bell)
        await pilot.pause()
        assert "B: bell off" in str(app.screen.query_one("#online").render())
    await bob.close()


async def test_leaving_a_correspondence_game_asks_nothing(clocked):
    service = clocked.service
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press(*"mmmmmm", "r")  # 3 days a move
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.match.room)
        bob = await login(service, "bob")
        await bob.send("join", code=app.match.room.code)
        await until(pilot, lambda: app.match.room.seats[1].name == "bob")
        await pilot.press("4")
        await until(pilot, lambda: app.match.room.position.moves == 1)
        await pilot.press("escape")  # the game waits for both: no question, no hold
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        view = await room_where(bob, lambda m: m["seats"][0]["here"] is False)
        assert view["seats"][0]["held"] is None and not view["over"]
        await bob.close()


async def test_the_clock_line_ticks_only_while_a_clock_runs():
    # A served client ran a ten-a-second timer in every room, clock or not, game over
    # or not: CPU for nothing to show. It runs while a side's time runs, and only then.
    from textual.app import App, ComposeResult

    class OneClock(App[None]):
        def compose(self) -> ComposeResult:
            yield GameClock()

    def ticking(clock: GameClock) -> bool:
        assert clock._timer is not None
        return clock._timer._active.is_set()  # Textual's own flag of a paused timer

    async with OneClock().run_test() as pilot:
        clock = pilot.app.query_one(GameClock)
        assert not ticking(clock)  # no clock yet
        running = ClockView("1+0", "1+0 bullet", (60.0, 60.0), 0, 0.0)
        clock.show(running, ("ann", "bob"))
        assert ticking(clock)
        clock.show(ClockView("1+0", "1+0 bullet", (60.0, 59.0), None, 0.0), ("ann", "bob"))
        assert not ticking(clock)  # the game is over: nothing runs
        clock.show(None, ("ann", "bob"))
        assert not ticking(clock)
