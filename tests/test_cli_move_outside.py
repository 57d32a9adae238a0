"""`c4tui move` with an outside engine: its column and figures, or why it lost."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from c4tui.cli import main

BOTS = Path(__file__).parent / "bots"


def test_an_outside_engine_answers_with_what_it_streamed(capsys):
    spec = f"cmd:{sys.executable} {BOTS / 'c4e_bot.py'},time=5"
    assert main(["move", "44556", "--engine", spec, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["column"] == 3
    assert [column["score"] for column in data["columns"]] == [0, 0, 10, 0, 0, 0, 0]


def test_an_outside_engine_that_fails_is_said_on_one_line_and_the_batch_goes_on(
    capsys, monkeypatch
):
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("4453\n44\n"))
    spec = f"connectx:{BOTS / 'connectx_crash.py'},time=5"
    assert main(["move", "-", "--engine", spec]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"c4tui move: {spec} in '4453': crashed (exit status 1: IndexError: "
        "list index out of range)",
        f"c4tui move: {spec} in '44': crashed (exit status 1: IndexError: list index out of range)",
    ]


def test_the_table_calls_an_outside_engine_by_its_name(capsys):
    # Issue 45 item 32: name= and the program's `id name` were ignored in the tables.
    spec = f"cmd:{sys.executable} {BOTS / 'c4e_bot.py'},time=5"
    assert main(["move", "44556", "--engine", spec]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "centre bot plays column 3 in '44556'"
    assert main(["move", "44556", "--engine", spec + ",name=[b]Centre"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "[b]Centre plays column 3 in '44556'"
