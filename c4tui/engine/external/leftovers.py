"""What an outside program left running out of its process group's reach, found and killed.

An outside program runs in a session and process group of its own (child.py), and
killing the group ends everything it started there. A process it started in a session of
its own (`setsid`, a daemon's habit) or another group is out of that reach, and one that
kept the program's output open would keep the output from ever ending. So, after the
group is killed, every process still in the program's session or holding the write end
of its output pipes is killed too: found through /proc, on Linux; elsewhere nothing is
found, and the reader's wake-up pipe still keeps such a process from hanging us.

A process of ours never holds the write end of those pipes (a fork of ours holds only
our read ends, which is why the ends are told apart), nor is it in the program's session.
"""

from __future__ import annotations

import contextlib
import os
import signal
from typing import IO

PROC = "/proc"
ROUNDS = 5  # a leftover may start another while we look: look again, this many times
WRITE_ONLY = 0o1  # the access mode in /proc's fdinfo flags (O_WRONLY)


def pipe_of(stream: IO[bytes]) -> int:
    """The identity of the pipe under `stream` (its inode), as /proc names it."""
    return os.fstat(stream.fileno()).st_ino


def kill_leftovers(leader: int, outputs: tuple[int, ...]) -> int:
    """Kill every process outside `leader`'s process group that is in its session or
    holds a write end of one of the `outputs` pipes; how many were killed."""
    if not os.path.isdir(f"{PROC}/self/fd"):
        return 0
    targets = {f"pipe:[{inode}]" for inode in outputs}
    killed: set[int] = set()
    for _ in range(ROUNDS):
        found = {
            pid: group
            for pid in _processes()
            if pid not in killed and (group := _leftover_group(pid, leader, targets))
        }
        for pid, group in found.items():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                # A leader of its own group (a `setsid` one) takes its group with it.
                if group == pid:
                    os.killpg(pid, signal.SIGKILL)
                else:
                    os.kill(pid, signal.SIGKILL)
        killed.update(found)
        if not found:
            break
    return len(killed)


def _processes() -> list[int]:
    me = os.getpid()
    return [int(name) for name in os.listdir(PROC) if name.isdigit() and int(name) != me]


def _leftover_group(pid: int, leader: int, targets: set[str]) -> int:
    """The process group of `pid` when it is a leftover, else 0."""
    try:
        with open(f"{PROC}/{pid}/stat", "rb") as file:
            stat = file.read()
    except OSError:
        return 0  # ended while we looked
    # The name in parentheses may hold spaces: the fields after the last ")" are
    # state, ppid, pgrp, session.
    fields = stat[stat.rfind(b")") + 2 :].split()
    if len(fields) < 4 or fields[0] == b"Z":
        return 0  # a zombie holds nothing and runs nothing
    group, session = int(fields[2]), int(fields[3])
    if group == leader:
        return 0  # the group's, killed with it
    return group if session == leader or _holds_a_write_end(pid, targets) else 0


def _holds_a_write_end(pid: int, targets: set[str]) -> bool:
    try:
        descriptors = os.listdir(f"{PROC}/{pid}/fd")
    except OSError:
        return False  # another user's, or ended
    for fd in descriptors:
        try:
            if os.readlink(f"{PROC}/{pid}/fd/{fd}") not in targets:
                continue
            with open(f"{PROC}/{pid}/fdinfo/{fd}") as info:
                flags = next(line for line in info if line.startswith("flags:"))
        except (OSError, StopIteration):
            continue
        if int(flags.split()[1], 8) & 0o3 == WRITE_ONLY:
            return True
    return False
