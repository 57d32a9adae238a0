"""A finished game of the server, taken home: its file copied from "My games" opens with
`c4tui --load`; its gamesolver.org link is the game's moves."""

from __future__ import annotations

from textual.app import App

from c4tui.app.screens.my_games import MyGamesScreen
from c4tui.cli import read_game_file
from c4tui.engine.board.gamefile import GameRecord
from tests.rooms.support import login, next_of, room_where


async def a_finished_game_as_served(service) -> tuple[str, str]:
    """ann beats bob along the bottom row; the (name, game file text) bob's list has."""
    ann, bob = await login(service, "ann"), await login(service, "bob")
    await ann.send("create")
    code = (await room_where(ann, lambda m: m["seat"] == 0))["code"]
    await bob.send("join", code=code)
    await room_where(bob, lambda m: m["seat"] == 1)
    for ply, column in enumerate("4455667"):
        await (ann, bob)[ply % 2].send("drop", column=int(column) - 1, ply=ply)
        seen = await room_where(bob, lambda m, n=ply + 1: len(m["moves"]) == n)
    assert seen["over"] and seen["winner"] == 0
    await bob.send("games")
    kept = (await next_of(bob, "games"))["games"][0]
    for client in (ann, bob):
        await client.close()
    return kept["name"], kept["text"]


async def test_a_served_games_copied_file_opens_with_load(service, tmp_path):
    name, text = await a_finished_game_as_served(service)
    record = GameRecord.from_text(text)
    app: App[None] = App()
    async with app.run_test() as pilot:
        app.push_screen(MyGamesScreen(((name, record),), "ann"))
        await pilot.pause()
        assert "d" not in app.screen.active_bindings  # a terminal copies; a browser downloads
        await pilot.press("l")
        assert app.clipboard == "https://connect4.gamesolver.org/?pos=4455667"
        await pilot.press("c")
        copied = app.clipboard
    saved = tmp_path / "from-the-server.c4"
    saved.write_text(copied, encoding="utf-8")
    # What `c4tui --load FILE` reads (tests/app/test_cli_app.py starts the app with one).
    loaded = read_game_file(str(saved))
    assert loaded.position.to_moves() == "4455667"
    assert loaded.players == ("ann", "bob") and loaded.result == "1-0"
