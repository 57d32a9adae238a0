"""The server's memory after bursts of ssh sessions (issue 45, item 25). Not a test: it
prints figures.

    uv run python benchmarks/session_memory.py [--sessions 60] [--bursts 3] [--trace]

A real `c4tui serve` (its own process, a fresh SQLite state directory, free ports) gets
`--sessions` ssh sessions at once on 127.0.0.1, each with a PTY, which wait until their
client has drawn the lobby and then hang up; once every client process is gone the
server's resident size (VmRSS) and its heap as glibc sees it are read. That is one burst;
`--bursts` of them show whether the memory a burst took is given back, kept for the
next (the allocator's free lists: the same size after each), or lost (a little more
after each). With `--trace` the server runs under tracemalloc (25 frames, from just after its
start) and writes a snapshot then and after each burst (SIGUSR1, after a full garbage
collection); the lines that grew most from
the first burst's to the last are printed: what Python objects the server keeps. With
`--trim` the server calls glibc's malloc_trim(0) after the last burst (SIGUSR2), and its
size is read again: what the allocator held, free, and gives back.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sys
import tempfile
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the sessions are the tests' own: tests/serve/

from load_sessions import Costs, lobby_sitter  # noqa: E402
from serve_load import rss_mb, server_flags, uptime  # noqa: E402

from tests.serve.served import ServeProcess, children  # noqa: E402
from tests.serve.terminal import wait_gone  # noqa: E402

# The server under a harness: at each SIGUSR1 a tracemalloc snapshot to the folder in
# C4TUI_SNAPSHOTS, numbered from 0 (tracing from the first signal, so the start runs at
# full speed); at SIGUSR2 glibc's malloc_trim(0), to see what the allocator gives back.
# A measuring harness only: c4tui itself has no such hooks.
HARNESS = """
import ctypes, gc, itertools, os, signal, sys, tracemalloc
folder, count = os.environ["C4TUI_SNAPSHOTS"], itertools.count()
def dump(*_):
    if not tracemalloc.is_tracing():
        tracemalloc.start(25)
    gc.collect()  # what is kept, not garbage the collector has yet to reach
    tracemalloc.take_snapshot().dump(os.path.join(folder, f"{next(count)}.snapshot"))
def trim(*_):
    gc.collect()
    ctypes.CDLL("libc.so.6").malloc_trim(0)
    open(os.path.join(folder, "trimmed"), "w").close()
signal.signal(signal.SIGUSR1, dump)
signal.signal(signal.SIGUSR2, trim)
from c4tui.cli import main
sys.argv = ["c4tui", *sys.argv[1:]]
sys.exit(main())
"""


class HarnessedServe(ServeProcess):
    """`c4tui serve` under the HARNESS."""

    async def start(self) -> None:
        python = sys.executable
        real = asyncio.create_subprocess_exec

        async def traced(program, *args, **options):
            if program == python and args[:2] == ("-m", "c4tui"):
                args = ("-c", HARNESS, *args[2:])
            return await real(program, *args, **options)

        asyncio.create_subprocess_exec = traced  # type: ignore[assignment]
        try:
            await super().start()
        finally:
            asyncio.create_subprocess_exec = real


def heap_mb(pid: int) -> float:
    """The server's [heap] mapping, resident: what glibc's main arena holds."""
    total = 0
    inside = False
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
            if not line[0].isupper() or ":" not in line.split()[0]:
                inside = line.rstrip().endswith("[heap]")
            elif inside and line.startswith("Rss:"):
                total += int(line.split()[1])
    return total / 1024


def anon_mb(pid: int) -> float:
    """Anonymous resident memory outside [heap]: glibc's other arenas and large blocks."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("RssAnon:"):
                return int(line.split()[1]) / 1024 - heap_mb(pid)
    return 0.0


async def burst(port: int, sessions: int, server_pid: int) -> None:
    """`sessions` ssh sessions at once, each until its lobby is drawn; then all hang up,
    and their client processes are waited out."""
    costs = Costs()
    async with contextlib.AsyncExitStack() as stack:
        entered = await asyncio.gather(
            *(
                stack.enter_async_context(lobby_sitter(port, f"m{i}", costs, 120, 40))
                for i in range(sessions)
            ),
            return_exceptions=True,
        )
        failed = [e for e in entered if isinstance(e, BaseException)]
        if failed:
            print(f"  {len(failed)} sessions failed: {failed[0]!r}")
        clients = [pid for pid in children(server_pid)]
    await asyncio.sleep(1)
    with contextlib.suppress(Exception):
        await wait_gone(*[p for p in clients if "client" in _command(p)])


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def line(label: str, pid: int) -> str:
    return (
        f"{label:<16} RSS {rss_mb(pid):6.1f} MB   heap {heap_mb(pid):6.1f} MB"
        f"   other anonymous {anon_mb(pid):6.1f} MB"
    )


async def snapshot(pid: int, folder: Path, index: int) -> None:
    os.kill(pid, signal.SIGUSR1)
    path = folder / f"{index}.snapshot"
    for _ in range(600):
        if path.exists():
            await asyncio.sleep(0.5)  # written whole
            return
        await asyncio.sleep(0.1)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=60)
    parser.add_argument("--bursts", type=int, default=3)
    parser.add_argument("--trace", action="store_true")
    parser.add_argument("--trim", action="store_true", help="malloc_trim(0) at the end")
    parser.add_argument("--settle", type=float, default=3.0, help="seconds after a burst")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="c4tui-mem-") as temp:
        folder = Path(temp)
        os.environ["C4TUI_SNAPSHOTS"] = str(folder)
        server = HarnessedServe(folder / "state", *server_flags(args.sessions, None))
        await server.start()
        pid = server.process.pid
        try:
            await asyncio.sleep(args.settle)
            print(f"load: {uptime()}")
            print(line("started", pid))
            if args.trace:
                await snapshot(pid, folder, 0)
            for n in range(1, args.bursts + 1):
                await burst(server.ssh_port, args.sessions, pid)
                await asyncio.sleep(args.settle)
                print(line(f"after burst {n}", pid))
                if args.trace:
                    await snapshot(pid, folder, n)
            if args.trim:
                os.kill(pid, signal.SIGUSR2)
                while not (folder / "trimmed").exists():
                    await asyncio.sleep(0.1)
                print(line("malloc_trim(0)", pid))
        finally:
            await server.stop(signal.SIGTERM)
        if args.trace:
            report(folder, args.bursts)


def report(folder: Path, bursts: int) -> None:
    first = tracemalloc.Snapshot.load(str(folder / "0.snapshot"))
    one = tracemalloc.Snapshot.load(str(folder / "1.snapshot"))
    last = tracemalloc.Snapshot.load(str(folder / f"{bursts}.snapshot"))
    for label, before, after in (
        ("start -> burst 1", first, one),
        (f"burst 1 -> burst {bursts}", one, last),
    ):
        stats = after.compare_to(before, "traceback")
        grown = sum(s.size_diff for s in stats)
        print(f"\ntraced Python memory, {label}: {grown / 1e6:+.2f} MB; the most grown:")
        for stat in stats[:8]:
            print(f"  {stat.size_diff / 1e3:+9.1f} kB {stat.count_diff:+6d} blocks")
            for frame in stat.traceback.format()[-6:]:
                print("     ", frame.strip())


if __name__ == "__main__":
    asyncio.run(main())
