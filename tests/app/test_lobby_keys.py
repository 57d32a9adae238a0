"""The lobby's keys stay the lobby's: the code box has the focus only while a code is
typed, and the rooms list is one key away."""

from __future__ import annotations

import pytest
from textual.widgets import Checkbox, DataTable, Input
from textual.widgets._footer import FooterKey

from c4tui.app.screens.game import GameScreen
from c4tui.app.screens.lobby import LobbyScreen
from tests.app.test_served import served_app, service, until  # noqa: F401 (a fixture)
from tests.rooms.support import login, room_where


async def test_after_a_code_is_sent_r_makes_a_room_instead_of_typing_r(service):  # noqa: F811
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("j", *"AAAAAA", "enter")  # a code that is no room's
        lobby = app.lobby_screen
        await until(pilot, lambda: not isinstance(lobby.focused, Input))
        await pilot.press("r")
        await until(pilot, lambda: len(service.host.rooms) == 1)
        assert lobby.query_one("#code", Input).value == ""


async def test_escape_leaves_the_code_box_and_l_reaches_the_rooms_list(service):  # noqa: F811
    people = [await login(service, name) for name in ("bob", "cy")]
    for person in people:
        await person.send("create", public=True)
        await room_where(person, lambda m: m["seat"] == 0)
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        lobby = app.lobby_screen
        await until(pilot, lambda: len(lobby.rooms) == 2)
        await pilot.press("j", "x")
        assert lobby.query_one("#code", Input).value == "x"
        await pilot.press("escape")
        assert not isinstance(lobby.focused, Input)
        await pilot.press("l")  # one key, however many stops the Tab key would take
        table = lobby.query_one("#rooms", DataTable)
        assert lobby.focused is table
        await pilot.press("down", "w")  # the second room, watched
        await room_where(people[1], lambda m: m["watchers"] == ["ann"])
    for person in people:
        await person.close()


async def test_the_check_boxes_tell_on_from_off_by_their_mark_not_only_colour(service):  # noqa: F811
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        lobby = app.lobby_screen
        public, second = lobby.query_one("#public", Checkbox), lobby.query_one("#second", Checkbox)
        assert not public.value and not second.value
        assert "✓" not in str(public.render()) + str(second.render())
        second.value = True
        await pilot.pause()
        assert "✓" in str(second.render()) and "✓" not in str(public.render())
        second.value = False
        await pilot.pause()
        assert "✓" not in str(second.render())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_enter_at_login_opens_the_game_waiting_for_your_move(clocked, size):
    """A correspondence game waiting for ann's move is the first row at login, its row
    under the cursor: Enter opens it, not a new game against the AI."""
    community = clocked.service
    ann, bob = await login(community, "ann"), await login(community, "bob")
    await ann.send("create", clock="3d")
    made = await room_where(ann, lambda m: m["seat"] == 0)
    await bob.send("join", code=made["code"])
    await room_where(bob, lambda m: m["seat"] == 1)
    await ann.send("drop", column=3, ply=0)
    await room_where(bob, lambda m: m["moves"] == "4")
    await bob.send("drop", column=3, ply=1)
    await room_where(ann, lambda m: m["moves"] == "44")
    await ann.close()
    app = served_app(community, "ann")
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.rooms)
        await pilot.pause()
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.match.room)
        assert app.match.room.number == made["room"]
        assert app.match.room.seats[0].name == "ann"
    await bob.close()


async def test_the_lobbys_key_bar_is_whole_at_80_columns(service):  # noqa: F811
    """Every key the bar shows fits in 80 columns, Quit the last (matchmaking's keys are
    named on the line above who is online)."""
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.pause()
        keys = list(app.screen.query(FooterKey))
        assert "Quit" in [key.description for key in keys]
        assert all(key.region.width > 0 and key.region.right <= 80 for key in keys)
