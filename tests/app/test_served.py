"""The served app driven by a RemoteMatch: lobby, a room with another player, a spectator.

A room service runs in the test's event loop; the app under the pilot is one player and
a plain protocol client is the other.
"""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Checkbox, Select, Static

from c4tui.app.screens.game import GameScreen
from c4tui.app.screens.help import HelpScreen
from c4tui.app.screens.lobby import LobbyScreen
from c4tui.app.served import ServedApp
from c4tui.app.status_words import room_outcome_text
from c4tui.app.textual_internals import notifications
from c4tui.app.widgets.thinking import ThinkingPanel
from c4tui.cli import main
from c4tui.match.remote import RemoteMatch
from c4tui.match.room_events import Said
from c4tui.match.search_requests import Notice
from c4tui.server.service.service import RoomLimits, RoomService
from tests.rooms.support import PATIENCE, login, next_of, room_where


@pytest.fixture
async def service(tmp_path):
    service = RoomService(tmp_path / "state", RoomLimits(ai_workers=1, ai_seconds=0.3))
    await service.start()
    yield service
    await service.close()


def served_app(service: RoomService, name: str = "ann", told: list[str] | None = None) -> ServedApp:
    """The app as `name`; what its match tells it to say (notices, chat) goes in `told`."""

    async def connect():
        match = RemoteMatch(await login(service, name))
        if told is not None:
            match.listen(lambda event: told.extend(words_of(event)))
        return match

    return ServedApp(steady=True, connect_with=connect)


def words_of(event) -> list[str]:
    if isinstance(event, Notice):
        return [event.text]
    if isinstance(event, Said):
        return [f"{event.name}: {event.text}"]
    return []


async def until(pilot, condition) -> None:
    """Let the app run until `condition()` holds (what the service sends takes a while)."""

    async def wait() -> None:
        while not condition():
            await pilot.pause(0.02)

    await asyncio.wait_for(wait(), PATIENCE)


async def test_a_room_for_two_played_from_the_app(service):
    told: list[str] = []
    app = served_app(service, told=told)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.match.room)
        view = app.match.room
        assert view.seat == 0 and view.seats[1].open and view.code
        bob = await login(service, "bob")
        await bob.send("join", code=view.code)
        await room_where(bob, lambda m: m["seat"] == 1)
        await until(pilot, lambda: app.match.room.seats[1].name == "bob")
        await pilot.press("4")
        await room_where(bob, lambda m: m["moves"] == "4")
        await pilot.press("5")  # not ann's turn: refused with the service's reason
        await until(pilot, lambda: any("turn" in text for text in told))
        await bob.send("drop", column=0, ply=1)
        await until(pilot, lambda: app.match.room.position.to_moves() == "41")
        assert "Your turn" in str(app.room_screen.status_line.render())
        await bob.send("take_back")
        await until(pilot, lambda: app.screen.__class__.__name__ == "AnswerScreen")
        await pilot.press("n")  # declined: a new request is asked about again
        await room_where(bob, lambda m: m["offers"] == {})
        await bob.send("take_back")
        await until(pilot, lambda: app.screen.__class__.__name__ == "AnswerScreen")
        await pilot.press("y")
        await until(pilot, lambda: app.match.room.position.to_moves() == "4")
        await pilot.press("c", *"gg", "enter")  # a chat line
        said = await next_of(bob, "said")
        assert (said["name"], said["text"]) == ("ann", "gg")
        await pilot.press("R", "y")  # resign, and yes
        await until(pilot, lambda: app.match.room.over)
        assert "resigned" in room_outcome_text(app.match.room)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await bob.close()


async def test_a_spectator_has_no_keys_that_move(service):
    ann = await login(service, "[/ann]")  # markup in a name is shown as it is
    await ann.send("create")
    made = await room_where(ann, lambda m: m["seat"] == 0)
    told: list[str] = []
    app = served_app(service, "cat", told)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: bool(app.lobby_screen.rooms))
        assert "[/ann]" in str(app.lobby_screen.query_one("#online").render())
        await pilot.press("w")
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.match.room)
        view = app.match.room
        assert view.seat is None and view.code is None  # a private room's code is not shown
        assert not app.room_screen.check_action("drop", (3,))
        assert not app.room_screen.check_action("part", ("room", "resign"))
        await ann.send("say", text="hello cat")
        await until(pilot, lambda: "[/ann]: hello cat" in told)
    await ann.close()
    assert made["room"] == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--served", "--load", "game.c4"], "--served takes no --load"),
        (["--served", "--position", "44"], "--served takes no --position"),
        (["--served"], "C4TUI_ROOMS_SOCKET is not set"),
    ],
)
def test_served_mode_refuses_host_files_and_needs_its_front(argv, message, capsys, monkeypatch):
    monkeypatch.delenv("C4TUI_ROOMS_SOCKET", raising=False)
    monkeypatch.delenv("C4TUI_ROOMS_TOKEN", raising=False)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


async def test_the_ai_seats_thinking_reaches_the_panel_while_it_searches(service, monkeypatch):
    await service.host.ai.pool.start()  # before the app under test swaps stderr for no file
    app = served_app(service)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        drawn = []
        show = ThinkingPanel.show
        monkeypatch.setattr(
            ThinkingPanel, "show", lambda panel, view: (drawn.append(view), show(panel, view))
        )
        app.match.create("mcts:time=0.3", second=True)
        await until(pilot, lambda: any(view.info is not None for view in drawn))
        view = next(view for view in drawn if view.info is not None)
        assert view.info.engine == "mcts" and app.room_screen.thinking_panel.display
        await until(pilot, lambda: app.match.room.position.moves == 1)
        assert "Your turn" in str(app.room_screen.status_line.render())
        # The figures are of the position the AI searched, ●'s turn, not of the board
        # now (issue 30 item 2: the room said "from ○'s view" above ●'s figures).
        await until(pilot, lambda: not app.match.room.thinking)
        await pilot.pause()
        assert app.room_screen.thinking_panel.border_subtitle == "figures from ●'s view"
        assert app.room_screen.board.view.position.to_move == 1



async def test_the_learned_engine_is_offered_in_the_lobby_and_its_priors_reach_the_panel(
    service, monkeypatch
):
    await service.host.ai.pool.start()
    app = served_app(service)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        assert ("AlphaZero, watch it think", "alphazero") in app.screen.opponents()
        drawn = []
        show = ThinkingPanel.show
        monkeypatch.setattr(
            ThinkingPanel, "show", lambda panel, view: (drawn.append(view), show(panel, view))
        )
        app.screen.query_one("#level", Select).value = "alphazero"
        app.screen.query_one("#second", Checkbox).value = True
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.match.room)
        assert app.match.room.seats[0].ai == "alphazero:time=0.3"  # the server's budget
        await until(pilot, lambda: app.match.room.position.moves == 1)
        view = next(view for view in drawn if view.info is not None)
        assert view.info.engine == "alphazero"
        assert all(column.prior is not None for column in view.info.columns)

def footer_keys(app) -> set[str]:
    """The actions the footer shows now."""
    return {
        active.binding.description
        for active in app.screen.active_bindings.values()
        if active.binding.show
    }


async def test_a_room_has_help_the_palette_and_the_classic_style_and_hides_refused_keys(service):
    app = served_app(service)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert "Screenshot" not in titles  # issue 30 item 15: written on the server
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.match.room)
        bob = await login(service, "bob")
        await bob.send("join", code=app.match.room.code)
        await until(pilot, lambda: app.match.room.seats[1].name == "bob")
        await pilot.pause()
        keys = footer_keys(app)
        # Your turn against a person: no AI to hurry, nothing to take back yet.
        assert {"Drop", "Say", "Draw?", "Resign", "Help", "Lobby", "Quit"} <= keys, keys
        assert not keys & {"AI move", "Take back", "Undo", "Redo", "New", "Rematch", "Hint"}
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert {"Board style: classic", "Help", "Resign"} <= titles, titles
        assert "Screenshot" not in titles
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        app.looks.toggle_board_style()
        await pilot.pause()
        assert app.room_screen.board.view.style == "classic"
        await pilot.press("4")
        await room_where(bob, lambda m: m["moves"] == "4")
        for ply, column in enumerate((0, 3, 0, 3, 0, 3), start=1):
            if ply % 2:
                await bob.send("drop", column=column, ply=ply)
            else:
                await until(pilot, lambda ply=ply: app.match.room.position.moves == ply)
                await pilot.press(str(column + 1))
        await until(pilot, lambda: app.match.room.over)
        await pilot.pause()
        keys = footer_keys(app)
        # Issue 30 item 17: no take-back after the end; the rematch instead.
        assert "Take back" not in keys and "Rematch" in keys and "Resign" not in keys, keys
        # Issue 45 item 30: no "⏎ Drop" at the end of the line; one move back, on the
        # analysis board, a drop tries another move there.
        assert "Drop" not in keys, keys
        await pilot.press("up")
        await until(pilot, lambda: "Drop" in footer_keys(app))
        await pilot.press("u")
        await pilot.pause()
        assert not app.match.room.offers  # no take-back request was sent
        await bob.close()


async def test_the_rooms_chat_stays_beside_the_board_as_a_short_history(service):
    # Issue 30 item 20: chat was a toast that vanished.
    told: list[str] = []
    app = served_app(service, told=told)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.match.room)
        bob = await login(service, "bob")
        await bob.send("join", code=app.match.room.code)
        await until(pilot, lambda: app.match.room.seats[1].name == "bob")
        for line in ("hi", "good luck", "nice move", "gg"):
            await bob.send("say", text=line)
        await until(pilot, lambda: "bob: gg" in told)
        await until(pilot, lambda: len(app.room_panel.chat) == 3)
        assert list(app.room_panel.chat) == [
            ("bob", "good luck"),
            ("bob", "nice move"),
            ("bob", "gg"),
        ]
        assert "bob: gg" in str(app.room_panel.said.render())
        assert not any("gg" in n.message for n in notifications(app))
        await bob.close()


async def test_leaving_or_quitting_a_game_going_on_asks_first(service):
    app = served_app(service)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.match.room)
        bob = await login(service, "bob")
        await bob.send("join", code=app.match.room.code)
        await until(pilot, lambda: app.match.room.seats[1].name == "bob")
        for key in ("escape", "q"):
            await pilot.press(key)
            await until(pilot, lambda: app.screen.__class__.__name__ == "AnswerScreen")
            # The question says what leaving costs: the seat is held, then the game lost.
            question = app.screen.query_one("#answer-question", Static)
            assert "may claim the game as won" in str(question.render())
            await pilot.press("n")  # stay
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
        assert app.is_running and app.match.room is not None and app.match.room.playing
        await pilot.press("escape", "y")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await bob.close()


async def test_leaving_a_room_with_no_opponent_is_not_asked(service):
    # Alone in a new room, nothing is lost by going: no question about a held seat.
    app = served_app(service)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.match.room)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
