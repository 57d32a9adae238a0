"""Every column's exact score: one reading of a column analysis (solver.exact_scores), and
the study tools' timed analysis (study/exact_columns.py)."""

from c4tui.engine.board.position import Position
from c4tui.engine.solver import ColumnBounds, exact_scores, shared_solver
from c4tui.engine.study.exact_columns import column_scores


def test_a_finished_analysis_reads_as_each_columns_score_and_none_when_full():
    assert exact_scores([ColumnBounds(3, 3), None, ColumnBounds(-2, -2)]) == [3, None, -2]


def test_column_scores_are_the_solvers_analysis_read_so():
    position = Position.from_moves("4453")
    solved = shared_solver(position.geometry).analyze(position)
    assert column_scores(position) == exact_scores(solved) == [-5, -5, -2, -3, -4, -2, -2]
