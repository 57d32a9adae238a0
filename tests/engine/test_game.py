"""Game: undo and redo, the result, and the saved-game text format."""

from __future__ import annotations

import pytest

from c4tui.engine.game import Game, GameFormatError, Result
from c4tui.engine.position import IllegalMoveError, Position


def test_a_new_game_is_the_empty_board():
    game = Game()
    assert game.position == Position.start()
    assert game.moves == ()
    assert game.result() is None
    assert not game.can_undo() and not game.can_redo()


def test_undo_and_redo_walk_the_moves():
    game = Game.from_moves("4453")
    assert game.moves == (3, 3, 4, 2)
    assert game.undo() == 2
    assert game.undo() == 4
    assert game.position.to_moves() == "44"
    assert game.can_redo()
    assert game.redo() == 4
    assert game.position.to_moves() == "445"
    assert game.redo() == 2
    assert game.position == Position.from_moves("4453")
    assert not game.can_redo()


def test_playing_after_undo_clears_redo():
    game = Game.from_moves("4453")
    game.undo()
    game.play(0)
    assert not game.can_redo()
    assert game.position.to_moves() == "4451"
    with pytest.raises(IndexError):
        game.redo()


def test_undo_stops_at_the_start():
    game = Game.from_moves("4")
    game.undo()
    with pytest.raises(IndexError):
        game.undo()
    assert game.position == Position.start()


def test_an_illegal_move_leaves_the_game_unchanged():
    game = Game.from_moves("111111")
    with pytest.raises(IllegalMoveError):
        game.play(0)
    assert game.position.to_moves() == "111111"


def test_result_names_the_winner_and_the_line():
    game = Game.from_moves("1212121")
    assert game.result() == Result(0, ((0, 0), (0, 1), (0, 2), (0, 3)))
    game.undo()
    assert game.result() is None
    game.play(2)
    game.play(0)  # the second player caps the first player's three
    assert game.result() is None


def test_result_of_a_second_player_win_and_of_a_draw():
    game = Game.from_moves("14245474")
    assert game.position.winner() == 1
    assert game.result() == Result(1, ((3, 0), (3, 1), (3, 2), (3, 3)))
    draw = Game.from_moves("2234114322434311", 4, 4, 4)
    assert draw.result() == Result(None)


@pytest.mark.parametrize(
    ("moves", "size"),
    [("", (7, 6, 4)), ("4453", (7, 6, 4)), ("a1a9", (10, 8, 5)), ("12", (4, 4, 3))],
)
def test_save_and_load_round_trip(moves, size):
    game = Game.from_moves(moves, *size)
    text = game.to_text()
    assert text.splitlines()[0] == "c4tui game"
    loaded = Game.from_text(text)
    assert loaded.position == game.position
    assert loaded.position.to_moves() == moves
    assert (loaded.position.width, loaded.position.height, loaded.position.connect) == size


def test_load_accepts_comments_blank_lines_and_defaults():
    text = "\n# saved by hand\nc4tui game\n\n  moves: 4453  \n# the end\n"
    game = Game.from_text(text)
    assert game.position == Position.from_moves("4453")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "line 1: expected 'c4tui game'"),
        ("chess game\nmoves: 44\n", "line 1: expected 'c4tui game'"),
        ("c4tui game\nplayer: me\n", "line 2: expected 'size:', 'connect:' or 'moves:'"),
        ("c4tui game\nmoves 44\n", "line 2: expected"),
        ("c4tui game\nsize: big\n", "line 2: size should look like 7x6"),
        ("c4tui game\nsize: 7x6x2\n", "line 2: size should look like 7x6"),
        ("c4tui game\nconnect: four\n", "line 2: connect should be a number"),
        ("c4tui game\nsize: 12x6\nmoves: 1\n", "line 2: width 12 is outside"),
        ("c4tui game\n\nmoves: 44x\n", "line 3: move 3 ('x')"),
        ("c4tui game\nsize: 5x4\nmoves: 6\n", "line 3: move 1 ('6') of '6': column 6 is outside"),
        (
            "c4tui game\nmoves: 12121212\n",
            "line 2: move 8 ('2') of '12121212': the game is already",
        ),
    ],
)
def test_bad_files_name_the_line_and_the_problem(text, message):
    with pytest.raises(GameFormatError) as caught:
        Game.from_text(text)
    assert str(caught.value).startswith(message)
