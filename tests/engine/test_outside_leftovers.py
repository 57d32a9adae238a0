"""An outside engine that leaves a process of its own holding its output open, in a
session of its own (tests/bots/c4e_escaper.py), as a daemon does: nothing that closes
the engine waits on it (the command line's `move` and `arena`, the served AI seat's
search), and the process is killed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from c4tui.engine.board.position import Position
from c4tui.engine.players.specs import make_engine
from c4tui.server.rooms.worker import SearchJob, run

ROOT = Path(__file__).parents[2]
ESCAPER = ROOT / "tests" / "bots" / "c4e_escaper.py"
HANG = 120  # seconds: a command that has not ended by then hangs (it took under 3 here)


def escaper(pid_file: Path) -> str:
    return f"cmd:{sys.executable} {ESCAPER} {pid_file},time=5"


def gone(pid: int) -> bool:
    """Ended: no such process, or one that has ended and awaits its reaping."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


def wait_gone(pid_file: Path) -> bool:
    """Whether the escaper's helper has ended (a kill takes effect soon, not at once)."""
    pid = int(pid_file.read_text())
    for _ in range(500):
        if gone(pid):
            return True
        time.sleep(0.02)
    os.kill(pid, 9)  # not left to run its ten minutes after a failed test
    return False


def test_closing_the_engine_neither_waits_on_the_helper_nor_leaves_it(tmp_path):
    pid_file = tmp_path / "helper.pid"
    engine = make_engine(escaper(pid_file))
    assert engine.search(Position.from_moves("44")).move == 0
    closing = threading.Thread(target=engine.close, daemon=True)
    closing.start()
    closing.join(HANG)
    assert not closing.is_alive(), "close() waited on the helper's end of output"
    assert wait_gone(pid_file)


def test_move_prints_its_answer_and_ends(tmp_path):
    pid_file = tmp_path / "helper.pid"
    done = subprocess.run(
        [sys.executable, "-m", "c4tui", "move", "44", "--engine", escaper(pid_file)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=HANG,
    )
    assert done.returncode == 0, done.stderr
    assert "plays column 1" in done.stdout
    assert "escaper.py left 1 of its processes running: killed" in done.stderr
    assert wait_gone(pid_file)


def test_an_arena_of_two_jobs_ends_and_the_engine_loses_each_game(tmp_path):
    pid_file = tmp_path / "helper.pid"
    spec = escaper(pid_file)
    # Seeded: random never wins these two games, so each is lost by the leftover alone.
    argv = ["arena", spec, "random", "--games", "2", "--jobs", "2", "--seed", "1", "--json"]
    done = subprocess.run(
        [sys.executable, "-m", "c4tui", *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=HANG,
    )
    assert done.returncode == 0, done.stderr
    assert wait_gone(pid_file)
    forfeits = json.loads(done.stdout)["forfeits"]
    reason = "left a process of its own running (killed)"
    assert [(forfeit["loser"], forfeit["reason"]) for forfeit in forfeits] == [(spec, reason)] * 2


def test_the_served_ai_seats_search_ends_with_its_move(tmp_path):
    pid_file = tmp_path / "helper.pid"
    job = SearchJob(escaper(pid_file), "44", 7, 6, 4, seconds=5)
    answers: list[tuple[object, ...]] = []
    searching = threading.Thread(
        target=lambda: answers.append(run(job, threading.Event(), lambda _: None)),
        daemon=True,
    )
    searching.start()
    searching.join(HANG)
    assert answers and answers[0][:2] == ("done", 0)
    assert wait_gone(pid_file)
