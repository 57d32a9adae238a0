"""Ctrl-C while the C solver searches: the search stops, Python's handler acts on it.

Before, SIGINT during a C call ran Python's handler inside the search's callback,
where ctypes printed "Exception ignored ... KeyboardInterrupt" and the run went on.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from c4tui.engine.kernels import library

pytestmark = pytest.mark.skipif(library.library() is None, reason="installed without C kernels")
ROOT = Path(__file__).resolve().parents[2]
LONG_POSITION = "4444455"  # seconds of search without the book


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def _interrupt_once_searching(process: subprocess.Popen) -> None:
    """SIGINT once the process has loaded the kernels and spent a fifth of a second
    of CPU after that (inside the search: setting up takes milliseconds)."""
    maps = Path(f"/proc/{process.pid}/maps")
    while process.poll() is None and "_kernels" not in maps.read_text():
        time.sleep(0.01)
    loaded = _cpu_ticks(process.pid)
    ticks = os.sysconf("SC_CLK_TCK")
    while process.poll() is None and _cpu_ticks(process.pid) < loaded + ticks // 5:
        time.sleep(0.01)
    assert process.poll() is None, "the search ended before it could be interrupted"
    process.send_signal(signal.SIGINT)


def _run_interrupted(arguments: list[str]) -> tuple[int, str]:
    process = subprocess.Popen(
        [sys.executable, *arguments],
        cwd=ROOT,
        # Ctrl-C as in a terminal, even when the tests run where SIGINT is ignored (a
        # background job of a script): an ignored SIGINT is inherited and kept ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _interrupt_once_searching(process)
        _, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    return process.returncode, stderr


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs Linux's /proc")
def test_ctrl_c_during_analyze_says_interrupted_and_exits_130():
    code, stderr = _run_interrupted(["-m", "c4tui", "analyze", "--no-book", LONG_POSITION])
    assert (code, stderr) == (130, "c4tui analyze: interrupted\n")


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs Linux's /proc")
def test_ctrl_c_during_a_search_that_calls_back_raises_keyboard_interrupt():
    """A stop event makes C ask Python now and then; the signal still stops the search
    and reaches Python's handler once, outside the callback."""
    script = (
        "import threading\n"
        "from c4tui.engine.board.geometry import geometry\n"
        "from c4tui.engine.board.position import Position\n"
        "from c4tui.engine.solver import Solver\n"
        "solver = Solver(geometry(7, 6, 4), book=False, threads=1)\n"
        "try:\n"
        f"    solver.analyze(Position.from_moves({LONG_POSITION!r}), stop=threading.Event())\n"
        "except KeyboardInterrupt:\n"
        "    raise SystemExit('interrupted')\n"
    )
    code, stderr = _run_interrupted(["-c", script])
    assert (code, stderr) == (1, "interrupted\n")
