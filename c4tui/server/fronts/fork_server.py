"""The fork server: a parent that imported the client once and forks one child per session.

Run as `python -m c4tui.server.fronts.fork_server --parent PID --entry MODULE:FUNCTION --socket
FD [--preload MODULE[:FUNCTION]]... [--reread MODULE]...` by the server (forks.py). Starting a
client by exec costs its imports every time (Python, Textual, the app: most of a second of
CPU, two thirds of its start), and each client holds its own copy of them. This process
imports the entry's module and the preloaded ones once, then for each request forks a
child that starts at the entry with those imports done and their memory shared with its
siblings until written.

Each child confines itself as `c4tui.server.fronts.confine` confines an exec'd client, with the
same functions, before it runs a line of the client: a session of its own with the PTY
it was sent as its controlling terminal, death with its parent (this process, which
dies with the server: the kernel's death signal at both steps), the memory cap, no core
files, the niceness, Landlock beneath its home, and the environment of its request's
file only (read once and removed: a token passes through the child alone, never
through this process's memory, which later children inherit).

A browser's client (the web front) is a child like an ssh one, on three pipes instead of a
PTY: textual-serve's web driver speaks its packets over standard input and output.
Textual reads its settings from the environment as it is imported (`textual.constants`:
the driver, the frame rate, the colours), here under the fork server's environment;
each module named with `--reread` is read again in such a child under its own. A
terminal's child is given none of Textual's variables (the ssh front builds its
environment), so it keeps what this process read, and the cost of reading it again
(about 0.2 MB of a child's own memory).

The requests and answers are JSON datagrams on a Unix SOCK_SEQPACKET socket, the client's
standard streams passed beside a request (SCM_RIGHTS): the PTY's terminal end, which
becomes the child's controlling terminal, or the three pipes' ends (input, output, errors):
  {"spawn": N, "home": DIR, "read": [...], "memory": B, "nice": K, "env_file": F} + 1 or 3 fds
  -> {"started": N, "pid": PID} or {"failed": N, "error": "..."}
  and, when a child ends: {"ended": PID, "status": S} (a negative S: killed by signal -S).
The server's end closing ends this process (and so, by their death signal, its children).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import importlib.util
import json
import os
import random
import selectors
import signal
import socket
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import Any

from c4tui.server.fronts.confine import (
    client_environment,
    confine_files,
    die_with_parent,
    limit_resources,
    own_session,
)
from c4tui.server.wire.client_errors import TOLD, keep

MAX_REQUEST = 1 << 20  # a request's JSON: an environment and a few paths


def entry_point(name: str) -> Callable[[], int | None]:
    """`module:function` or `program.py:function`, imported now (that is the point:
    before any fork). A program is given by its file, as a client's argv gives it: the
    fork server's path has no working directory to find it by (client_process.PYTHON)."""
    where, _, function = name.rpartition(":")
    if where.endswith(".py"):
        spec = importlib.util.spec_from_file_location("served_program", where)
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load {where}")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    else:
        module = importlib.import_module(where)
    run: Callable[[], int | None] = getattr(module, function)
    return run


def preload(name: str) -> None:
    """`module`: imported; `module:function`: imported and called, for what a child would
    otherwise do first (the served client builds the command line's parser, which
    imports every command: 180 ms of CPU and 88 modules, in each child)."""
    if ":" in name:
        entry_point(name)()
    else:
        importlib.import_module(name)


def send(channel: socket.socket, message: dict[str, Any]) -> None:
    channel.send(json.dumps(message).encode())


def run_child(
    request: dict[str, Any],
    streams: Sequence[int],
    run: Callable[[], int | None],
    drop: Sequence[int],
    reread: Sequence[str] = (),
) -> None:
    """In the forked child: confine, then run the client on `streams` (a PTY's end for
    all three standard streams, or input, output and errors). Never returns."""
    status = 1
    try:
        for fd in drop:
            os.close(fd)
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        standard = list(streams) * 3 if len(streams) == 1 else list(streams)
        for std, fd in enumerate(standard):
            os.dup2(fd, std)
        for fd in set(streams) - {0, 1, 2}:
            os.close(fd)
        die_with_parent(int(request["parent"]))
        own_session(terminal=len(streams) == 1)
        limit_resources(int(request["memory"]), int(request["nice"]))
        environment = client_environment(str(request["env_file"]))
        os.environ.clear()
        os.environ.update(environment)
        for name in reread if len(streams) == 3 else ():  # a browser's (module docstring)
            if name in sys.modules:
                importlib.reload(sys.modules[name])
        if request.get("home"):
            confine_files(str(request["home"]), [str(p) for p in request["read"]])
            os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
            os.chdir(str(request["home"]))
        random.seed()  # not the sequence every sibling inherited
        gc.enable()  # the heap it shares stays frozen (main)
        status = run() or 0
    except SystemExit as end:
        status = end.code if isinstance(end.code, int) else 0 if end.code is None else 1
    except BaseException:
        # Never a traceback on the player's terminal: the server logs it.
        keep(traceback.format_exc())
        with contextlib.suppress(Exception):
            print(TOLD)
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):  # a closed terminal: nothing to tell
                stream.flush()
        os._exit(status)


def serve(
    channel: socket.socket, run: Callable[[], int | None], reread: Sequence[str] = ()
) -> None:
    """Fork a child per request until the server's end closes; tell it of each end."""
    woken_r, woken_w = os.pipe()
    os.set_blocking(woken_w, False)
    os.set_blocking(woken_r, False)
    signal.set_wakeup_fd(woken_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # only to wake the selector
    selector = selectors.DefaultSelector()
    selector.register(channel, selectors.EVENT_READ)
    selector.register(woken_r, selectors.EVENT_READ)
    me = os.getpid()
    send(channel, {"ready": me})
    while True:
        for key, _ in selector.select():
            if key.fileobj == woken_r:
                while True:
                    try:
                        if not os.read(woken_r, 512):
                            break
                    except BlockingIOError:
                        break
                reap(channel)
                continue
            try:
                data, fds, _flags, _ = socket.recv_fds(channel, MAX_REQUEST, 3)
            except (ConnectionError, OSError):
                data, fds = b"", []
            if not data:
                return  # the server is gone or done: our children die with us
            request = json.loads(data)
            if len(fds) not in (1, 3):
                send(channel, {"failed": request["spawn"], "error": f"{len(fds)} streams"})
                for fd in fds:
                    os.close(fd)
                continue
            drop = [channel.fileno(), woken_r, woken_w, selector_fd(selector)]
            sys.stdout.flush()
            sys.stderr.flush()
            try:
                pid = os.fork()
            except OSError as error:
                send(channel, {"failed": request["spawn"], "error": str(error)})
                pid = -1
            if pid == 0:
                run_child({**request, "parent": me}, fds, run, drop, reread)
            for fd in fds:
                os.close(fd)
            if pid > 0:
                send(channel, {"started": request["spawn"], "pid": pid})


def selector_fd(selector: selectors.BaseSelector) -> int:
    """The selector's own descriptor (epoll's), which a child must not keep."""
    fileno = getattr(selector, "fileno", None)
    return int(fileno()) if fileno is not None else -1


def reap(channel: socket.socket) -> None:
    """Tell the server of every child that ended."""
    while True:
        try:
            pid, wait_status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        send(channel, {"ended": pid, "status": os.waitstatus_to_exitcode(wait_status)})


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="c4tui.server.fronts.fork_server")
    parser.add_argument("--parent", type=int, required=True, help="the server's process id")
    parser.add_argument("--entry", required=True, help="MODULE:FUNCTION each child runs")
    parser.add_argument("--socket", type=int, required=True, help="the server's socket's fd")
    parser.add_argument(
        "--preload",
        action="append",
        default=[],
        help="a module to import now, or MODULE:FUNCTION to call (again: more)",
    )
    parser.add_argument(
        "--reread",
        action="append",
        default=[],
        help="an imported module read again in each child, under its environment (again: more)",
    )
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    die_with_parent(args.parent)
    # No collection while the client is imported (it would only move objects between
    # generations), then the heap frozen: objects in the permanent generation are never
    # examined by a child's collections, which would otherwise write to every page they
    # share with this process and so copy them (the gc module's own advice for forks).
    gc.disable()
    channel = socket.socket(fileno=args.socket)
    run = entry_point(args.entry)
    for name in args.preload:
        preload(name)
    gc.freeze()
    serve(channel, run, args.reread)


if __name__ == "__main__":
    main()
