"""The screen-reader mode's sentences, from positions and games."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest

from c4tui.app.reader import words
from c4tui.engine.board.game import Game
from c4tui.engine.board.position import Position
from c4tui.match.controller import Match
from c4tui.match.room_view import ClockView, SeatView
from c4tui.match.sides import Sides


def test_a_move_names_its_disc_column_and_row():
    before = Position.from_moves("44")
    assert words.move_line(before, 3) == "● plays column 4, row 3"
    assert words.move_line(Position.from_moves("4"), 5) == "○ plays column 6, row 1"


def test_a_winning_line_in_a_row_a_column_and_on_a_diagonal():
    row = Position.from_moves("2233445")
    assert words.in_a_row(row.winning_cells(), 4) == "four in a row, columns 2 to 5 on row 1"
    column = Position.from_moves("3434343")
    assert words.in_a_row(column.winning_cells(), 4) == (
        "four in a column, rows 1 to 4 in column 3"
    )
    diagonal = Position.from_moves("12233434544")
    assert diagonal.winner() == 0
    assert words.in_a_row(diagonal.winning_cells(), 4) == (
        "four on a diagonal, from column 1 row 1 to column 4 row 4"
    )


def test_the_board_row_by_row_from_the_top_with_empty_rows_together():
    assert words.board_lines(Position.start()) == ["rows 1 to 6: empty"]
    assert words.board_lines(Position.from_moves("445")) == [
        "rows 3 to 6: empty",
        "row 2: empty, empty, empty, ○, empty, empty, empty",
        "row 1: empty, empty, empty, ●, ●, empty, empty",
    ]


def test_a_column_bottom_up_and_its_room():
    pos = Position.from_moves("444")
    assert words.column_line(pos, 3) == "column 4, bottom up: ●, ○, ●; room for 3"
    assert words.column_line(pos, 0) == "column 1: empty, room for 6"
    assert words.column_line(Position.from_moves("111111"), 0).endswith("; full")


def test_the_last_moves_and_the_lines_of_a_game():
    game = Game.from_moves("4453")
    assert words.last_moves_line(game) == (
        "last moves: 1 ● column 4, 1 ○ column 4, 2 ● column 5, 2 ○ column 3"
    )
    game.jump((3, 3))
    game.play(0)  # a variation from move 2 ●
    assert words.variation_lines(game) == [
        "main line: 4 4 5 3",
        "variation 1 from move 2 ● (on the board): 1",
    ]


def test_threats_cell_by_cell_with_their_parity():
    lines = words.threat_lines(Position.from_moves("4455"))
    assert lines[0] == "threats of ●: none"
    assert "·" not in lines[-1]


def test_notices_name_the_key_of_their_intent():
    assert words.notice_line("The game is over: press {new_game} for a new game.") == (
        "The game is over: press n for a new game."
    )
    assert words.notice_line("Done.", "Saved") == "Saved: Done."


def test_the_clocks_in_words_and_each_warning_once():
    clock = ClockView("5+3", "5+3 blitz", (245.0, 300.0), 0, at=100.0)
    names = ("ann", "bob")
    assert words.clock_line(clock, names, 100.0) == (
        "clocks, 5+3 blitz: ● ann 4:05 running, ○ bob 5:00"
    )
    said: set[tuple[int, float]] = set()
    assert words.clock_warnings(clock, names, 150.0, said) == []
    assert words.clock_warnings(clock, names, 286.0, said) == ["● ann: 60 seconds left"]
    assert words.clock_warnings(clock, names, 287.0, said) == []  # said once
    # A late look past two marks says the nearer one.
    assert words.clock_warnings(clock, names, 336.0, said) == ["● ann: 10 seconds left"]


@pytest.mark.parametrize(
    "moves, said",
    [
        ("", None),
        ("4455", None),
        ("44556", "● threatens to win in columns 3 and 7"),  # ○ can stop only one
        ("445566", "● can win now in columns 3 and 7"),
        ("445563", "● can win now in column 7"),
        ("445566171", "○ can win now in column 7; ● threatens to win in column 3"),
        ("4455663", None),  # over: ● has won
    ],
)
def test_a_win_one_move_away_is_said_for_both_sides(moves, said):
    assert words.winning_threats_line(Position.from_moves(moves)) == said


@pytest.mark.parametrize(
    ("how", "said"),
    [("time", "○ you lost on time: ● bob wins"), ("abandoned", "○ you left the game: ● bob wins")],
)
def test_a_rooms_ending_off_the_board_is_said_in_words(how, said):
    """A room's view has the ending's kind (`how`), not its words: the line says them."""
    view = Match(Sides(None, None), Game.from_moves("44")).view()
    view = replace(view, names=("bob", "You"), over=True, winner=0, how=how, ending=None)
    assert words.outcome_line(view) == said


def test_a_seat_someone_left_names_them_and_an_empty_one_is_open():
    """Issue 45 item 30: a finished game's seat whose player left said "● open"."""
    left = SeatView(name="ann", ai=None, open=True, here=False, held_until=None)
    empty = replace(left, name="")
    room = SimpleNamespace(seats=(left, empty))
    assert (words.seat_words(room, 0), words.seat_words(room, 1)) == ("● ann (left)", "○ open")
