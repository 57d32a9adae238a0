"""The lobby's matchmaking keys under the pilot: find a game (the wait and its range),
answer a challenge, challenge a player, the leaderboard."""

from __future__ import annotations

from textual.widgets import DataTable, Input, Static, TabbedContent
from textual.widgets._select import SelectOverlay

from c4tui.app.screens.game import GameScreen
from c4tui.app.screens.lobby import IDLE_MATCHING, LobbyScreen
from c4tui.app.screens.matchmaking import ChallengeScreen, ControlScreen, LeaderboardScreen
from tests.app.test_served import served_app, service, until  # noqa: F401  (the fixture)
from tests.rooms.support import login, next_of, room_where


def matching_line(app) -> str:
    return str(app.screen.query_one("#matching", Static).render())


async def test_find_a_game_shows_the_wait_then_the_room(service):  # noqa: F811
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, ControlScreen))
        await pilot.press("enter")  # 3+2, the one highlighted first
        await until(pilot, lambda: "Finding a 3+2 blitz game" in matching_line(app))
        assert "ratings ±100, nobody else yet" in matching_line(app)
        bob = await login(service, "bob")
        await bob.send("seek", control="3+2")
        room = await room_where(bob, lambda m: m["seat"] is not None)
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.match.room)
        assert app.match.room.number == room["room"] and app.match.room.rated
        await pilot.pause()
        await bob.close()


async def test_stopping_a_seek_with_f_again(service):  # noqa: F811
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("f", "down", "down", "enter")  # 10+5
        await until(pilot, lambda: "10+5 rapid" in matching_line(app))
        await pilot.press("f")
        await until(pilot, lambda: matching_line(app) == IDLE_MATCHING)
        assert service.requests.matching.queue.seeks == {}


async def test_a_challenge_answered_with_y_and_one_made_with_c(service):  # noqa: F811
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        bob = await login(service, "bob")
        await until(pilot, lambda: "bob" in str(app.screen.query_one("#online", Static).render()))
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, ChallengeScreen))
        assert app.screen.query_one("#challenge-name", Input).value == "bob"
        await pilot.press("enter")
        offered = (await next_of(bob, "challenges", lambda m: m["to_me"]))["to_me"][0]
        assert (offered["name"], offered["control"], offered["rated"]) == ("ann", "3+2", True)
        await until(pilot, lambda: "You challenged bob: 3+2 blitz, rated" in matching_line(app))
        await pilot.press("x")
        await until(pilot, lambda: matching_line(app) == IDLE_MATCHING)
        await bob.send("challenge", name="ann", control="1+0", rated=False)
        await until(pilot, lambda: "bob challenges you: 1+0 bullet, casual" in matching_line(app))
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        assert not app.match.room.rated
        await bob.close()


async def test_the_leaderboard_lists_rated_players_by_class(service):  # noqa: F811
    ann, bob = await login(service, "ann"), await login(service, "bob")
    await ann.send("seek", control="1+0")
    await bob.send("seek", control="1+0")
    room = await room_where(bob, lambda m: m["seat"] is not None)
    names = [seat["name"] for seat in room["seats"]]
    players = {"ann": ann, "bob": bob}
    for ply, col in enumerate("1212121"):
        await players[names[ply % 2]].send("drop", column=int(col) - 1, ply=ply)
        await room_where(bob, lambda m, n=ply + 1: len(m["moves"]) == n)
    app = served_app(service, name="cy")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("k")
        await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen))
        bullet = app.screen.query_one("#class-bullet DataTable", DataTable)
        rows = [bullet.get_row_at(n) for n in range(bullet.row_count)]
        assert [str(row[1]) for row in rows] == names  # the winner first
        assert all(row[2].endswith("?") for row in rows)  # provisional after one game
        tabs = app.screen.query_one("#leaderboard", TabbedContent)
        classes = [f"class-{c.name}" for c in app.screen.leaderboard.classes]
        at = classes.index(tabs.active)
        await pilot.press("right")  # the table has the focus: the arrows turn the classes
        await until(pilot, lambda: tabs.active == classes[(at + 1) % len(classes)])
        await pilot.press("left", "left")
        await until(pilot, lambda: tabs.active == classes[at - 1])
        await pilot.press("tab")
        await until(pilot, lambda: tabs.active == classes[at])
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
    for client in (ann, bob):
        await client.close()


async def test_the_challenges_time_controls_open_inside_its_frame_at_80x24(service):  # noqa: F811
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, ChallengeScreen))
        await pilot.press("tab", "enter")  # the time control's list, open
        overlay = app.screen.query_one(SelectOverlay)
        await until(pilot, lambda: overlay.display and overlay.region.height > 0)
        await pilot.pause()
        inside = app.screen.query_one("#challenge-box").content_region
        assert inside.contains_region(overlay.region), (overlay.region, inside)
