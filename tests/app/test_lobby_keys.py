"""The lobby's keys stay the lobby's: the code box has the focus only while a code is
typed, and the rooms list is one key away."""

from __future__ import annotations

from textual.widgets import Checkbox, DataTable, Input

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
