"""`c4tui arena` with outside bots of the three kinds (tests/bots/, written as their own
authors would): good ones finish their games; a crashing, a hanging and a junk-printing
one each lose with the reason; no process of theirs is left running afterwards."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from c4tui.cli import main

BOTS = Path(__file__).parent / "bots"
PY = sys.executable


@pytest.fixture
def bots(tmp_path) -> Path:
    """The bots copied to a directory of this test's, so its processes are told apart."""
    for bot in BOTS.glob("*.py"):
        shutil.copy(bot, tmp_path / bot.name)
    return tmp_path


def processes_running(path: Path) -> list[str]:
    """The command lines of running processes that name a file under `path`."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmdline = (Path("/proc") / pid / "cmdline").read_bytes().replace(b"\0", b" ")
            state = (Path("/proc") / pid / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if str(path).encode() in cmdline and state != "Z":
            found.append(cmdline.decode(errors="replace"))
    return found


def arena(capsys, *specs: str) -> dict:
    assert main(["arena", *specs, "level:1", "--games", "2", "--seed", "3", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_bot_of_each_kind_plays_its_games_to_the_end(capsys, bots):
    data = arena(
        capsys,
        f"cmd:{PY} {bots / 'c4e_bot.py'},time=5",
        f"fourinarow:{PY} {bots / 'fourinarow_bot.py'},time=5",
        f"connectx:{bots / 'connectx_agent.py'},time=5",
    )
    assert data["games_played"] == data["games_scheduled"] == 12
    assert data["forfeits"] == []
    assert processes_running(bots) == []


def test_a_crashing_a_hanging_and_a_junk_printing_bot_each_lose_with_the_reason(capsys, bots):
    # Bots that answer at once have 5 s a move (a loaded machine is slow to schedule
    # them); the hanging ones a small budget, so their games end soon.
    crash = f"cmd:{PY} {bots / 'c4e_bot.py'} --crash,time=5"
    hang = f"fourinarow:{PY} {bots / 'fourinarow_bot.py'} hang,time=0.02,margin=0.2"
    junk = f"connectx:{bots / 'connectx_junk.py'},time=5"
    hang_c4e = f"cmd:{PY} {bots / 'c4e_bot.py'} --hang,time=0.1,margin=0.2"
    data = arena(capsys, crash, hang, junk, hang_c4e)
    assert data["games_played"] == data["games_scheduled"] == 20
    reasons: dict[str, set[str]] = {}
    for forfeit in data["forfeits"]:
        reasons.setdefault(forfeit["loser"], set()).add(forfeit["reason"])
    assert reasons[crash] == {"crashed (exit status 1: RuntimeError: the bot fell over)"}
    # Its time bank (0.4 s full) shrinks and grows with its moves, as in the competition.
    assert all(reason.startswith("overran its time (no move within") for reason in reasons[hang])
    assert reasons[junk] == {"played an illegal column (column 10 is not on the 7-column board)"}
    assert reasons[hang_c4e] == {"overran its time (no move within 0.30 s)"}
    # Each bad bot loses every game it plays against level:1 (none gets past move 3 there).
    standings = {row["engine"]: row for row in data["standings"]}
    assert standings["level:1"]["losses"] == 0
    assert processes_running(bots) == []


def test_the_text_tables_call_a_bot_by_its_name(capsys, bots):
    # Issue 45 item 32: name= was ignored in the tables, which showed the command line.
    spec = f"cmd:{PY} {bots / 'c4e_bot.py'} --crash,time=5,name=Crasher"
    assert main(["arena", spec, "random", "--games", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "c4e_bot.py" not in out
    assert "  1   Crasher " in out or "  2   Crasher " in out
    assert "Crasher lost: crashed" in out
