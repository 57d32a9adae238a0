"""The screen-reader mode in the app: lines for every change, typed commands and keys,
the cursor on the line in focus, and how the mode is turned on."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList

from c4tui.app.app import ConnectFourApp
from c4tui.app.reader.commands import help_lines
from c4tui.app.reader.log import ReaderLog
from c4tui.app.reader.mode import ENV, reading
from c4tui.app.reader.view import CommandLine
from c4tui.app.settings import Settings
from c4tui.app.textual_internals import option_line
from c4tui.cli import build_parser
from tests.app.showcase import against, humans, settle, type_keys, until

SIZE = (80, 24)


def lines(app: ConnectFourApp) -> list[str]:
    return app.spoken.lines


async def typed(pilot, text: str) -> None:
    """Type a command on the command line and press Enter."""
    await type_keys(pilot, *text, "enter")
    await settle(pilot)


async def test_a_game_is_followed_line_by_line(make_app):
    app = make_app(settings=humans(), screen_reader=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert reading(app)
        assert lines(app) == [
            "new game: ● Player 1 against ○ Player 2, 7 columns, 6 rows, connect 4",
            "your move, ●",  # two people at one keyboard: each is told
        ]
        for column in "2233445":
            await typed(pilot, column)
        assert lines(app)[2:6] == [
            "● plays column 2, row 1",
            "your move, ○",
            "○ plays column 2, row 2",
            "your move, ●",
        ]
        assert lines(app)[-2:] == [
            "● plays column 5, row 1",
            "● Player 1 wins: four in a row, columns 2 to 5 on row 1",
        ]


async def test_your_move_once_the_ai_has_answered(make_app):
    app = make_app(settings=against("greedy"), screen_reader=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert lines(app)[-1] == "your move, ●"
        await typed(pilot, "4")
        said = lines(app)[-3:]
        assert said[0] == "● plays column 4, row 1"
        assert said[1].startswith("○ plays column ")
        assert said[2] == "your move, ●"


async def test_questions_answer_in_lines(make_app):
    app = make_app(settings=humans(), screen_reader=True, moves="4453")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await typed(pilot, "board")
        assert lines(app)[-3:] == [
            "rows 3 to 6: empty",
            "row 2: empty, empty, empty, ○, empty, empty, empty",
            "row 1: empty, empty, ○, ●, ●, empty, empty",
        ]
        await typed(pilot, "column 3")
        assert lines(app)[-1] == "column 3, bottom up: ○; room for 5"
        await typed(pilot, "l")
        assert lines(app)[-1].startswith("last moves: 1 ● column 4, 1 ○ column 4")
        await typed(pilot, "turn")
        assert lines(app)[-1] == "your move, ●"
        await typed(pilot, "threats")
        assert lines(app)[-3] == "threats of ●: none"
        await typed(pilot, "clocks")
        assert lines(app)[-1] == "no clocks in this game"
        await typed(pilot, "ai")
        assert lines(app)[-1] == "no engine has looked at this game"
        await typed(pilot, "jump about")
        assert lines(app)[-1] == "not a command: jump about; ? lists them"


async def test_the_ais_view_of_each_column_in_words(make_app):
    app = make_app(settings=against("perfect"), screen_reader=True, moves="4444")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await typed(pilot, "3")
        await typed(pilot, "ai")
        said = lines(app)
        head = next(i for i, line in enumerate(said) if line.startswith("Perfect for ○"))
        assert said[head + 1 : head + 8] == [
            line for line in said[head + 1 : head + 8] if line.startswith("column ")
        ]
        assert any(" in " in line for line in said[head + 1 : head + 8])  # "loss in 8"


async def test_game_keys_typed_by_name_or_letter_and_refused_ones_said(make_app):
    app = make_app(settings=humans(), screen_reader=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await typed(pilot, "undo")
        assert lines(app)[-1] == "Nothing to undo."  # the match's notice, as a line
        await typed(pilot, "4")
        await typed(pilot, "u")
        assert lines(app)[-2:] == [
            "taken back: 1 ● column 4; at the start, the board is empty",
            "your move, ●",
        ]
        await typed(pilot, "redo")
        assert lines(app)[-2:] == ["● plays column 4, row 1", "your move, ○"]  # played again


async def test_left_and_right_choose_a_column_and_enter_drops_there(make_app):
    app = make_app(settings=humans(), screen_reader=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_keys(pilot, "right")
        assert lines(app)[-1] == "chosen column 5: empty, room for 6"
        await type_keys(pilot, "enter")
        await settle(pilot)
        assert lines(app)[-2:] == ["● plays column 5, row 1", "your move, ○"]


async def test_escape_gives_the_keys_and_the_cursor_sits_on_the_newest_line(make_app):
    app = make_app(settings=humans(), screen_reader=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        command = app.screen.query_one(CommandLine)
        assert command.has_focus
        # Typing: the terminal cursor is on the command line (the bottom line).
        assert app.cursor_position.y == SIZE[1] - 1
        await type_keys(pilot, "escape")
        await type_keys(pilot, "b")  # the board's key, at once
        assert lines(app)[-1] == "rows 1 to 6: empty"
        log = app.screen.query_one(ReaderLog)
        assert log.has_focus
        assert app.cursor_position.y == len(lines(app)) - 1  # the newest line
        await type_keys(pilot, "4")
        await settle(pilot)
        assert lines(app)[-2:] == ["● plays column 4, row 1", "your move, ○"]
        await type_keys(pilot, "left_square_bracket")  # read back a line: the cursor goes up
        assert app.cursor_position.y == len(lines(app)) - 2
        await type_keys(pilot, "colon")
        assert command.has_focus


async def test_notices_are_lines_not_toasts(make_app):
    app = make_app(settings=humans(), screen_reader=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.notify("Something to say.", title="Test")
        assert lines(app)[-1] == "Test: Something to say."
        assert not app._notifications


async def test_the_setting_turns_the_mode_on_and_off(make_app):
    app = make_app(settings=humans())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert not reading(app)
        assert not app.screen.query_one("#reader").display
        app.apply_settings(Settings(mode="humans", theme="textual-dark", screen_reader=True))
        await pilot.pause()
        assert reading(app)
        assert app.screen.query_one(CommandLine).has_focus
        assert not app.screen.query_one("#main").display
        app.apply_settings(Settings(mode="humans", theme="textual-dark"))
        await pilot.pause()
        assert not reading(app)


@pytest.mark.parametrize("value, on", [("1", True), ("0", False), ("", False)])
async def test_the_environment_asks_for_the_mode(make_app, monkeypatch, value, on):
    monkeypatch.setenv(ENV, value)
    app = make_app(settings=humans())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert reading(app) is on


def test_the_command_line_flag():
    assert build_parser().parse_args(["--screen-reader"]).screen_reader
    assert not build_parser().parse_args([]).screen_reader


async def test_no_box_drawing_on_the_reader_screen(make_app):
    app = make_app(settings=against("greedy"), screen_reader=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for command in ("4", "board", "ai", "threats", "?"):
            await typed(pilot, command)
        # The list's last word, whatever scrolled off above (the SVG's spaces are &#160;).
        last = help_lines()[-1].split()[-1]
        await until(pilot, lambda: last in app.export_screenshot(), "the lines drawn")
        screen = app.export_screenshot()
        assert not [c for c in screen if "\u2500" <= c <= "\u257f"]


async def test_a_column_off_the_board_is_refused_in_words(make_app):
    app = make_app(settings=humans(), screen_reader=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for asked in ("column 0", "column 8", "column 15", "f 0"):  # once a crash, then lies
            await typed(pilot, asked)
            number = asked.split()[-1]
            assert lines(app)[-1] == f"There is no column {number}: the board has 7."
        for dropped in ("0", "drop 0", "8", "drop 99"):
            await typed(pilot, dropped)
            number = dropped.split()[-1]
            assert lines(app)[-1] == f"There is no column {number}: the board has 7."
        assert app.match.position.moves == 0
        await typed(pilot, "column")  # the chosen column is still one on the board
        assert lines(app)[-1] == "column 4: empty, room for 6"
        await typed(pilot, "column ²")  # a digit Python reads but not a column number
        assert lines(app)[-1] == "not a command: column ²; ? lists them"
        await typed(pilot, "٤")  # an Arabic-Indic four: no key, not column 4
        assert lines(app)[-1] == "not now: ٤"
        assert app.match.position.moves == 0


async def test_a_win_one_move_away_is_said_after_the_move(make_app):
    app = make_app(settings=humans(), screen_reader=True, moves="4455")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await typed(pilot, "6")
        assert lines(app)[-3:] == [
            "● plays column 6, row 1",
            "● threatens to win in columns 3 and 7",
            "your move, ○",
        ]
        await typed(pilot, "3")
        assert lines(app)[-3:] == [
            "○ plays column 3, row 1",
            "● can win now in column 7",
            "your move, ●",
        ]


async def test_the_exact_scores_are_said_and_z_says_the_threats(make_app):
    app = make_app(settings=humans(), screen_reader=True, moves="445566")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for asked in ("scores", "o"):
            await typed(pilot, asked)
            await until(pilot, lambda: lines(app)[-1].startswith("exact scores"), "solved")
            assert lines(app)[-2:] == [
                "solving every column for ●",
                "exact scores for ●: column 1 win in 2, column 2 win in 2, column 3 win in 1,"
                " column 4 win in 2, column 5 win in 2, column 6 win in 2, column 7 win in 1",
            ]
        for asked in ("z", "threat marks"):  # the marks the normal mode draws, in words
            await typed(pilot, asked)
            assert lines(app)[-3:-1] == [
                "threats of ●: column 3, row 1 (odd, now); column 7, row 1 (odd, now)",
                "threats of ○: column 3, row 2 (even); column 7, row 2 (even)",
            ]
        await type_keys(pilot, "escape", "z")  # the key, in the keys mode
        assert lines(app)[-3].startswith("threats of ●: column 3")


async def test_undo_redo_and_back_say_the_moves_they_change(make_app):
    app = make_app(settings=humans(), screen_reader=True, moves="4453")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await typed(pilot, "start")
        assert lines(app)[-2] == (
            "taken back: 2 ○ column 3, 2 ● column 5, 1 ○ column 4, 1 ● column 4;"
            " at the start, the board is empty"
        )
        await typed(pilot, "end")
        assert lines(app)[-2] == (
            "played: 1 ● column 4, 1 ○ column 4, 2 ● column 5, 2 ○ column 3;"
            " after move 2 ○, 4 discs on the board"
        )
        await typed(pilot, "back")
        assert lines(app)[-2] == "taken back: 2 ○ column 3; after move 2 ●, 3 discs on the board"
        await typed(pilot, "2")  # a variation from here
        await typed(pilot, "forward")  # the main line's move is not this line's
        await typed(pilot, "back")
        await typed(pilot, "back")
        await typed(pilot, "lines")
        assert lines(app)[-1].startswith("variation 1 from move 2 ○")


async def test_kept_games_are_lines_the_cursor_follows_and_their_review_is_said(make_app):
    app = make_app(settings=humans(), screen_reader=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for column in "4545454":  # ● wins; the game is kept
            await typed(pilot, column)
        await typed(pilot, "new")
        await typed(pilot, "4")  # a second game, unfinished, listed first
        await typed(pilot, "games")
        await until(pilot, lambda: app.screen.query("#games-lines"), "the kept games")
        games = app.screen.query_one("#games-lines", OptionList)
        assert games.has_focus
        # A sentence a game, said whole: no table, no header, no rules between columns.
        said = [str(games.get_option_at_index(i).prompt) for i in range(games.option_count)]
        assert said[0].startswith("Game 1, Player 1 ● against Player 2 ○, unfinished at move 1 ●, ")
        assert said[1].startswith(
            "Game 2, Player 1 ● against Player 2 ○, Player 1 ● won in 4 moves, "
        )
        assert said[0].endswith(", now")  # the game on the board
        screen = app.export_screenshot()
        assert not [c for c in screen if "\u2500" <= c <= "\u259f"]  # box drawing, blocks
        region = games.content_region
        assert app.cursor_position == (region.x, region.y)  # on the first game, Enter's
        assert games.region.x == 0  # the whole screen: no lines show through at the side
        await type_keys(pilot, "down")  # the second game, below the first's two lines
        assert app.cursor_position == (region.x, region.y + option_line(games, 1))
        await type_keys(pilot, "v")  # its review, in lines: no board, no graph
        await until(pilot, lambda: "review of 7 moves" in lines(app), "the review")
        assert app.screen is app.game_screen
