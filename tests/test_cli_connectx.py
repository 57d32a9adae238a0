"""`c4tui connectx`: an agent file of our engine that plays where Kaggle's runner would
load it (here: through the `connectx:` adapter, in a process of its own)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from c4tui.cli import main
from c4tui.engine.external.kaggle_agent import move_order, stacks_of
from c4tui.engine.players import specs

STANDALONE = Path(__file__).with_name("agent_standalone.py")


def played_alone(agent: Path, plies: int, *also: str) -> dict:
    """The agent's game in a Python with only its standard library (agent_standalone.py),
    and `also` (a folder of packages) on its path."""
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(STANDALONE), str(agent), str(plies), *also],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


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
    assert main(["connectx", "--engine", "level:8", "-o", "/proc/none/a.py"]) == 2
    assert "cannot write" in capsys.readouterr().err
    # A FIFO is refused, not opened: the open would wait for a reader forever.
    os.mkfifo(tmp_path / "fifo")
    assert main(["connectx", "--engine", "level:8", "-o", str(tmp_path / "fifo")]) == 2
    assert "fifo: a FIFO, not a file to write" in capsys.readouterr().err
    # A network file is checked here, not carried to fail on Kaggle.
    (tmp_path / "junk.npz").write_text("junk")
    net = f"alphazero:net={tmp_path / 'junk.npz'}"
    assert main(["connectx", "--engine", net, "-o", str(tmp_path / "a.py")]) == 2
    assert "junk.npz: not a network file" in capsys.readouterr().err
    assert not (tmp_path / "a.py").exists()


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


def test_the_agent_file_runs_where_c4tui_is_not_installed(tmp_path):
    agent = tmp_path / "agent.py"
    assert main(["connectx", "--engine", "negamax:depth=4", "-o", str(agent)]) == 0
    game = played_alone(agent, 12)
    assert game["played"]  # every column legal (agent_standalone.py checks), to a line or 12
    ours = {name: loader for name, loader in game["modules"].items() if name != "__main__"}
    assert "c4tui.engine.players.negamax" in ours
    assert set(ours.values()) == {"_Carried"}  # every module from the file, none else


def test_the_learned_engines_agent_carries_its_network_and_needs_only_numpy(tmp_path):
    import numpy

    agent = tmp_path / "agent.py"
    assert main(["connectx", "--engine", "alphazero:sims=16", "-o", str(agent)]) == 0
    text = agent.read_text()
    assert "'net': ('c4-7x6-connect4.npz'" in text  # the weights inside the file
    numpy_home = str(Path(numpy.__file__).parent.parent)  # site-packages, .pth files unread
    game = played_alone(agent, 12, numpy_home)
    assert game["played"]
    ours = {name for name, loader in game["modules"].items() if loader == "_Carried"}
    assert {"c4tui.engine.players.alphazero", "c4tui.engine.learned.network"} <= ours
    others = {
        name.split(".")[0] for name, loader in game["modules"].items() if loader != "_Carried"
    }
    assert others <= {"__main__", "numpy"}  # NumPy from Kaggle's Python, nothing else


@pytest.mark.slow
@pytest.mark.parametrize(
    "spec", ["random", "greedy", "flat", "mcts", "negamax", "perfect", "level:1", "level:7"]
)
def test_every_built_in_engine_plays_a_whole_game_as_a_standalone_agent(tmp_path, spec):
    agent = tmp_path / "agent.py"
    assert main(["connectx", "--engine", spec, "-o", str(agent)]) == 0
    assert played_alone(agent, 42)["played"]


FAVOURITE = """
from c4tui.engine.players.base import BaseEngine, empty_columns
from c4tui.engine.players.contract import Bundle, SearchInfo
from c4tui.engine.players.options import Option


class Favourite(BaseEngine):
    \"\"\"Plays the column its file names while it can, then the leftmost.\"\"\"

    name = "favourite"
    OPTIONS = {"table": Option(str, 1, 4096)}

    def __init__(self, *, table, **settings):
        super().__init__(**settings)
        with open(table) as file:
            self.column = int(file.read())

    @classmethod
    def bundle(cls, options):
        return Bundle(files=(("table", options["table"]),))

    def think(self, position, limits, clock, on_info):
        move = self.column if position.can_play(self.column) else position.legal_moves()[0]
        columns = empty_columns(position)
        return SearchInfo(engine=self.name, elapsed=0.0, columns=columns, best=move)
"""


def test_an_engine_carries_the_files_it_declares(tmp_path, monkeypatch):
    # As a learned engine would carry its network: the file goes in the agent, and the
    # spec's setting names the copy written where the agent runs.
    (tmp_path / "favourite_engine.py").write_text(FAVOURITE)
    (tmp_path / "table.txt").write_text("5")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(specs.ENGINES, "favourite", ("favourite_engine", "Favourite"))
    agent = tmp_path / "agent.py"
    spec = f"favourite:table={tmp_path / 'table.txt'}"
    assert main(["connectx", "--engine", spec, "-o", str(agent)]) == 0
    (tmp_path / "table.txt").unlink()  # only the agent's copy is left
    assert played_alone(agent, 8)["played"] == [5, 5, 5, 5]


def test_an_outside_engine_has_no_agent_file(tmp_path, capsys):
    agent = tmp_path / "agent.py"
    assert main(["connectx", "--engine", f"cmd:{sys.executable} bot.py", "-o", str(agent)]) == 2
    assert "runs another program" in capsys.readouterr().err
    assert not agent.exists()
