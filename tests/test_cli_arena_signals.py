"""`c4tui arena` stopped from outside: Ctrl-C, SIGTERM and SIGHUP stop it alike, and no
worker process outlives it, whatever killed it (SIGKILL included)."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from tests.arena_support import start_slow_arena

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def process_table() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, state) of every process, from /proc."""
    table = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # ended while we looked
        # The name in parentheses may hold spaces: the fields after its ')' are fixed.
        state, parent = stat.rsplit(")", 1)[1].split()[:2]
        table[int(entry.name)] = (int(parent), state)
    return table


def children_of(pid: int) -> set[int]:
    return {child for child, (parent, _) in process_table().items() if parent == pid}


def alive(pids: set[int]) -> set[int]:
    """The pids still running (a zombie has ended, it only waits to be reaped)."""
    table = process_table()
    return {pid for pid in pids if pid in table and table[pid][1] not in "ZX"}


def wait_until_gone(pids: set[int], seconds: float = 10) -> set[int]:
    deadline = time.monotonic() + seconds
    while alive(pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return alive(pids)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_ctrl_c_sigterm_and_sighup_stop_the_run_alike(tmp_path, signum):
    save = tmp_path / "games.jsonl"
    process = start_slow_arena(save)
    workers = children_of(process.pid)
    assert workers, "the arena started no worker process"
    os.kill(process.pid, signum)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 128 + signum, err
    data = json.loads(out)
    lines = save.read_text().splitlines()
    assert data["interrupted"] is True
    assert data["games_played"] == len(lines) >= 2
    assert all(json.loads(line)["moves"] for line in lines)  # no half lines
    assert (
        err.strip()
        .splitlines()[-1]
        .startswith(f"c4tui arena: interrupted by {signal.Signals(signum).name} after ")
    )
    assert "Traceback" not in err
    assert wait_until_gone(workers) == set()


def test_no_worker_outlives_an_arena_killed_outright(tmp_path):
    process = start_slow_arena(tmp_path / "games.jsonl")
    workers = children_of(process.pid)
    assert workers, "the arena started no worker process"
    process.kill()  # SIGKILL: no handler runs, no cleanup happens in the parent
    process.communicate(timeout=30)
    assert wait_until_gone(workers) == set()


def test_a_burst_of_stop_signals_stops_once_and_notes_the_rest(tmp_path):
    burst = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGINT)
    save = tmp_path / "games.jsonl"
    process = start_slow_arena(save)
    workers = children_of(process.pid)
    for signum in burst:  # within microseconds of each other, as a process manager sends
        os.kill(process.pid, signum)
    out, err = process.communicate(timeout=30)  # a hang fails here
    assert "Traceback" not in err and "release unlocked lock" not in err
    data = json.loads(out)  # the summary, whole
    lines = save.read_text().splitlines()
    assert data["interrupted"] is True
    assert data["games_played"] == len(lines) >= 2
    # Pending signals reach the process in no fixed order: the first one handled stops it.
    first = signal.Signals(process.returncode - 128)
    assert first in burst, err
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"c4tui arena: interrupted by {first.name} after ")
    # The later signals are noted when they come before the run has ended (and ignored
    # after), never acted on: the exit status is the first one's.
    if "(then " in last:
        noted = last.split("(then ", 1)[1].split(":")[0].split(", ")
        assert {signal.Signals[name] for name in noted} <= set(burst)
    assert wait_until_gone(workers) == set()


def test_a_slow_arena_that_cannot_start_fails_the_test_that_wanted_it(tmp_path):
    # The helper's wait for two saved games once fell through silently when it timed out.
    with pytest.raises(AssertionError, match="saved 0 games, not 2"):
        start_slow_arena(tmp_path / "no such folder" / "games.jsonl")
