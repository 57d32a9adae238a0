"""Load on `c4tui serve`: N ssh sessions pair up into rooms and play whole games at once.
Not a test: it prints figures.

    uv run python benchmarks/serve_load.py [--sessions 16] [--seed 1]

A real `c4tui serve` (its own process, a fresh state directory, free ports) gets N ssh
sessions on 127.0.0.1, each a PTY whose screen pyte draws, as the tests do. Half of
them open a room for two; the other half join by the code they read off the screen.
Every pair plays one complete game at the same time as the others: the mover
types a column, and the figure is the time from that key to the opponent's screen
showing the move ("Moves (n)"). The moves come from random legal play (seeded), so the
games differ and end in wins and draws alike.

The machine is shared, so each latency comes with a reference measured in the same run
and the same sessions: the time from a cursor key (left or right, drawn by the mover's
own client with no room service involved) to the mover's own screen changing. Memory:
the resident size of the server process, of its AI workers and of the client processes
(one per session), read from /proc while every session is in its game.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the sessions are the tests' own: tests/serve/

from c4tui.engine.board.position import Position  # noqa: E402
from tests.serve.served import ServeProcess  # noqa: E402
from tests.serve.terminal import screen_session  # noqa: E402

CODE = re.compile(r"code ([A-Z0-9]{3}-[A-Z0-9]{3})")
SIZE = {"columns": 120, "rows": 40}


def random_game(rng: random.Random) -> str:
    position = Position.from_moves("")
    moves = ""
    while not position.is_over():
        column = rng.choice(position.legal_moves())
        position = position.play(column)
        moves += str(column + 1)
    return moves


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def command_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


class Pair:
    """Two sessions in one room: the host (●) and the guest (○)."""

    def __init__(self, host, guest) -> None:
        self.players = (host, guest)
        self.latencies: list[float] = []
        self.references: list[float] = []
        self.moves = 0

    async def meet(self) -> None:
        host, guest = self.players
        await host.wait_for("Play together")
        host.type("r")
        code = CODE.search(await host.wait_for("your seat code"))[1]
        await guest.wait_for("Play together")
        await guest.press("j")
        guest.type(code)
        await guest.wait_for(code)
        guest.type("\r")
        await guest.wait_for("you are playing")

    async def reference(self, mover) -> None:
        """A cursor key to the mover's own screen changing: no room service involved."""
        for key in ("\x1b[D", "\x1b[C"):
            mover.changed.clear()
            start = time.perf_counter()
            mover.type(key)
            await mover.changed.wait()
            self.references.append(time.perf_counter() - start)

    async def play(self, moves: str, first_ply: int) -> None:
        for ply, column in enumerate(moves, start=first_ply):
            mover = self.players[(ply - first_ply) % 2]
            opponent = self.players[(ply - first_ply + 1) % 2]
            await mover.wait_for("Your turn")
            await self.reference(mover)
            start = time.perf_counter()
            mover.type(column)
            await opponent.wait_for(f"Moves ({ply - first_ply + 1})")
            self.latencies.append(time.perf_counter() - start)
            await mover.wait_for(f"Moves ({ply - first_ply + 1})")
            self.moves += 1

    async def play_game(self, moves: str) -> None:
        await self.play(moves, 1)
        for player in self.players:
            await player.wait_for(re.compile(r"wins|Draw|You win"))


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def run(sessions: int, seed: int) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="c4tui-serve-load-") as state:
        server = ServeProcess(
            Path(state),
            "--no-web",
            "--max-sessions-per-address",
            str(sessions),
            "--max-connects-per-minute",
            str(4 * sessions),
        )
        await server.start()
        try:
            async with asyncio.TaskGroup() as opening:
                contexts = [
                    screen_session(server.ssh_port, f"player{n:02d}", **SIZE)
                    for n in range(sessions)
                ]
                entered = [opening.create_task(c.__aenter__()) for c in contexts]
            screens = [task.result() for task in entered]
            pairs = [Pair(screens[i], screens[i + 1]) for i in range(0, sessions - 1, 2)]
            started = time.perf_counter()
            async with asyncio.TaskGroup() as meeting:
                for pair in pairs:
                    meeting.create_task(pair.meet())
            held = sum(not screen.ended for screen in screens)
            clients = [p for p in children(server.process.pid) if "--served" in command_of(p)]
            workers = [p for p in children(server.process.pid) if p not in clients]
            async with asyncio.TaskGroup() as playing:
                for pair in pairs:
                    playing.create_task(pair.play_game(random_game(rng)))
            elapsed = time.perf_counter() - started
            memory = (
                rss_mb(server.process.pid),
                sum(rss_mb(p) for p in workers),
                statistics.mean(rss_mb(p) for p in clients) if clients else 0.0,
            )
            still_held = sum(not screen.ended for screen in screens)
            for context in contexts:
                await context.__aexit__(None, None, None)
        finally:
            await server.stop()
    latencies = [x for pair in pairs for x in pair.latencies]
    references = [x for pair in pairs for x in pair.references]
    report(sessions, held, still_held, pairs, latencies, references, memory, elapsed)


def report(sessions, held, still_held, pairs, latencies, references, memory, elapsed):
    load = os.getloadavg()
    p50, p95 = percentile(latencies, 0.5), percentile(latencies, 0.95)
    r50, r95 = percentile(references, 0.5), percentile(references, 0.95)
    server, workers, client = memory
    print(f"c4tui serve under load: {sessions} ssh sessions on 127.0.0.1, {len(pairs)} rooms")
    print(f"load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print()
    print("| figure | value |")
    print("|---|---|")
    print(f"| sessions held (all games) | {still_held} of {sessions} ({held} when paired) |")
    print(f"| games played to the end | {len(pairs)} |")
    print(f"| moves played | {sum(pair.moves for pair in pairs)} in {elapsed:.0f} s |")
    print(f"| move to opponent's screen, p50 / p95 | {p50 * 1000:.0f} / {p95 * 1000:.0f} ms |")
    reference = f"{r50 * 1000:.0f} / {r95 * 1000:.0f} ms"
    print(f"| reference: cursor key to own screen, p50 / p95 | {reference} |")
    print(f"| ratio to the reference, p50 / p95 | {p50 / r50:.1f} / {p95 / r95:.1f} |")
    print(f"| server process (room service + fronts) | {server:.0f} MB |")
    if workers:
        print(f"| AI worker processes, together | {workers:.0f} MB |")
    print(f"| one client process, mean | {client:.0f} MB |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=16, help="ssh sessions (even)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(run(args.sessions, args.seed))


if __name__ == "__main__":
    main()
