"""The profile screen of a served app: `p` in the lobby, a player's profile, `b` blocks,
`s` sets a keyless name's password."""

from __future__ import annotations

from textual.widgets import Input, OptionList, Static

from c4tui.app.screens.lobby import LobbyScreen
from c4tui.app.screens.profile import PasswordScreen, PlayersScreen, ProfileScreen
from c4tui.community.passwords import matches
from c4tui.community.people_records import PeopleRecords
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
