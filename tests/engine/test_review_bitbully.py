"""`c4tui review --json` against BitBully, an independent exact solver (slow; skipped without it).

BitBully is not a dependency: `uv pip install bitbully` into the venv to run this.
Positions from 14 plies on are solved by BitBully's search alone; earlier ones use its
opening book (the same database as ours, read by its own code), as a bookless search of
the first plies takes minutes.
"""

from __future__ import annotations

import json
import random

import pytest

from c4tui.cli import main
from c4tui.engine.board.position import Position
from c4tui.engine.study.review import verdict_of

bitbully = pytest.importorskip("bitbully")

pytestmark = pytest.mark.slow
BOOKLESS_FROM = 14


def games(count: int, shortest: int, longest: int, seed: int) -> list[str]:
    """Complete random games (won or drawn) of `shortest` to `longest` plies, as move strings."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = Position.start()
        while not position.is_over():
            position = position.play(rng.choice(position.legal_moves()))
        if shortest <= position.moves <= longest:
            found.append(position.to_moves())
    return found


def played_games(count: int, seed: int) -> list[str]:
    """Games of 16 to 42 plies where BitBully plays a best move 4 times in 5: close fights."""
    rng = random.Random(seed)
    agent = bitbully.BitBully(tie_break="random", rng=rng)
    found = []
    while len(found) < count:
        position = Position.start()
        while not position.is_over():
            if rng.random() < 0.8:
                board = bitbully.Board([c for c in position.path])
                column = agent.best_move(board)
            else:
                column = rng.choice(position.legal_moves())
            position = position.play(column)
        if position.moves >= 16:
            found.append(position.to_moves())
    return found


@pytest.fixture(scope="module")
def solvers():
    return bitbully.BitBully(), bitbully.BitBully(opening_book=None)


def bitbully_scores(solvers, moves: str) -> list[int | None]:
    with_book, bookless = solvers
    solver = bookless if len(moves) >= BOOKLESS_FROM else with_book
    board = bitbully.Board([int(c) - 1 for c in moves])
    scores = solver.score_all_moves(board)
    return [scores.get(col) for col in range(7)]


@pytest.mark.parametrize(
    "game", games(12, 16, 29, seed=1) + games(8, 30, 42, seed=2) + played_games(6, seed=3)
)
def test_every_move_agrees_with_bitbully(capsys, solvers, game):
    assert main(["review", game, "--json"]) == 0
    moves = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(moves) == len(game)
    for ply, move in enumerate(moves, start=1):
        expected = bitbully_scores(solvers, game[: ply - 1])
        best = max(s for s in expected if s is not None)
        assert move["column"] == int(game[ply - 1])
        assert move["scores"] == expected, (game, ply)
        assert move["best"] == [c + 1 for c, s in enumerate(expected) if s == best]
        assert move["verdict"] == verdict_of(expected, move["column"] - 1)
