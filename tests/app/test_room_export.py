"""`e` in a room whose game is over: its game file, for a spectator too, opens with --load."""

from __future__ import annotations

from c4tui.app.screens.game import GameScreen
from c4tui.app.screens.lobby import LobbyScreen
from c4tui.cli import read_game_file
from tests.app.test_served import footer_keys, served_app, service, until  # noqa: F401
from tests.rooms.support import login, room_where

PLAYED = "2026-11-27T21:15:02Z"


async def test_a_spectator_takes_a_finished_rooms_game_home(service, tmp_path):  # noqa: F811
    ann, bob = await login(service, "ann"), await login(service, "bob")
    await ann.send("create", public=True)
    code = (await room_where(ann, lambda m: m["seat"] == 0))["code"]
    await bob.send("join", code=code)
    await room_where(bob, lambda m: m["seat"] == 1)
    app = served_app(service, "cy")
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await until(pilot, lambda: len(app.lobby_screen.rooms) == 1)
        await pilot.press("l", "w")
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.match.room)
        assert "Export" not in footer_keys(app)  # a game going on is not over
        await ann.send("drop", column=3, ply=0)
        await room_where(bob, lambda m: m["moves"] == "4")
        # As a room restored after a restart has it: its game began before the restart.
        next(iter(service.host.rooms.values())).date = PLAYED
        await bob.send("resign")
        await until(pilot, lambda: app.match.room.over)
        await pilot.pause()
        assert "Export" in footer_keys(app)
        await pilot.press("e")
        copied = app.clipboard
    saved = tmp_path / "watched.c4"
    saved.write_text(copied, encoding="utf-8")
    loaded = read_game_file(str(saved))  # what `c4tui --load` reads
    assert loaded.position.to_moves() == "4" and loaded.players == ("ann", "bob")
    assert loaded.date == PLAYED  # when it was played, not when it was exported
    assert loaded.result == "1-0" and loaded.ended is not None and loaded.ended.how == "resigned"
    for client in (ann, bob):
        await client.close()
