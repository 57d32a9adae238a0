"""The profile screen of a served app: `p` in the lobby, a player's profile, `b` blocks,
`s` sets a keyless name's password, a browser chooses its name."""

from __future__ import annotations

import pytest
from textual.widgets import Input, OptionList, Static

from c4tui.app.screens.lobby import LobbyScreen
from c4tui.app.screens.profile import PasswordScreen, PlayersScreen, ProfileScreen
from c4tui.app.screens.review import ReviewScreen
from c4tui.app.served import ServedApp
from c4tui.community.passwords import matches
from c4tui.engine.board.gamefile import Ending, GameRecord
from c4tui.match.remote import RemoteMatch
from c4tui.server.store.chosen_names import ChosenNames
from c4tui.server.store.game_records import GameRecords
from c4tui.server.store.people_records import PeopleRecords
from c4tui.server.store.player_records import PlayerRecords
from tests.app.test_served import served_app, service, until  # noqa: F401 (a fixture)
from tests.rooms.support import login


async def test_p_opens_profiles_b_blocks_and_s_sets_ones_password(service):  # noqa: F811
    bob = await login(service, "bob")
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await until(pilot, lambda: "bob" in app.lobby_screen.match.lobby.online)
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, PlayersScreen))
        listed = app.screen.query_one(OptionList)
        assert [str(listed.get_option_at_index(i).prompt) for i in range(2)] == ["ann (you)", "bob"]
        await pilot.press("down", "enter")
        await until(pilot, lambda: isinstance(app.screen, ProfileScreen))
        profile = app.screen
        assert profile.profile.name == "bob" and profile.profile.online
        assert "No finished games yet." in str(
            profile.query_one("#profile-results", Static).render()
        )
        assert "s" not in profile.active_bindings  # a password is one's own business
        await pilot.press("b")
        await until(pilot, lambda: app.screen.profile.blocked)
        assert "blocked by you" in str(app.screen.query_one("#profile-state", Static).render())
        assert PeopleRecords(service.host.store).blocks("ssh-name:ann", "ssh-name:bob")
        assert app.screen is profile  # drawn again in place, not a second screen
        await pilot.press("escape")
        assert isinstance(app.screen, LobbyScreen)
        # One's own profile: no block, but a keyless name's password, typed twice.
        await pilot.press("p", "enter")  # the first in the list is oneself
        await until(pilot, lambda: isinstance(app.screen, ProfileScreen))
        assert app.screen.profile.you and app.screen.profile.password is False
        assert "b" not in app.screen.active_bindings  # nobody blocks themselves
        assert "n" not in app.screen.active_bindings  # an ssh name is its login's
        assert not app.screen.query_one("#profile-name", Input).display
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, PasswordScreen))
        first, again = (app.screen.query_one(f"#password-{n}", Input) for n in ("first", "again"))
        first.value = "a long one"
        await pilot.press("enter")  # on to the second box
        assert again.has_focus
        again.value = "a long 1"
        await pilot.press("enter")
        problem = app.screen.query_one("#password-problem", Static)
        assert "not the same" in str(problem.render())
        again.value = "a long one"
        await pilot.press("enter")
        await until(pilot, lambda: PeopleRecords(service.host.store).password_of("ann") is not None)
        assert matches("a long one", PeopleRecords(service.host.store).password_of("ann"))
        await until(pilot, lambda: app.screen.profile.password is True)
        shown = str(app.screen.query_one("#profile-state", Static).render())
        assert "a password guards your name" in shown
    await bob.close()


@pytest.mark.slow  # a whole served app; tests/rooms/test_chosen_names.py runs by default
async def test_a_browser_chooses_its_name_on_its_own_profile(service):  # noqa: F811
    key = "web:" + "b" * 32
    PlayerRecords(service.host.store).claim("dan", "ssh-key:SHA256:dan")

    async def connect():
        return RemoteMatch(await login(service, "web-bbbb", key=key))

    app = ServedApp(steady=True, connect_with=connect)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        assert "you are web-bbbb" in app.lobby_screen.sub_title
        await pilot.press("p", "enter")  # oneself, first in the list
        await until(pilot, lambda: isinstance(app.screen, ProfileScreen))
        profile = app.screen
        field = profile.query_one("#profile-name", Input)
        problem = profile.query_one("#profile-name-problem", Static)
        assert profile.profile.choose and field.display and not field.has_focus
        await pilot.press("n")
        assert field.has_focus
        await pilot.press(*"web-me", "enter")  # refused by the screen's own first look
        assert "the ones the server makes" in str(problem.render())
        field.value = "Dan"
        await pilot.press("enter")  # refused by the server: a key holds it
        await until(pilot, lambda: "another player's" in str(problem.render()))
        field.value = "Bea"
        await pilot.press("enter")
        await until(pilot, lambda: app.screen.profile.name == "Bea")
        assert app.screen is profile and str(problem.render()) == ""  # drawn again in place
        assert app.lobby_screen.match.name == "Bea"
        await pilot.press("escape")
        assert "you are Bea" in app.lobby_screen.sub_title
        await until(pilot, lambda: "Bea" in app.lobby_screen.match.lobby.online)
    assert ChosenNames(service.host.store).held(key) == "Bea"


@pytest.mark.slow  # a whole served app; tests/community/test_profiles.py runs by default
async def test_a_profile_lists_the_players_last_games_and_enter_reviews_one(service):  # noqa: F811
    bob = await login(service, "bob")
    finished = GameRecord(
        "4455667", players=("bob", "ann"), date="2026-11-28T21:30:00Z", ended=None
    )
    GameRecords(service.host.store).keep(
        "20261128-213000-r1-000001", finished, keys=("ssh-name:bob", "ssh-name:ann")
    )
    resigned = GameRecord("44", players=("level:3", "bob"), ended=Ending("resigned", 1))
    GameRecords(service.host.store).keep(
        "20261128-214000-r2-000002", resigned, keys=(None, "ssh-name:bob")
    )
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await until(pilot, lambda: "bob" in app.lobby_screen.match.lobby.online)
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, PlayersScreen))
        await pilot.press("down", "enter")
        await until(pilot, lambda: isinstance(app.screen, ProfileScreen))
        listed = app.screen.query_one("#profile-games", OptionList)
        lines = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
        assert lines[1] == "28 November 2026 21:30 UTC, against ann, won with ● in 4 moves"
        assert lines[0].endswith(", against Level 3, won with ○ in 1 move, Level 3 resigned")
        assert listed.has_focus and listed.highlighted == 0
        await pilot.press("down", "enter")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
        assert app.screen.game.moves == 7
    await bob.close()
