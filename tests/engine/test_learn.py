"""Lessons: a side's mistakes and blunders of a reviewed game, in order."""

from __future__ import annotations

from c4tui.engine.board.position import Position
from c4tui.engine.study.learn import lessons
from c4tui.engine.study.review import positions_of, review_move


def test_lessons_are_the_learning_sides_mistakes_in_order():
    game = Position.from_moves("4455")
    before = [Position.from_moves("4455"[:n]) for n in range(4)]
    mistake = [(2, 0, -1, 1, 0, 0, 0), (0, 0, 0, 0, -3, 0, 0)]
    reviews = [review_move(before[n], 0 if n % 2 == 0 else 4, mistake[n % 2]) for n in range(4)]
    assert [r.verdict for r in reviews] == ["best", "mistake", "best", "mistake"]
    found = lessons(positions_of(game), reviews, {1})
    assert [lesson.ply for lesson in found] == [1, 3]
    assert found[0].passes(0) and not found[0].passes(4)
    assert lessons(positions_of(game), reviews, {0}) == []
