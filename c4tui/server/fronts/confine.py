"""Start one served client confined: its own session, limits, and death with the server.

Run as `python -m c4tui.server.fronts.confine [options] -- CLIENT ARGV...` by the fronts. It
prepares its own process and then replaces itself with the client (execve), so the
client keeps every setting made here:

- a session of its own (setsid), so the server can end the client and anything it
  started with one signal to the process group; with `--terminal`, standard input (a
  PTY) becomes its controlling terminal, so a window-size change reaches it as SIGWINCH;
- PR_SET_PDEATHSIG: the kernel kills it when the server dies, even by SIGKILL, so no
  client outlives its server;
- an address-space cap (RLIMIT_AS), no core files, and a lower CPU priority (nice);
- with `--home DIR`, Landlock (Linux 5.13 and later) lets it write, create, remove or
  rename files only beneath DIR (its private directory) and the terminal devices, and
  read only DIR, the places given with `--read` (Python, its libraries, the client
  program: the server names them, see client.py) and the few system files a program
  needs (SYSTEM_READABLE): a client, even a broken one, cannot write anywhere else, nor
  read the server's host key, its rooms, other players' games or other clients' homes.
  Where the kernel has no Landlock the client runs without it;
- with `--env-file`, the environment comes from that private file (read once, then
  removed, so a token never shows in `ps`) on top of the few variables the web driver
  needs: none of the server's own environment reaches the client.

This is a separate program, not a `preexec_fn`, because forking a threaded asyncio
server and running Python between fork and exec is unsafe.
"""

from __future__ import annotations

import argparse
import ctypes
import fcntl
import json
import mimetypes
import os
import resource
import signal
import struct
import sys
import termios
from collections.abc import Sequence
from pathlib import Path

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
PR_SET_NO_NEW_PRIVS = 38
# Landlock's system calls (the same numbers on x86-64 and arm64) and access rights,
# from <linux/landlock.h>: every right that changes the file tree or a file's content.
LANDLOCK_CREATE_RULESET, LANDLOCK_ADD_RULE, LANDLOCK_RESTRICT_SELF = 444, 445, 446
LANDLOCK_CREATE_RULESET_VERSION = 1
LANDLOCK_RULE_PATH_BENEATH = 1
WRITE_FILE, REMOVE_DIR, REMOVE_FILE = 1 << 1, 1 << 4, 1 << 5
MAKE_CHAR, MAKE_DIR, MAKE_REG, MAKE_SOCK, MAKE_FIFO, MAKE_BLOCK, MAKE_SYM = (
    1 << n for n in range(6, 13)
)
REFER, TRUNCATE = 1 << 13, 1 << 14  # Landlock ABI 2 and 3
EXECUTE, READ_FILE, READ_DIR = 1 << 0, 1 << 2, 1 << 3
READING = EXECUTE | READ_FILE | READ_DIR
WRITING = (
    WRITE_FILE
    | REMOVE_DIR
    | REMOVE_FILE
    | MAKE_CHAR
    | MAKE_DIR
    | MAKE_REG
    | MAKE_SOCK
    | MAKE_FIFO
    | MAKE_BLOCK
    | MAKE_SYM
)
# Where a client may still write (and read): its terminal (already open, but a library
# may open /dev/tty again) and /dev/null.
DEVICES = ("/dev/null", "/dev/tty", "/dev/pts")
# What any program may read: the system's programs and libraries, the dynamic linker's
# cache, the time zone and user tables, the random devices, and its own /proc entry
# (made for this process id, which the client keeps across execve). Not the rest of
# /etc, /dev or /proc: a client has no business with the host's keys or disks.
SYSTEM_READABLE = (
    "/usr",
    "/lib",
    "/lib32",
    "/lib64",
    "/bin",
    "/sbin",
    "/etc/ld.so.cache",
    "/etc/localtime",
    "/etc/passwd",
    "/etc/group",
    "/etc/nsswitch.conf",
    "/etc/hosts",
    "/dev/zero",
    "/dev/random",
    "/dev/urandom",
    "/dev/ptmx",
    # Python's mimetypes reads each of these that exists (Debian's media-types makes
    # /etc/mime.types) when the client first names a file's type: a download.
    *(str(known) for known in mimetypes.knownfiles),
)

# What textual-serve sets for its web driver; everything else of the server's
# environment stays behind.
WEB_DRIVER_VARIABLES = (
    "TEXTUAL_DRIVER",
    "TEXTUAL_FPS",
    "TEXTUAL_COLOR_SYSTEM",
    "TERM_PROGRAM",
    "TERM_PROGRAM_VERSION",
    "COLUMNS",
    "ROWS",
)


def die_with_parent(parent: int) -> None:
    """Ask the kernel for SIGKILL when the parent (the server) dies."""
    if sys.platform != "linux":
        return
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    # The server may have died between our fork and the prctl: then nobody would kill us.
    if os.getppid() != parent:
        os._exit(1)


def own_session(terminal: bool) -> None:
    """Lead a session of our own; with `terminal`, stdin becomes its controlling terminal."""
    if os.getsid(0) != os.getpid():
        os.setsid()
    if terminal:
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def limit_resources(memory: int, nice: int) -> None:
    """Cap the address space at `memory` bytes, allow no core files, lower the priority."""
    if memory > 0:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if nice > 0:
        os.nice(nice)


def client_environment(env_file: str | None) -> dict[str, str]:
    """The client's environment: ours as given, or the web driver's few plus the file's."""
    if env_file is None:
        return dict(os.environ)
    path = Path(env_file)
    try:
        extra = json.loads(path.read_text(encoding="utf-8"))
    finally:
        path.unlink(missing_ok=True)
    environment = {name: os.environ[name] for name in WEB_DRIVER_VARIABLES if name in os.environ}
    environment.update({str(name): str(value) for name, value in extra.items()})
    return environment


def confine_files(home: str, readable: Sequence[str] = ()) -> bool:
    """Landlock: from now on this process writes only beneath `home` and DEVICES, and
    reads only those, `readable` and SYSTEM_READABLE.

    False when the kernel has no Landlock (the client then runs without it).
    """
    if sys.platform != "linux":
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    abi = libc.syscall(LANDLOCK_CREATE_RULESET, None, 0, LANDLOCK_CREATE_RULESET_VERSION)
    if abi < 1:
        return False
    handled = READING | WRITING | (REFER if abi >= 2 else 0) | (TRUNCATE if abi >= 3 else 0)
    ruleset_attr = struct.pack("=Q", handled)  # handled_access_fs only: no network rules
    ruleset = libc.syscall(LANDLOCK_CREATE_RULESET, ruleset_attr, len(ruleset_attr), 0)
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset failed")
    own_proc = f"/proc/{os.getpid()}"
    places = [(home, handled), *((device, handled) for device in DEVICES)]
    places += [(place, READING) for place in (*SYSTEM_READABLE, own_proc, *readable)]
    try:
        for place, rights in places:
            if not os.path.exists(place):
                continue
            fd = os.open(place, os.O_PATH | os.O_CLOEXEC)
            try:
                # A file takes only the rights a file can have (not a directory's).
                if not os.path.isdir(place):
                    rights &= EXECUTE | READ_FILE | WRITE_FILE | TRUNCATE
                rule = struct.pack("=Qi", rights, fd)  # struct landlock_path_beneath_attr
                if libc.syscall(LANDLOCK_ADD_RULE, ruleset, LANDLOCK_RULE_PATH_BENEATH, rule, 0):
                    raise OSError(ctypes.get_errno(), f"landlock_add_rule {place} failed")
            finally:
                os.close(fd)
        if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
        if libc.syscall(LANDLOCK_RESTRICT_SELF, ruleset, 0) != 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self failed")
    finally:
        os.close(ruleset)
    return True


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="c4tui.server.fronts.confine")
    parser.add_argument("--parent", type=int, required=True, help="the server's process id")
    parser.add_argument("--memory", type=int, default=0, help="address-space cap in bytes")
    parser.add_argument("--nice", type=int, default=0, help="niceness to add")
    parser.add_argument("--terminal", action="store_true", help="stdin is the session's PTY")
    parser.add_argument("--env-file", help="JSON object of the client's environment")
    parser.add_argument("--pid-file", help="write the client's process id here")
    parser.add_argument("--home", help="the only directory the client may write in")
    parser.add_argument(
        "--read", action="append", default=[], help="a place the client may read (again: more)"
    )
    parser.add_argument("client", nargs=argparse.REMAINDER, help="-- then the client's argv")
    args = parser.parse_args(argv)
    if args.client[:1] == ["--"]:
        args.client = args.client[1:]
    if not args.client:
        parser.error("no client command after --")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    die_with_parent(args.parent)
    own_session(args.terminal)
    if args.pid_file:
        # The web front learns the process group to end this way (textual-serve starts us).
        Path(args.pid_file).write_text(str(os.getpid()), encoding="utf-8")
    environment = client_environment(args.env_file)
    limit_resources(args.memory, args.nice)
    if args.home:
        confine_files(args.home, args.read)
        environment["PYTHONDONTWRITEBYTECODE"] = "1"  # its own cache is out of reach now
    os.execve(args.client[0], args.client, environment)


if __name__ == "__main__":
    main()
