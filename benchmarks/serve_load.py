"""Load on `c4tui serve`: N ssh sessions pair up into rooms and play whole games at once.
Not a test: it prints figures.

    uv run python benchmarks/serve_load.py [--sessions 16] [--seed 1]

A real `c4tui serve` (its own process, a fresh state directory, free ports) gets N ssh
sessions on 127.0.0.1, each a PTY whose screen pyte draws, as the tests do. Half of
them open a room for two; the other half join by the code they read off the screen.
Every pair plays one complete game at the same time as the others: the mover
types a column, and the figure is the time from that key to the opponent's screen
showing the move (the move list's title, "Moves to 3 ○"). The moves come from random
legal play (seeded), so the games differ and end in wins and draws alike. With
`--think S` a mover waits S seconds before each move, as a person would; without it
the games are played as fast as the screens allow (a stress, not a crowd).

`--ramp 4,8,16,32,64` runs one fresh server per size and prints one row each (sessions
held, p50/p95, memory, the server's open files, a client's CPU from its start to its
seat, CPU per move of the server, of the clients and of this load generator, the load
average; docs/deployment.md explains each column), stopping at the first size past
`--limit-ms` (150) at p95 or with a refused session. The generator (pyte drawing every
screen, asyncssh) runs on the same machine: its CPU column is what it took from the
server, so the figures are a lower bound of what the machine holds alone.

The machine is shared, so each latency comes with a reference measured in the same run
and the same sessions: the time from a cursor key (left or right, drawn by the mover's
own client with no room service involved) to the mover's own screen changing. Memory:
the resident size of the server process, of its AI workers, of the fork server and of
the client processes (one per session; also their own, private pages, as most of a
forked client's are shared with the fork server), read from /proc while every session
is in its game.
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
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the sessions are the tests' own: tests/serve/

from c4tui.engine.board.notation import move_name  # noqa: E402
from c4tui.engine.board.position import Position  # noqa: E402
from tests.serve.served import ServeProcess, children  # noqa: E402
from tests.serve.terminal import screen_session  # noqa: E402

CODE = re.compile(r"code ([A-Z0-9]{3}-[A-Z0-9]{3})")
SIZE = {"columns": 120, "rows": 40}
# A cursor key whose screen has not changed after this long changed nothing to draw.
NOTHING_DRAWN = 5.0


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


def own_mb(pid: int) -> float:
    """Memory only this process holds (private pages): what one more session costs, where
    the resident size also counts pages shared with the fork server and the others."""
    try:
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
    except OSError:
        return 0.0
    own = [int(line.split()[1]) for line in rollup if line.startswith("Private_")]
    return sum(own) / 1024


class Pair:
    """Two sessions in one room: the host (●) and the guest (○)."""

    def __init__(self, host, guest, think: float = 0.0) -> None:
        self.players = (host, guest)
        self.think = think
        self.latencies: list[float] = []
        self.references: list[float] = []
        self.undrawn = 0  # cursor keys that drew nothing (left out of the reference)
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

    async def reference(self, mover, position: Position) -> None:
        """A cursor key to the mover's own screen changing: no room service involved.

        To a column with room beside the cursor and back, so both keys move it: a key
        that changes nothing (at an edge, or onto a full column, where the cursor is
        kept off) draws nothing. A key whose screen has not changed after NOTHING_DRAWN
        is left out of the figures and counted."""
        column = cursor_column(mover.text(), position.width)
        if column is None:
            return
        left, right = "\x1b[D", "\x1b[C"
        if column + 1 < position.width and position.can_play(column + 1):
            keys = (right, left)
        elif column > 0 and position.can_play(column - 1):
            keys = (left, right)
        else:
            return
        for key in keys:
            mover.changed.clear()
            start = time.perf_counter()
            mover.type(key)
            try:
                await asyncio.wait_for(mover.changed.wait(), NOTHING_DRAWN)
            except TimeoutError:
                self.undrawn += 1
                continue
            self.references.append(time.perf_counter() - start)

    async def play(self, moves: str, first_ply: int) -> None:
        for ply, column in enumerate(moves, start=first_ply):
            mover = self.players[(ply - first_ply) % 2]
            opponent = self.players[(ply - first_ply + 1) % 2]
            await mover.wait_for("Your turn")
            await asyncio.sleep(self.think)
            await self.reference(mover, Position.from_moves(moves[: ply - first_ply]))
            start = time.perf_counter()
            mover.type(column)
            # The move list's title names the last move: "Moves to 3 ○".
            title = f"Moves to {move_name(ply - first_ply)}"
            await opponent.wait_for(title)
            self.latencies.append(time.perf_counter() - start)
            await mover.wait_for(title)
            self.moves += 1

    async def play_game(self, moves: str) -> None:
        await self.play(moves, 1)
        for player in self.players:
            await player.wait_for(re.compile(r"wins|Draw|You win"))


def cursor_column(screen: str, width: int) -> int | None:
    """The 0-based column of the board's cursor (▼), from where it stands over the first
    frame under it (╭ ... ╮); None when the screen shows none."""
    lines = screen.splitlines()
    row = next((n for n, line in enumerate(lines) if "▼" in line), None)
    if row is None:
        return None
    cursor = lines[row].index("▼")
    for line in lines[row + 1 :]:
        left, right = line.rfind("╭", 0, cursor), line.find("╮", cursor)
        if left >= 0 and right >= 0:
            return min(width - 1, (cursor - left - 1) * width // (right - left - 1))
    return None


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def open_files(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def uptime() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


@dataclass
class Measurement:
    """One run at one size: what was held, how fast moves travelled, what it cost."""

    sessions: int
    refused: int = 0  # sessions that never reached the lobby or lost their pair
    why: str = ""  # the first such failure, in one line (a refusal, or a wait that ran out)
    held: int = 0  # sessions still open when every game had ended
    games: int = 0
    moves: int = 0
    elapsed: float = 0.0
    latencies: list[float] = field(default_factory=list)
    references: list[float] = field(default_factory=list)
    undrawn: int = 0
    server_mb: float = 0.0
    workers_mb: float = 0.0
    client_mb: float = 0.0  # resident
    client_own_mb: float = 0.0  # private pages only
    forks_mb: float = 0.0  # the fork server the clients share pages with
    # A client's CPU from its start to its seat in a room (the lobby, a room opened or
    # joined), the mean; started from the fork server, its imports are already done.
    seated_cpu: float = 0.0
    server_fds: int = 0
    # CPU seconds while the games were played: the server (with its AI workers), the
    # client processes together, and this load generator (pyte, asyncssh) itself.
    server_cpu: float = 0.0
    clients_cpu: float = 0.0
    generator_cpu: float = 0.0
    load: str = ""

    def p(self, fraction: float, values: list[float] | None = None) -> float:
        values = self.latencies if values is None else values
        return percentile(values, fraction) if values else float("nan")


async def open_sessions(port: int, sessions: int):
    """Open `sessions` ssh sessions at once; the contexts and the screens (or the errors)."""
    contexts = [screen_session(port, f"player{n:03d}", **SIZE) for n in range(sessions)]
    entered = await asyncio.gather(*(c.__aenter__() for c in contexts), return_exceptions=True)
    return contexts, entered


async def measure(sessions: int, seed: int, think: float = 0.0) -> Measurement:
    rng = random.Random(seed)
    result = Measurement(sessions)
    with tempfile.TemporaryDirectory(prefix="c4tui-serve-load-") as state:
        server = ServeProcess(
            Path(state),
            "--no-web",
            "--max-sessions",
            str(max(64, sessions)),
            "--max-sessions-per-address",
            str(sessions),
            "--max-connects-per-minute",
            str(4 * sessions),
            # Every session comes from 127.0.0.1: the per-address room limit (10) refused
            # the 11th room, which the first ramps took for a slow start at 32 sessions.
            "--max-rooms-per-address",
            str(sessions),
            "--max-rooms",
            str(max(50, sessions)),
        )
        await server.start()
        try:
            contexts, screens = await open_sessions(server.ssh_port, sessions)
            candidates = [
                Pair(screens[i], screens[i + 1], think)
                for i in range(0, sessions - 1, 2)
                if not isinstance(screens[i], BaseException)
                and not isinstance(screens[i + 1], BaseException)
            ]
            met = await asyncio.gather(*(p.meet() for p in candidates), return_exceptions=True)
            pairs = [p for p, m in zip(candidates, met, strict=True) if m is None]
            result.refused = sessions - 2 * len(pairs)
            failures = [f for f in [*screens, *met] if isinstance(f, BaseException)]
            result.why = str(failures[0]).splitlines()[0][:100] if failures else ""
            pid = server.process.pid
            clients, forks = server.client_pids(), server.fork_server()
            workers = [p for p in children(pid) if p not in clients and p != forks]
            server_cpu = cpu_seconds(pid) + sum(cpu_seconds(p) for p in workers)
            clients_cpu = sum(cpu_seconds(p) for p in clients)
            result.seated_cpu = clients_cpu / len(clients) if clients else 0.0
            generator_cpu = time.process_time()
            started = time.perf_counter()
            async with asyncio.TaskGroup() as playing:
                for pair in pairs:
                    playing.create_task(pair.play_game(random_game(rng)))
            result.elapsed = time.perf_counter() - started
            result.generator_cpu = time.process_time() - generator_cpu
            result.server_cpu = cpu_seconds(pid) + sum(map(cpu_seconds, workers)) - server_cpu
            result.clients_cpu = sum(cpu_seconds(p) for p in clients) - clients_cpu
            result.server_mb = rss_mb(pid)
            result.workers_mb = sum(rss_mb(p) for p in workers)
            result.client_mb = statistics.mean(rss_mb(p) for p in clients) if clients else 0.0
            result.client_own_mb = statistics.mean(own_mb(p) for p in clients) if clients else 0.0
            result.forks_mb = rss_mb(forks) if forks is not None else 0.0
            result.server_fds = open_files(pid)
            result.load = uptime()
            opened = [s for s in screens if not isinstance(s, BaseException)]
            result.held = sum(not s.ended for s in opened)
            for context, screen in zip(contexts, screens, strict=True):
                if not isinstance(screen, BaseException):
                    await context.__aexit__(None, None, None)
        finally:
            await server.stop()
    result.games = len(pairs)
    result.moves = sum(pair.moves for pair in pairs)
    result.latencies = [x for pair in pairs for x in pair.latencies]
    result.references = [x for pair in pairs for x in pair.references]
    result.undrawn = sum(pair.undrawn for pair in pairs)
    return result


def report(m: Measurement) -> None:
    p50, p95 = m.p(0.5), m.p(0.95)
    r50, r95 = m.p(0.5, m.references), m.p(0.95, m.references)
    print(f"c4tui serve under load: {m.sessions} ssh sessions on 127.0.0.1, {m.games} rooms")
    print(f"{m.load} (at the end)")
    print()
    print("| figure | value |")
    print("|---|---|")
    print(f"| sessions held (all games) | {m.held} of {m.sessions} ({m.refused} refused) |")
    if m.why:
        print(f"| the first refusal | {m.why} |")
    print(f"| games played to the end | {m.games} |")
    print(f"| moves played | {m.moves} in {m.elapsed:.0f} s |")
    print(f"| move to opponent's screen, p50 / p95 | {p50 * 1000:.0f} / {p95 * 1000:.0f} ms |")
    reference = f"{r50 * 1000:.0f} / {r95 * 1000:.0f} ms"
    print(f"| reference: cursor key to own screen, p50 / p95 | {reference} |")
    if m.undrawn:
        print(f"| cursor keys that drew nothing (left out) | {m.undrawn} |")
    print(f"| ratio to the reference, p50 / p95 | {p50 / r50:.1f} / {p95 / r95:.1f} |")
    print(f"| server process (room service + fronts) | {m.server_mb:.0f} MB |")
    if m.workers_mb:
        print(f"| AI worker processes, together | {m.workers_mb:.0f} MB |")
    if m.forks_mb:
        print(f"| fork server (the clients' imports, shared) | {m.forks_mb:.0f} MB |")
    print(f"| one client process, mean: resident / its own | {client_memory(m)} MB |")
    print(f"| one client's CPU to its seat, mean | {m.seated_cpu * 1000:.0f} ms |")
    print(f"| open files of the server | {m.server_fds} |")
    per_move = max(1, m.moves)
    print(f"| CPU per move: server / clients / load generator | {cpu_row(m, per_move)} |")


def cpu_row(m: Measurement, per_move: int) -> str:
    return " / ".join(
        f"{seconds / per_move * 1000:.0f} ms"
        for seconds in (m.server_cpu, m.clients_cpu, m.generator_cpu)
    )


def client_memory(m: Measurement) -> str:
    return f"{m.client_mb:.0f} / {m.client_own_mb:.0f}"


RAMP_HEADER = (
    "| sessions | held | p50 / p95 ms | server MB | fork server MB | client MB: resident / own "
    "| server fds | client CPU to a seat | CPU per move: server / clients / generator "
    "| load (1 5 15 min) |"
)


def ramp_row(m: Measurement) -> str:
    held = f"{m.held}" + (f" ({m.refused} refused)" if m.refused else "")
    latency = f"{m.p(0.5) * 1000:.0f} / {m.p(0.95) * 1000:.0f}"
    memory = f"{m.server_mb:.0f} | {m.forks_mb:.0f} | {client_memory(m)}"
    load = m.load.removeprefix("load ")
    per_move = max(1, m.moves)
    cpu = cpu_row(m, per_move)
    seated = f"{m.seated_cpu * 1000:.0f} ms"
    return (
        f"| {m.sessions} | {held} | {latency} | {memory} | {m.server_fds} | {seated} | {cpu} "
        f"| {load} |"
    )


async def ramp(sizes: list[int], seed: int, limit_ms: float, think: float) -> None:
    """One row per size, up to the first past `limit_ms` at p95 or with a refusal."""
    print(
        f"c4tui serve ramp on 127.0.0.1: p95 limit {limit_ms:.0f} ms, {think:g} s to think "
        f"before each move; {uptime()} (at start)"
    )
    print()
    print(RAMP_HEADER)
    print("|---|---|---|---|---|---|---|---|---|---|")
    for sessions in sizes:
        m = await measure(sessions, seed, think)
        print(ramp_row(m), flush=True)
        if m.refused or not m.p(0.95) * 1000 <= limit_ms:
            over = f"p95 over {limit_ms:.0f} ms"
            reason = f"{m.refused} refused ({m.why})" if m.refused else over
            print(f"\nstopped at {sessions} sessions: {reason}")
            break


def sizes_of(text: str) -> list[int]:
    sizes = [int(word) for word in text.split(",")]
    if any(size < 2 or size % 2 for size in sizes):
        raise argparse.ArgumentTypeError(f"{text!r}: even session counts, 2 or more")
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=16, help="ssh sessions (even)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--ramp", type=sizes_of, metavar="N,N,...", help="one row per size, e.g. 4,8,16,32,64"
    )
    parser.add_argument("--limit-ms", type=float, default=150.0, help="the ramp's p95 limit")
    parser.add_argument(
        "--think", type=float, default=0.0, metavar="S", help="seconds before each move"
    )
    args = parser.parse_args()
    if args.ramp:
        asyncio.run(ramp(args.ramp, args.seed, args.limit_ms, args.think))
    else:
        report(asyncio.run(measure(args.sessions, args.seed, args.think)))


if __name__ == "__main__":
    main()
