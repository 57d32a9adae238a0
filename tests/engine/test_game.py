"""Game: undo and redo, and the result."""

from __future__ import annotations

import pytest

from c4tui.engine.board.game import Evaluation, Game, Result
from c4tui.engine.board.position import IllegalMoveError, Position


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


# ---- variations ---------------------------------------------------------------------


def test_a_different_move_after_undo_starts_a_variation_and_keeps_the_line():
    game = Game.from_moves("445362")
    game.undo()
    game.undo()
    game.play(0)
    assert game.position.to_moves() == "44531"
    ends = [end.position.to_moves() for end in game.line_ends()]
    assert ends == ["445362", "44531"]
    assert game.main_position.to_moves() == "445362"
    assert not game.node.is_main()


def test_playing_a_move_the_tree_has_follows_it():
    game = Game.from_moves("4453")
    game.undo()
    game.play(2)
    assert len(game.line_ends()) == 1
    assert game.can_redo() is False


def test_redo_follows_the_line_last_walked():
    game = Game.from_moves("4453")
    game.undo()
    game.play(0)  # variation 4451
    game.undo()
    assert game.redo() == 0  # back into the variation, not the main line
    game.jump(Position.from_moves("44").path)
    assert game.redo() == 4  # the jump walked the main line


def test_jump_reaches_any_move_and_refuses_others():
    game = Game.from_moves("4453")
    game.undo()
    game.play(0)
    game.jump(Position.from_moves("445").path)
    assert game.position.to_moves() == "445"
    with pytest.raises(KeyError):
        game.jump(Position.from_moves("7").path)


def test_promote_makes_the_variation_the_main_line():
    game = Game.from_moves("445362")
    game.undo()
    game.undo()
    game.play(0)
    game.play(6)
    assert game.promote()
    assert game.main_position.to_moves() == "445317"
    assert game.node.is_main()
    assert not game.promote()  # already the main line
    assert [end.position.to_moves() for end in game.line_ends()] == ["445317", "445362"]


def test_delete_removes_the_variation_from_its_branch_point():
    game = Game.from_moves("445362")
    game.undo()
    game.undo()
    game.play(0)
    game.play(6)
    assert game.delete()
    assert game.position.to_moves() == "4453"  # the board goes back to the branch point
    assert [end.position.to_moves() for end in game.line_ends()] == ["445362"]
    assert not game.delete()  # the main line stays


def test_promote_and_delete_of_a_nested_variation():
    game = Game.from_moves("4453")
    game.undo()
    game.undo()
    game.play(1)  # 442
    game.play(1)  # 4422
    game.undo()
    game.play(2)  # 4423: a variation inside the variation
    assert [e.position.to_moves() for e in game.line_ends()] == ["4453", "4422", "4423"]
    game.promote()
    assert game.main_position.to_moves() == "4423"
    game.delete(Position.from_moves("4422").path)
    assert [e.position.to_moves() for e in game.line_ends()] == ["4423", "4453"]


def test_a_moves_evaluation_stays_with_it_on_its_line():
    game = Game.from_moves("44")
    game.node.evaluation = Evaluation("mcts", -0.25)
    game.undo()
    game.play(2)  # a variation: its line has no evaluation
    assert [node.column for node in game.line()] == [3, 2]
    assert [node.evaluation for node in game.line()] == [None, None]
    game.jump((3, 3))
    assert game.line()[-1].evaluation == Evaluation("mcts", -0.25)


def test_a_game_goes_on_to_a_position_that_continues_its_board():
    game = Game.from_moves("44")
    assert game.go_on_to(Position.from_moves("4453"))
    assert game.moves == (3, 3, 4, 2)
    assert not game.go_on_to(Position.from_moves("445"))  # a take-back: made afresh instead
    assert not game.go_on_to(Position.from_moves("4453", width=8))  # another board
    game.jump((3, 3))
    game.play(0)  # a variation: an analysis board is not followed
    assert not game.go_on_to(Position.from_moves("44531"))
    assert game.moves == (3, 3, 0)
