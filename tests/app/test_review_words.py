"""The review's graph columns and words: every ply drawn, one numbering, the result after."""

from __future__ import annotations

from c4tui.app.screens.review_words import after_words, best_words, line_words, move_name
from c4tui.app.widgets.review_graph import ply_columns
from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import describe_score
from c4tui.engine.study.review import review_move


def test_every_ply_has_a_column_scaled_to_the_width():
    columns = ply_columns(40, 42)
    assert len(columns) == 40 and [r[0] for r in columns] == list(range(40))
    spread = ply_columns(10, 42)
    assert len(spread) == 40 and len({r[0] for r in spread}) == 10
    packed = ply_columns(100, 42)
    assert len(packed) == 42
    assert sorted(p for r in packed for p in r) == list(range(100))  # each ply once


def test_moves_are_numbered_by_round_with_the_movers_disc():
    assert move_name(0) == "1 ●"
    assert move_name(13) == "7 ○"
    assert line_words(13, (3, 2)) == "○4 ●3"


def test_after_the_winning_move_the_game_is_won():
    before = Position.from_moves("121212")
    review = review_move(before, 0, [1 + 18, None, -5, -5, -5, -5, -5])
    assert after_words(before, review) == "● has won"
    draw = review_move(before, 2, [19, None, 0, 0, 0, 0, 0])
    assert after_words(before, draw) == "a draw with best play"


def test_a_moves_round_is_shared_by_both_sides_moves():
    from c4tui.app.screens.review_words import move_name
    from c4tui.engine.board.notation import move_number

    assert [move_number(ply) for ply in range(5)] == [1, 1, 2, 2, 3]
    assert move_name(13) == "7 ○" and move_name(0) == "1 ●"


def test_a_slower_win_is_not_worded_as_good_as_the_best():
    """The best columns' result and the move's own are counted alike (from before the
    move, as `c4tui review` counts them), so a win in 15 never reads as the best's 14."""
    before = Position.from_moves("4444")
    review = review_move(before, 4, [6, 6, 6, 6, 5, 6, 6])
    assert (describe_score(before, 6), describe_score(before, 5)) == ("win in 14", "win in 15")
    assert (
        best_words(before, review) == "better: 1, 2, 3, 4, 6, 7 (win in 14; this move: win in 15)"
    )
