"""Bots from the served app's side: a token made in the lobby, a bot online offered
beside the AI and challenged from there, and its thinking in the person's panel."""

from __future__ import annotations

from dataclasses import replace

from textual.widgets import Select, Static

from c4tui.app.keys import KEYS
from c4tui.app.screens.bot_token import BotTokenScreen
from c4tui.app.screens.game import GameScreen
from c4tui.app.screens.lobby import LobbyScreen
from c4tui.app.status_words import room_status_text
from c4tui.app.widgets.thinking import ThinkingPanel
from c4tui.community.bot_tokens import BotAccount
from c4tui.engine.board.position import Position
from c4tui.engine.external.protocol import info_lines
from c4tui.engine.players.specs import make_engine
from tests.app.test_served import footer_keys, served_app, service, until  # noqa: F401
from tests.rooms.support import running


async def test_a_token_made_in_the_lobby_is_shown_once_and_signs_the_bot_in(service):  # noqa: F811
    app = served_app(service)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("b")
        await until(pilot, lambda: isinstance(app.screen, BotTokenScreen))
        await pilot.press(*"a!", "enter")  # refused here, in words, before the server
        await pilot.press("backspace", *"nnbot", "enter")
        await until(pilot, lambda: app.screen.token is not None)
        token = app.screen.token
        assert token in str(app.screen.query_one("#bot-token-words", Static).render())
        assert service.bots.sign_in(token) == BotAccount("annbot", "ssh-name:ann")


async def test_a_bot_online_is_challenged_from_the_lobby_and_its_thinking_shows(
    service,  # noqa: F811
    monkeypatch,
):
    account, _ = service.bots.tokens.make("ssh-name:bob", "bobbot")
    feed = service.bots.open_account(account, "127.0.0.1")
    app = served_app(service)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        lobby = app.screen
        await until(pilot, lambda: lobby.bots == ("bobbot",))
        assert "bots (1): BOT bobbot" in str(lobby.query_one("#online", Static).render())
        lobby.query_one("#level", Select).value = "bot:bobbot"
        await pilot.press("a")
        challenge = await feed.events.get()
        while challenge["type"] != "challenge":
            challenge = await feed.events.get()
        assert challenge["from"] == {"name": "ann", "bot": False}
        room = service.bots.accept(account, challenge["id"])
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.match.room)
        assert [seat.name for seat in app.match.room.seats] == ["ann", "BOT bobbot"]

        game = service.bots.play.open_game(account, room.number, "127.0.0.1")
        drawn = []
        show = ThinkingPanel.show
        monkeypatch.setattr(
            ThinkingPanel, "show", lambda panel, view: (drawn.append(view), show(panel, view))
        )
        await pilot.press("4")
        await until(pilot, lambda: app.match.room.position.moves == 1 and app.match.thinking)
        # A bot is not hurried: no `m`, and the status line offers none.
        await pilot.pause()
        assert room_status_text(app.match.room, KEYS) == "BOT bobbot ○ is thinking…"
        assert "AI move" not in footer_keys(app)
        seats = app.match.room.seats
        dropped = replace(app.match.room, seats=(seats[0], replace(seats[1], held_until=1.0)))
        said = room_status_text(dropped, KEYS)
        assert said == "BOT bobbot ○ dropped: its seat is held for it."
        result = make_engine("mcts:iterations=200", seed=3).search(Position.from_moves("4"))
        service.bots.play.think(account, room.number, "\n".join(info_lines(result.info)))
        await until(pilot, lambda: any(view.info is not None for view in drawn))
        assert next(view for view in drawn if view.info).info.engine == "bobbot"
        assert app.room_screen.thinking_panel.display
        service.bots.play.close_game(game)


async def test_the_operators_engines_are_offered_by_name_in_the_lobby(tmp_path):
    engines = (("house", "greedy"),)
    async with running(tmp_path / "state", engines=engines) as operated:
        app = served_app(operated)
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            select = app.screen.query_one("#level", Select)
            assert ("house (this server's)", "server:house") in app.screen.opponents()
            select.value = "server:house"
            await pilot.press("a")
            await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.match.room)
            assert app.match.room.seats[1].ai == "greedy"
