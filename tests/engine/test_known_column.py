"""A column's score known beforehand: the analysis takes it as it is and starts the
others from it (Solver.analyze's `known`), and the review, going backwards, gives it
the played column's score from the next position's analysis."""

from __future__ import annotations

import pytest

from c4tui.engine.board.geometry import geometry
from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import best_score
from c4tui.engine.solver import Solver, exact_scores
from c4tui.engine.study.review import positions_of, review_game

# 13 plies, past the book: its analysis searches every column.
PAST_THE_BOOK = "4574345331511"


@pytest.mark.parametrize("native", [True, False], ids=["C", "Python"])
def test_a_known_column_is_not_searched_and_the_others_score_the_same(native):
    if native:
        solver = Solver(geometry(7, 6, 4), threads=1)
        if not solver.uses_native:
            pytest.skip("the C kernels are not built")
        position = Position.from_moves(PAST_THE_BOOK)
    else:
        # The pure-Python search on a small board (the same steps, in columns.py).
        solver = Solver(geometry(5, 4, 4), native=False)
        position = Position.from_moves("3322", width=5, height=4)
    expected = exact_scores(solver.analyze(position))
    column = next(c for c, s in enumerate(expected) if s is not None and s != max(expected))
    solver.reset()
    nodes = solver.nodes
    plain = exact_scores(solver.analyze(position))
    plain_nodes = solver.nodes - nodes
    solver.reset()
    nodes = solver.nodes
    told = exact_scores(solver.analyze(position, known=(column, expected[column])))
    assert told == plain == expected
    assert solver.nodes - nodes < plain_nodes


def test_a_known_score_is_taken_as_it_is():
    # Not checked: the caller knows it (a wrong one is the caller's own).
    solver = Solver(geometry(7, 6, 4), threads=1)
    position = Position.from_moves(PAST_THE_BOOK)
    scores = exact_scores(solver.analyze(position, known=(0, 17)))
    assert scores[0] == 17


def test_the_review_gives_each_position_the_played_columns_score_from_the_next():
    game = Position.from_moves("4574345331511222")
    solver = Solver(geometry(7, 6, 4), threads=1)
    asked = []
    analyze = solver.analyze

    def spy(position, **kwargs):
        asked.append((position.moves, kwargs.get("known")))
        return analyze(position, **kwargs)

    solver.analyze = spy
    reviews = review_game(game, solver=solver)
    by_ply = {review.ply: review for review in reviews}
    for plies, known in asked:
        if plies == game.moves - 1:
            assert known is None  # the last move: nothing after it was reviewed
        else:
            later = by_ply[plies + 2]
            assert known == (by_ply[plies + 1].column, -best_score(later.scores))
    assert [r.scores for r in reviews] == [
        tuple(exact_scores(Solver(geometry(7, 6, 4)).analyze(p))) for p, _ in positions_of(game)
    ]
