"""docs/engine-protocol.md's example sessions, run as written against `c4tui engine`.

The host's lines (`>`) are sent one at a time; after each, the engine's lines (`<`) that
follow it in the docs must come, in order. Figures of time (`time`, `nps`) and the
principal variation past its first column are left out of the comparison, and a search
may send more progress `info` lines than the docs show.
"""

from __future__ import annotations

import queue
import re
import subprocess
import sys
import threading
from pathlib import Path

DOCS = Path(__file__).parents[2] / "docs" / "engine-protocol.md"
LINE_WAIT = 60  # seconds; only so a broken engine fails the test instead of hanging it


def sessions() -> list[list[str]]:
    """The fenced blocks of the docs that are sessions (`>` and `<` lines)."""
    blocks = re.findall(r"```\n(.*?)```", DOCS.read_text(), re.S)
    return [block.splitlines() for block in blocks if block.startswith(">")]


def without_time(line: str) -> str:
    """The line without the figures of time, nor the principal variation past its first
    column (a solver's line of play depends on what its table kept)."""
    line = re.sub(r"\b(time|nps) \d+", r"\1 _", line)
    return re.sub(r"\b(pv \d+)( \d+)*$", r"\1", line)


class Engine:
    def __init__(self, *argv: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "c4tui", "engine", *argv],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put("<end>")

    def send(self, line: str) -> None:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def expect(self, wanted: list[str]) -> None:
        for line in wanted:
            while True:
                got = self.lines.get(timeout=LINE_WAIT)
                if without_time(got) == without_time(line):
                    break
                assert got.startswith("info "), f"wanted {line!r}, got {got!r}"


def run_session(lines: list[str], *argv: str) -> None:
    engine = Engine(*argv)
    try:
        for index, line in enumerate(lines):
            if not line.startswith("> "):
                continue
            engine.send(line[2:])
            answers = []
            for later in lines[index + 1 :]:
                if not later.startswith("< "):
                    break
                answers.append(later[2:])
            engine.expect(answers)
        engine.process.stdin.close()
        assert engine.process.wait(timeout=LINE_WAIT) == 0
    finally:
        engine.process.kill()


def test_the_example_session_runs_as_written():
    first, solver = sessions()
    assert first[0] == "> c4e 1" and first[-1] == "> quit"
    run_session(first, "mcts", "--seed", "1")
    run_session(solver, "perfect")


def test_two_lines_without_a_greeting_get_info_and_a_move():
    done = subprocess.run(
        [sys.executable, "-m", "c4tui", "engine", "level:3"],
        input="position 4453\ngo movetime 300\n",
        capture_output=True,
        text=True,
        timeout=LINE_WAIT,
    )
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and done.stderr == ""
    assert lines[-1] in {f"bestmove {col}" for col in range(1, 8)}
    assert len(lines) > 1 and all(line.startswith("info ") for line in lines[:-1])
