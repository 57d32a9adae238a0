"""Outside engines start with the default handling of SIGHUP, SIGINT and SIGTERM, even
when started from a process that ignores them (the arena's and rate's worker processes,
the served AI seats' workers): a plain `kill` ends a leftover, and a bot's own cleanup
runs. Only what the whole run was started ignoring (nohup's SIGHUP) is passed on.
tests/bots/c4e_signals.py notes the signals it started with ignored."""

from __future__ import annotations

import multiprocessing
import signal
import sys
from pathlib import Path

from c4tui.server.rooms import worker
from c4tui.tournament.games import GameTask
from c4tui.tournament.workers import GameRunner

BOT = Path(__file__).parents[1] / "bots" / "c4e_signals.py"
STOP_SIGNALS = (signal.SIGHUP, signal.SIGINT, signal.SIGTERM)


def inherited_ignored() -> set[int]:
    """The stop signals this test run was started ignoring (under nohup, SIGHUP; started
    in the background by a shell, SIGINT): passed on to the engines, as the operator
    meant them to be; what a worker ignores itself is not."""
    return {signum for signum in STOP_SIGNALS if signal.getsignal(signum) is signal.SIG_IGN}


def ignored_at_start(notes: Path) -> list[set[int]]:
    """Per start of the bot, the stop signals it had ignored."""
    masks = [int(line, 16) for line in notes.read_text().split()]
    return [{signum for signum in STOP_SIGNALS if mask >> (signum - 1) & 1} for mask in masks]


def test_an_arena_worker_starts_its_engines_hearing_a_kill(tmp_path):
    notes = tmp_path / "ignored"
    spec = f"cmd:{sys.executable} {BOT} {notes},time=5"
    tasks = [GameTask(index, 0, 1, spec, "random") for index in range(2)]
    with GameRunner(tasks, jobs=2) as runner:
        games = list(runner)
    assert len(games) == 2
    assert ignored_at_start(notes) == [inherited_ignored(), inherited_ignored()]


def test_a_served_ai_seats_worker_starts_its_engines_hearing_a_kill(tmp_path):
    notes = tmp_path / "ignored"
    job = worker.SearchJob(f"cmd:{sys.executable} {BOT} {notes},time=5", "44", 7, 6, 4, 5.0)
    context = multiprocessing.get_context("spawn")  # as the server's pool starts them
    ours, theirs = context.Pipe()
    process = context.Process(target=worker.serve, args=(theirs,), daemon=True)
    process.start()
    try:
        ours.send(("search", 1, job))
        while (answer := ours.recv())[0] == "info":
            pass
        assert answer[:2] == ("done", 0)
    finally:
        ours.send(None)
        process.join(30)
    assert ignored_at_start(notes) == [inherited_ignored()]
