"""`c4tui puzzle` on other boards: the positions play there, and the solution is the only one."""

from __future__ import annotations

import json

from c4tui.cli import main
from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import keeping_columns
from c4tui.engine.solver import analyze


def test_puzzles_on_another_board_are_only_moves_there(capsys):
    argv = ["puzzle", "--count", "2", "--seed", "1", "--width", "5", "--height", "5"]
    assert main([*argv, "--json"]) == 0
    puzzles = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(puzzles) == 2
    for puzzle in puzzles:
        position = Position.from_moves(puzzle["position"], 5, 5, 4)
        assert keeping_columns(analyze(position)) == [puzzle["solution"] - 1]
    assert main(argv) == 0
    assert capsys.readouterr().out.startswith("on a 5x5 board, connect 4\n")
