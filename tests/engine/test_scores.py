"""The score convention's one home (scores.py): the win-now score."""

from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import stones_to_come, win_now_score, win_score


def test_winning_with_the_next_stone_scores_the_stones_left_plus_one():
    position = Position.from_moves("121212")  # ● wins with its fourth stone: 22 - 4
    assert win_now_score(position) == win_score(42, 6) == 18
    assert win_score(4 * 4, 5) == (16 + 1 - 5) // 2 == 6


def test_the_stones_to_come_are_the_movers_stones_until_the_board_is_full():
    assert stones_to_come(Position.start()) == 21
    assert stones_to_come(Position.from_moves("4")) == 21  # ○ has 21 stones to drop too
    assert stones_to_come(Position.from_moves("44")) == 20
    assert stones_to_come(Position.from_moves("1", 4, 4, 3)) == 8


def test_the_best_score_and_its_columns_pass_over_full_columns():
    from c4tui.engine.board.scores import best_columns, best_score, keeping_columns

    scores = [-3, None, 2, 2, 1, None, -1]
    assert best_score(scores) == 2
    assert best_columns(scores) == [2, 3]
    assert keeping_columns(scores) == [2, 3, 4]  # a win, shorter or longer
