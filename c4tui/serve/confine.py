"""Start one served client confined: its own session, limits, and death with the server.

Run as `python -m c4tui.serve.confine [options] -- CLIENT ARGV...` by the fronts. It
prepares its own process and then replaces itself with the client (execve), so the
client keeps every setting made here:

- a session of its own (setsid), so the server can end the client and anything it
  started with one signal to the process group; with `--terminal`, standard input (a
  PTY) becomes its controlling terminal, so a window-size change reaches it as SIGWINCH;
- PR_SET_PDEATHSIG: the kernel kills it when the server dies, even by SIGKILL, so no
  client outlives its server;
- an address-space cap (RLIMIT_AS), no core files, and a lower CPU priority (nice);
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
import os
import resource
import signal
import sys
import termios
from collections.abc import Sequence
from pathlib import Path

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>

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


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="c4tui.serve.confine")
    parser.add_argument("--parent", type=int, required=True, help="the server's process id")
    parser.add_argument("--memory", type=int, default=0, help="address-space cap in bytes")
    parser.add_argument("--nice", type=int, default=0, help="niceness to add")
    parser.add_argument("--terminal", action="store_true", help="stdin is the session's PTY")
    parser.add_argument("--env-file", help="JSON object of the client's environment")
    parser.add_argument("--pid-file", help="write the client's process id here")
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
    os.execve(args.client[0], args.client, environment)


if __name__ == "__main__":
    main()
