"""The solver on its slowest positions (benchmarks/positions/solver_tail.txt, and the
outliers of fresh samples, solver_outliers.txt) against BitBully, an independent exact
solver (slow; skipped without BitBully).

The set is the 100 slowest of 10,000 sampled positions of 8-20 plies
(benchmarks/solver_tail.py), all past the opening book, where the search runs longest
and with the big table (solver/table.py's PAST_BOOK_EMPTY): every column's score must be
BitBully's. `uv run --with bitbully pytest -m slow tests/engine/test_solver_tail.py`
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from c4tui.engine.board.geometry import geometry
from c4tui.engine.board.position import Position
from c4tui.engine.solver import Solver, exact_scores

bitbully = pytest.importorskip("bitbully")

pytestmark = pytest.mark.slow
POSITIONS = Path(__file__).resolve().parents[2] / "benchmarks" / "positions"


def read_set(name: str) -> list[str]:
    lines = [line.strip() for line in (POSITIONS / name).read_text().splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def tail_positions() -> list[str]:
    moves = read_set("solver_tail.txt")
    # The three slowest, eight more drawn from the rest, and the known outliers.
    return moves[:3] + random.Random(34).sample(moves[3:], 8) + read_set("solver_outliers.txt")


@pytest.fixture(scope="module")
def solvers():
    return Solver(geometry(7, 6, 4), threads=1), bitbully.BitBully("12-ply-dist")


@pytest.mark.parametrize("moves", tail_positions())
def test_every_column_of_the_slowest_positions_scores_as_bitbully_says(solvers, moves):
    ours, theirs = solvers
    board = bitbully.Board.from_moves([int(c) - 1 for c in moves])
    expected = theirs.score_all_moves(board)
    columns = exact_scores(ours.analyze(Position.from_moves(moves)))
    assert columns == [expected.get(col) for col in range(7)]
