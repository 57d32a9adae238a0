"""The screen-reader mode in the served app (no ssh: the room service in the test's loop):
the lobby's toggle and typed commands, a room for two in lines, chat as a line."""

from __future__ import annotations

import pytest
from textual.widgets import Input, OptionList

from c4tui.app.reader.mode import reading
from c4tui.app.reader.pane import PaneCommandLine
from c4tui.app.screens.answer import AnswerScreen
from c4tui.app.screens.game import GameScreen
from c4tui.app.screens.lobby import LobbyScreen
from c4tui.app.screens.matchmaking import CONTROLS, DEFAULT_CONTROL, ControlScreen
from tests.app.test_served import served_app, service, until
from tests.rooms.support import login, room_where

__all__ = ["service"]


async def typed(pilot, text: str) -> None:
    for key in text:
        await pilot.press(key)
    await pilot.press("enter")


@pytest.mark.slow  # two servers or a whole served app: 4-5 s of the default run
async def test_the_lobby_toggle_then_a_room_for_two_in_lines(service):
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("s")  # the lobby's Screen reader tick box
        await until(pilot, lambda: reading(app))
        assert isinstance(app.focused, PaneCommandLine)
        await until(
            pilot, lambda: any(line.startswith("lobby: you are ann") for line in app.spoken.lines)
        )
        await typed(pilot, "online")
        await until(pilot, lambda: app.spoken.lines[-1].startswith("online (1): ann"))
        await typed(pilot, "play 9")
        assert app.spoken.lines[-1] == "no level 9: levels are 1 to 8"
        await typed(pilot, "room")
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.match.room)
        code = app.match.room.code
        assert any(line.endswith(f"; code {code} to pass on") for line in app.spoken.lines)
        bob = await login(service, "bob")
        await bob.send("join", code=code)
        await room_where(bob, lambda m: m["seat"] == 1)
        await until(pilot, lambda: "seat ○: ○ bob" in app.spoken.lines)
        await until(pilot, lambda: isinstance(app.focused, PaneCommandLine))
        await typed(pilot, "4")
        await until(pilot, lambda: "● plays column 4, row 1" in app.spoken.lines)
        await bob.send("drop", column=2, ply=1)
        await until(pilot, lambda: "○ plays column 3, row 1" in app.spoken.lines)
        assert app.spoken.lines[-1] == "your move, ●"
        await typed(pilot, "say good luck")
        await until(pilot, lambda: "ann says: good luck" in app.spoken.lines)
        assert not app._notifications  # notices and chat are lines, not toasts
        await typed(pilot, "resign")  # asked first: the cursor on the question, not a button
        await until(pilot, lambda: isinstance(app.screen, AnswerScreen))
        await pilot.pause()
        question = app.screen.query_one("#answer-question").content_region
        assert app.cursor_position == question.offset
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.focused, PaneCommandLine))


async def test_the_cursor_sits_on_the_time_control_that_enter_would_pick(service):
    """In the mode the terminal's cursor is what a screen reader reads: on a list it is the
    highlighted item, the one Enter picks, and it follows the arrows."""
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("s")
        await until(pilot, lambda: reading(app))
        app.push_screen(ControlScreen())
        await until(pilot, lambda: isinstance(app.screen, ControlScreen))
        await pilot.pause()
        controls = app.screen.query_one("#controls", OptionList)

        def row_of(control: str) -> int:
            return controls.content_region.y + CONTROLS.index(control)

        assert app.cursor_position.y == row_of(DEFAULT_CONTROL)
        await pilot.press("down")
        await until(pilot, lambda: app.cursor_position.y == row_of("5+3"))
        assert app.cursor_position.x == controls.content_region.x


async def reader_room_with_bob(service, app, pilot):
    """In the mode, ann opens a room for two and bob sits down: bob's client."""
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
    await pilot.press("s")
    await until(pilot, lambda: reading(app) and isinstance(app.focused, PaneCommandLine))
    await typed(pilot, "room")
    await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.match.room)
    bob = await login(service, "bob")
    await bob.send("join", code=app.match.room.code)
    await room_where(bob, lambda m: m["seat"] == 1)
    await until(pilot, lambda: "seat ○: ○ bob" in app.spoken.lines)
    await until(pilot, lambda: isinstance(app.focused, PaneCommandLine))
    return bob


async def test_the_review_of_a_finished_room(service):
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        bob = await reader_room_with_bob(service, app, pilot)
        await typed(pilot, "4")
        await until(pilot, lambda: "● plays column 4, row 1" in app.spoken.lines)
        await bob.send("drop", column=2, ply=1)
        await until(pilot, lambda: app.spoken.lines[-1] == "your move, ●")
        await bob.send("resign")
        await until(pilot, lambda: app.match.view().over)
        await typed(pilot, "review")  # once an AttributeError that ended the client
        await until(pilot, lambda: "review of 2 moves" in app.spoken.lines)
        assert app.is_running


async def test_a_second_room_says_its_code_and_room_says_the_live_one(service):
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("s")
        await until(pilot, lambda: reading(app) and isinstance(app.focused, PaneCommandLine))
        for _ in range(2):  # the first closes as its only player leaves: its number is free
            await typed(pilot, "room")
            await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.match.room)
            code = app.match.room.code
            said = f"code {code} to pass on"
            await until(pilot, lambda said=said: app.spoken.lines[-1].endswith(said))
            await until(pilot, lambda: isinstance(app.focused, PaneCommandLine))
            await typed(pilot, "room")  # asked in the room: the live code, and the seat's
            seat_code = app.match.room.seat_code
            assert app.spoken.lines[-1] == (
                f"room 1: ● ann against ○ open; you are playing ●; code {code} to pass on;"
                f" your seat code {seat_code} brings you back to your seat"
            )
            await typed(pilot, "lobby")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await until(pilot, lambda: isinstance(app.focused, PaneCommandLine))


async def test_a_take_back_says_the_move_and_a_rematch_is_a_new_game(service):
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        bob = await reader_room_with_bob(service, app, pilot)
        await typed(pilot, "4")
        await until(pilot, lambda: "● plays column 4, row 1" in app.spoken.lines)
        await typed(pilot, "take back")
        await room_where(bob, lambda m: m["offers"] == {"take_back": 0})
        await bob.send("answer", offer="take_back", accept=True)
        # Once "new game": the board is as empty as a rematch's.
        taken = "taken back: 1 ● column 4; at the start, the board is empty"
        await until(pilot, lambda: taken in app.spoken.lines)
        await bob.send("resign")
        await until(pilot, lambda: app.match.view().over)
        await bob.send("rematch")
        await typed(pilot, "rematch")
        again = "new game: ● bob against ○ you, 7 columns, 6 rows, connect 4"
        await until(pilot, lambda: again in app.spoken.lines)


async def test_find_and_challenge_typed_and_said_once_each(service):
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("s")
        await until(pilot, lambda: reading(app) and isinstance(app.focused, PaneCommandLine))
        assert not app.screen.query_one("#matching").display  # its line is not drawn
        await typed(pilot, "find 5+3")
        await until(pilot, lambda: app.spoken.lines[-1].startswith("finding a 5+3 blitz game"))
        await typed(pilot, "find")  # again: stops
        await until(pilot, lambda: app.spoken.lines[-1] == "no longer finding a game")
        await typed(pilot, "find 2+1")
        assert app.spoken.lines[-1] == "no time control 2+1: 1+0, 3+2, 5+3, 10+5, 1d"
        bob = await login(service, "bob")
        await until(pilot, lambda: "bob is online" in app.spoken.lines)
        await bob.send("challenge", name="ann", control="3+2", rated=False)
        await until(pilot, lambda: app.spoken.lines[-1].startswith("bob challenges you: "))
        await typed(pilot, "decline")
        await until(pilot, lambda: app.spoken.lines[-1] == "the challenge of bob is gone")
        await typed(pilot, "challenge carol")
        assert app.spoken.lines[-1] == "carol is not online (online: ann, bob)"
        await typed(pilot, "leaderboard")
        await until(pilot, lambda: not isinstance(app.screen, LobbyScreen))


async def test_reader_off_gives_the_lobby_its_keys_back(service):
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("s")
        await until(pilot, lambda: reading(app) and isinstance(app.focused, PaneCommandLine))
        await typed(pilot, "reader off")
        await until(pilot, lambda: not reading(app))
        # `s` again turns it on: the tick box had stayed ticked, so `s` ticked it again and
        # changed nothing (the mode came back only from the palette).
        box = app.screen.query_one("#screen-reader")
        await until(pilot, lambda: not box.value)
        await pilot.press("s")
        await until(pilot, lambda: reading(app) and isinstance(app.focused, PaneCommandLine))
        await typed(pilot, "reader off")
        await until(pilot, lambda: not reading(app))
        await pilot.press("r")  # the lobby's key: a new room, not a letter in a hidden line
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.match.room)


async def test_a_dialog_hides_the_lines_under_it(service):
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("s")
        await until(pilot, lambda: reading(app) and isinstance(app.focused, PaneCommandLine))
        await until(pilot, lambda: "ann" in app.export_screenshot())  # "lobby: you are ann"
        await typed(pilot, "challenge")
        await until(pilot, lambda: not isinstance(app.screen, LobbyScreen))
        # Once the lobby's lines showed through around the dialog, read as one with it.
        await until(pilot, lambda: "lobby:" not in app.export_screenshot().replace("&#160;", " "))


async def test_the_cursor_is_on_the_field_a_dialog_opens_on(service):
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("s")
        await until(pilot, lambda: reading(app) and isinstance(app.focused, PaneCommandLine))
        bob = await login(service, "bob")
        await until(pilot, lambda: "bob is online" in app.spoken.lines)
        await typed(pilot, "challenge bob")
        await until(pilot, lambda: isinstance(app.focused, Input) and app.focused.value == "bob")
        field = app.focused
        # Once at the screen's top left: the caret placed before the dialog was laid out.
        await until(pilot, lambda: app.cursor_position.y == field.content_region.y > 0)
        await bob.close()


async def test_play_an_engine_by_name_and_an_unknown_one_lists_them(service):
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("s")
        await until(pilot, lambda: reading(app))
        await typed(pilot, "play deep blue")
        assert app.spoken.lines[-1] == (
            "no AI deep blue: play N for a level (1 to 8), or play mcts, negamax, alphazero"
        )
        await typed(pilot, "play alphazero")
        assert "playing AlphaZero, watch it think" in app.spoken.lines
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.match.room)
        assert app.match.room.seats[1].ai.startswith("alphazero")
