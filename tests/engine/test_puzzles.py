"""Puzzles: one and only one column keeps the best result; distinct; difficulty as named."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from c4tui.engine.board.position import Position
from c4tui.engine.study.puzzles import DIFFICULTIES, find_puzzles, puzzle_of


def sign(score: int) -> int:
    return (score > 0) - (score < 0)


def test_one_keeping_column_makes_a_puzzle_and_two_do_not():
    start = Position.from_moves("4453")
    assert puzzle_of(start, [-5, 3, -2, -1, -4, -2, -2]).solution == 1
    assert puzzle_of(start, [-5, 3, 1, -1, -4, -2, -2]) is None  # two wins
    assert puzzle_of(start, [-5, -3, 0, -1, -4, -2, None]).result == "draw"
    assert puzzle_of(start, [-5, 0, 0, -1, -4, -2, -2]) is None  # two draws
    assert puzzle_of(start, [-5, -3, -1, -1, -4, -2, -2]) is None  # lost anyway


@pytest.mark.parametrize("difficulty", list(DIFFICULTIES))
def test_found_puzzles_are_distinct_and_of_their_difficulty(difficulty):
    puzzles = list(find_puzzles(4, seed=3, difficulty=difficulty))
    assert len(puzzles) == 4
    shortest, longest, natural = DIFFICULTIES[difficulty]
    keys = {min(p.position.key(), p.position.mirror().key()) for p in puzzles}
    assert len(keys) == 4
    for puzzle in puzzles:
        assert shortest <= puzzle.distance <= longest
        assert puzzle.natural_wrong >= natural
        best = puzzle.scores[puzzle.solution]
        keep = [c for c, s in enumerate(puzzle.scores) if s is not None and sign(s) == sign(best)]
        assert keep == [puzzle.solution]


def test_the_command_prints_one_json_object_a_puzzle():
    done = subprocess.run(
        [sys.executable, "-m", "c4tui", "puzzle", "--count", "3", "--seed", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(lines) == 3
    assert set(lines[0]) == {
        "position",
        "solution",
        "result",
        "distance",
        "rating",
        "theme",
        "player",
    }
    assert set(lines[0]["player"]) == {"rating", "deviation", "volatility"}


@pytest.mark.slow
def test_thirty_puzzles_checked_by_bitbully():
    bitbully = pytest.importorskip("bitbully")
    solver = bitbully.BitBully("12-ply-dist")
    for puzzle in find_puzzles(30, seed=1):
        board = bitbully.Board.from_moves(list(puzzle.position.path))
        scores = solver.score_all_moves(board)
        best = max(scores.values())
        sign = (best > 0) - (best < 0)
        keeping = [c for c, s in scores.items() if (s > 0) - (s < 0) == sign]
        assert best >= 0 and keeping == [puzzle.solution], puzzle.to_json()
