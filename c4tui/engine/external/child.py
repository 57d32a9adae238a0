"""An outside program as a child process: lines in, lines out, always ended.

The child runs in a session (and process group) of its own, so ending it ends whatever
it started, and a Ctrl-C at the terminal reaches us, not it. One thread reads its
standard output into a queue of lines (a read never blocks the caller past its
deadline) and its standard error into the last few lines kept for the reason of a
crash and logged, never written to the terminal.

`close()` asks nothing: it kills the group, then whatever escaped it (leftovers.py), and
tells the reader to stop. The reader waits on a wake-up pipe as well as on the output,
so it never waits for an end of output that may not come: a program that left a process
of its own holding its output open (one in a session of its own, out of reach of the
group) cannot hang us. A finalizer closes too, should the owner forget.
"""

from __future__ import annotations

import codecs
import contextlib
import logging
import os
import queue
import select
import signal
import subprocess
import threading
import time
import weakref
from collections import deque
from collections.abc import Sequence
from typing import IO

from c4tui.engine.external.leftovers import kill_leftovers, pipe_of
from c4tui.engine.external.wire_log import WireLog

log = logging.getLogger("c4tui.engine.external")

MAX_LINE = 64 * 1024  # longer lines are cut: an engine's line is a few hundred characters
STDERR_LINES = 5  # kept for the reason of a crash
# Lines read and not yet taken: an engine says a few hundred a move; past this it floods,
# and is read no more (it then blocks on a full pipe until it is ended).
MAX_UNREAD = 20_000
FLOOD = "\x00flood"  # what the reader queues instead of the lines after MAX_UNREAD
QUIT_SECONDS = 0.2  # how long `quit` may take before the group is killed
READ_BYTES = 64 * 1024
REAP_SECONDS = 5.0  # a killed child is reaped within this, or left to the finalizer's luck
READER_SECONDS = 1.0  # how long close waits for the reader thread to end
# How long the output may take to end once the group is dead before what holds it open
# is looked for (a look through /proc takes some 50 ms on a busy machine).
ENDED_SECONDS = 0.5


class ChildGone(Exception):
    """The child closed its output: it ended (or closed stdout, as good as ending)."""


class ChildFlooded(Exception):
    """The child wrote more lines than anyone asked for (MAX_UNREAD unread)."""


class Child:
    """One running outside program."""

    def __init__(self, argv: Sequence[str], name: str, cwd: str | None = None) -> None:
        self.name = name
        self.wire = WireLog.from_environment(name)  # --log FILE: every line both ways
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr_tail: deque[str] = deque(maxlen=STDERR_LINES)
        # Set by close: what it had to kill that the process group did not hold.
        self.left_behind = 0
        self.process = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            start_new_session=True,
        )
        assert self.process.stdout is not None and self.process.stderr is not None
        self._outputs = (pipe_of(self.process.stdout), pipe_of(self.process.stderr))
        wake_read, self._wake = os.pipe()  # closed by `close`: the reader stops
        reader = _Reader(self.process.stdout, self.process.stderr, wake_read, self, name)
        self._reader = threading.Thread(target=reader.run, daemon=True, name=f"{name} out")
        self._reader.start()
        self._finalizer = weakref.finalize(
            self, _end, self.process, self._outputs, reader.ended, self._wake, self._reader
        )

    def send(self, line: str) -> None:
        """Write one line to the child; ChildGone when it no longer reads."""
        stdin = self.process.stdin
        assert stdin is not None
        if self.wire is not None:
            self.wire.note(">", line)
        try:
            stdin.write((line + "\n").encode("utf-8"))
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
        if self.wire is not None:
            self.wire.note("<", line)
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

    def close(self, farewell: str | None = None) -> int:
        """End the child, everything in its process group and whatever still holds its
        output; `farewell` (e.g. "quit") is said first and given a moment. The number of
        processes it left behind, out of its group's reach (also in `left_behind`)."""
        if farewell is not None and _ended(self.process) is None:
            with contextlib.suppress(ChildGone):
                self.send(farewell)
            deadline = time.monotonic() + QUIT_SECONDS
            while _ended(self.process) is None and time.monotonic() < deadline:
                time.sleep(0.01)
        if self.wire is not None:
            self.wire.close()
        if self._finalizer.alive:
            self.left_behind = self._finalizer() or 0
            if self.left_behind:
                log.info("%s left %d of its processes running: killed", self.name, self.left_behind)
        return self.left_behind


class _Reader:
    """The thread that reads a child's stdout and stderr until both end or it is woken.

    It holds no reference to the Child (only to its queue and tail, through `into`'s
    attributes taken at the start), so a forgotten Child can still be collected.
    """

    def __init__(
        self, stdout: IO[bytes], stderr: IO[bytes], wake: int, into: Child, name: str
    ) -> None:
        self.streams = {stdout.fileno(): stdout, stderr.fileno(): stderr}
        self.out, self.err, self.wake = stdout.fileno(), stderr.fileno(), wake
        self.lines, self.stderr_tail, self.name = into.lines, into.stderr_tail, name
        self.splitters = {fd: _Splitter() for fd in self.streams}
        self.ended = threading.Event()  # set when both outputs have ended

    def run(self) -> None:
        poller = select.poll()
        for fd in (*self.streams, self.wake):
            poller.register(fd, select.POLLIN)
        reading = set(self.streams)
        try:
            while reading:
                for fd, _ in poller.poll():
                    if fd == self.wake:
                        return
                    if fd not in reading:
                        continue
                    if not self._take(fd):
                        reading.discard(fd)
                        poller.unregister(fd)
            self.ended.set()
        finally:
            if self.out in reading:  # woken or failed before the output ended
                self.lines.put(None)
            for stream in self.streams.values():
                with contextlib.suppress(OSError):
                    stream.close()
            os.close(self.wake)

    def _take(self, fd: int) -> bool:
        """Read what `fd` has; False once it has ended (or stdout flooded)."""
        try:
            chunk = os.read(fd, READ_BYTES)
        except OSError:
            chunk = b""
        splitter = self.splitters[fd]
        lines = splitter.feed(chunk) if chunk else splitter.rest()
        for line in lines:
            if fd == self.err:
                if line.strip():
                    self.stderr_tail.append(line)
                    log.debug("%s stderr: %r", self.name, line)
            elif self.lines.qsize() >= MAX_UNREAD:
                self.lines.put(FLOOD)
                return False
            else:
                self.lines.put(line)
        if not chunk and fd == self.out:
            self.lines.put(None)
        return bool(chunk)


class _Splitter:
    """Bytes in, whole lines out: UTF-8 (bad bytes replaced), lines cut at MAX_LINE."""

    def __init__(self) -> None:
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.pending = ""

    def feed(self, chunk: bytes) -> list[str]:
        *lines, self.pending = (self.pending + self.decoder.decode(chunk)).split("\n")
        while len(self.pending) > MAX_LINE:
            lines.append(self.pending[:MAX_LINE])
            self.pending = self.pending[MAX_LINE:]
        return [piece.rstrip("\r") for line in lines for piece in _cut(line)]

    def rest(self) -> list[str]:
        """The last line, unended, once the output has ended."""
        last = self.pending + self.decoder.decode(b"", final=True)
        self.pending = ""
        return [piece.rstrip("\r") for piece in _cut(last)] if last else []


def _cut(line: str) -> list[str]:
    return [line[at : at + MAX_LINE] for at in range(0, max(len(line), 1), MAX_LINE)]


def _ended(process: subprocess.Popen[bytes]) -> str | None:
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


def _end(
    process: subprocess.Popen[bytes],
    outputs: tuple[int, int],
    ended: threading.Event,
    wake: int,
    reader: threading.Thread,
) -> int:
    """Kill the child's process group and reap the child; when its output still has not
    ended, kill what holds it open (leftovers.py: the session's id stays the dead
    child's pid while the session has members, so it is not given to another). Then stop
    the reader, waiting a bounded time: never for an end of output. The number of
    escapees killed."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=REAP_SECONDS)
    left = 0 if ended.wait(ENDED_SECONDS) else kill_leftovers(process.pid, outputs)
    os.close(wake)
    reader.join(READER_SECONDS)
    if process.stdin is not None:
        with contextlib.suppress(OSError, ValueError):
            process.stdin.close()
    return left


def ignore_here(*signums: int) -> None:
    """Ignore these signals in this process but not in the outside programs it starts.

    An ignored signal (SIG_IGN) stays ignored across exec, so every engine started from
    here would start deaf to a plain `kill` and its own cleanup would never run; a
    handler that does nothing is reset to the default at exec. A signal this process was
    started ignoring is left so: the operator meant it for the programs it starts too
    (`nohup` ignores SIGHUP; a shell starts a background job ignoring SIGINT). Main
    thread only.
    """
    for signum in signums:
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, _ignored)


def _ignored(signum: int, frame: object) -> None:
    """Nothing: the signal is noted and dropped (see ignore_here)."""
