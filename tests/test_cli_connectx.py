"""`c4tui connectx`: an agent file of our engine that plays where Kaggle's runner would
load it (here: through the `connectx:` adapter, in a process of its own)."""

from __future__ import annotations

import json

from c4tui.cli import main
from c4tui.engine.external.kaggle_agent import move_order, stacks_of


def test_the_agent_file_plays_its_engine(tmp_path, capsys):
    agent = tmp_path / "agent.py"
    assert main(["connectx", "--engine", "greedy", "-o", str(agent)]) == 0
    assert "SPEC = 'greedy'" in agent.read_text()
    # Player one has 4-5-6 of the bottom row: greedy (player two) blocks an end.
    assert main(["move", "44556", "--engine", f"connectx:{agent},time=5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["column"] in (3, 7)


def test_bad_arguments_are_one_line_and_status_2(tmp_path, capsys):
    assert main(["connectx", "--engine", "deepblue", "-o", str(tmp_path / "a.py")]) == 2
    assert "unknown engine 'deepblue'" in capsys.readouterr().err
    assert main(["connectx", "--engine", "level:8", "-o", str(tmp_path / "no" / "a.py")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_a_board_gets_a_move_order_that_makes_it_with_no_line_before_the_last_stone():
    # Kaggle's board, top row first: ● (1) has five in a row on the bottom row, so its
    # last stone was one of the middle three (after an end one, four were in a row).
    rows = [[0] * 7 for _ in range(6)]
    rows[5] = [1, 1, 1, 1, 1, 2, 2]
    rows[4][5:] = [2, 2]
    board = [cell for row in rows for cell in row]
    order = move_order(stacks_of(board, 7, 6), 6, 4)
    assert order is not None and sorted(order) == [0, 1, 2, 3, 4, 5, 5, 6, 6]
    assert order[-1] in (1, 2, 3)
