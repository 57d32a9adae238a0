"""An outside program as a child process: lines in, lines out, always ended.

The child runs in a session (and process group) of its own, so ending it ends whatever
it started, and a Ctrl-C at the terminal reaches us, not it. Its standard output is read
by a thread into a queue of lines (a read never blocks the caller past its deadline);
its standard error is read into the last few lines kept for the reason of a crash and
logged, never written to the terminal. `close()` asks nothing: it kills the group.
A finalizer kills it too, should its owner forget.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import signal
import subprocess
import threading
import time
import weakref
from collections import deque
from collections.abc import Sequence

log = logging.getLogger("c4tui.engine.external")

MAX_LINE = 64 * 1024  # longer lines are cut: an engine's line is a few hundred characters
STDERR_LINES = 5  # kept for the reason of a crash
# Lines read and not yet taken: an engine says a few hundred a move; past this it floods,
# and is read no more (it then blocks on a full pipe until it is ended).
MAX_UNREAD = 20_000
FLOOD = "\x00flood"  # what the reader queues instead of the lines after MAX_UNREAD
QUIT_SECONDS = 0.2  # how long `quit` may take before the group is killed


class ChildGone(Exception):
    """The child closed its output: it ended (or closed stdout, as good as ending)."""


class ChildFlooded(Exception):
    """The child wrote more lines than anyone asked for (MAX_UNREAD unread)."""


class Child:
    """One running outside program."""

    def __init__(self, argv: Sequence[str], name: str, cwd: str | None = None) -> None:
        self.name = name
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr_tail: deque[str] = deque(maxlen=STDERR_LINES)
        self.process = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            start_new_session=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
        )
        self._finalizer = weakref.finalize(self, _kill_group, self.process)
        threading.Thread(target=self._read_stdout, daemon=True, name=f"{name} out").start()
        threading.Thread(target=self._read_stderr, daemon=True, name=f"{name} err").start()

    def _read_stdout(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        with contextlib.suppress(OSError, ValueError):
            for line in iter(lambda: stream.readline(MAX_LINE), ""):
                if self.lines.qsize() >= MAX_UNREAD:
                    self.lines.put(FLOOD)
                    return
                self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def _read_stderr(self) -> None:
        stream = self.process.stderr
        assert stream is not None
        with contextlib.suppress(OSError, ValueError):
            for line in iter(lambda: stream.readline(MAX_LINE), ""):
                text = line.rstrip("\r\n")
                if text.strip():
                    self.stderr_tail.append(text)
                    log.debug("%s stderr: %r", self.name, text)

    def send(self, line: str) -> None:
        """Write one line to the child; ChildGone when it no longer reads."""
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(line + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise ChildGone from None

    def read_line(self, timeout: float) -> str | None:
        """The next line of output, or None when none came within `timeout` seconds;
        ChildGone once the output has ended, ChildFlooded once it flooded."""
        try:
            line = self.lines.get(timeout=max(timeout, 0.0))
        except queue.Empty:
            return None
        if line is None or line == FLOOD:
            self.lines.put(line)  # every later read sees the end too
            raise ChildGone if line is None else ChildFlooded
        return line

    def exit_words(self, wait: float = 0.5) -> str:
        """How the child ended, for a reason: "exit status 1", "killed by SIGSEGV",
        with its last line on stderr; "closed its output" while it still runs."""
        deadline = time.monotonic() + wait
        ended = _ended(self.process)
        while ended is None and time.monotonic() < deadline:
            time.sleep(0.01)
            ended = _ended(self.process)
        if ended is None:
            return "closed its output"
        return self._with_stderr(ended)

    def _with_stderr(self, words: str) -> str:
        time.sleep(0.05)  # the stderr reader may still be on the last line
        last = self.stderr_tail[-1].strip() if self.stderr_tail else ""
        return f"{words}: {last[:120]}" if last else words

    def close(self, farewell: str | None = None) -> None:
        """End the child and everything in its process group; `farewell` (e.g. "quit")
        is said first and given a moment."""
        if farewell is not None and _ended(self.process) is None:
            with contextlib.suppress(ChildGone):
                self.send(farewell)
            deadline = time.monotonic() + QUIT_SECONDS
            while _ended(self.process) is None and time.monotonic() < deadline:
                time.sleep(0.01)
        self._finalizer()


def _ended(process: subprocess.Popen[str]) -> str | None:
    """How the child ended ("exit status 1", "killed by SIGSEGV"), or None while it runs.

    It is not reaped (WNOWAIT): while it is a zombie its pid, which is its process
    group's id, cannot be given to another process, so killing the group stays safe.
    """
    if process.returncode is not None:
        code = process.returncode
        return f"exit status {code}" if code >= 0 else _signal_words(-code)
    try:
        status = os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return "ended"
    if status is None or status.si_pid == 0:
        return None
    if status.si_code == os.CLD_EXITED:
        return f"exit status {status.si_status}"
    return _signal_words(status.si_status)


def _signal_words(number: int) -> str:
    try:
        return f"killed by {signal.Signals(number).name}"
    except ValueError:
        return f"killed by signal {number}"


def _kill_group(process: subprocess.Popen[str]) -> None:
    """Kill the child's whole process group, then reap the child and close its pipes."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            with contextlib.suppress(OSError, ValueError):
                stream.close()
