"""Load on `c4tui serve`: N ssh sessions play whole games at once, with others watching
them and others in the lobby. Not a test: it prints figures.

    uv run python benchmarks/serve_load.py [--sessions 16] [--seed 1] [--mix] [--think S]
    uv run python benchmarks/serve_load.py --ramp 16,32,64 --think 2 --mix [--store postgresql]

A real `c4tui serve` (its own process, a fresh state directory, free ports) gets N ssh
sessions on 127.0.0.1, each a PTY. The players' and the spectators' screens are drawn by
pyte, as the tests do, until each is in its place; then they are read for their words
(load_sessions.py), which costs the generator far less, and the first room's bytes are
kept as they come and drawn by pyte after the games: a sample whose drawn screens'
latencies are reported beside its words'. Half the players open a room for two, the
other half join by the code they read off the screen, and every pair plays one complete
game at the same time as the others: the mover types a column, and the figure is the
time from that key to the opponent's screen showing the move (the move list's title,
"Moves to 3 ○"). The moves come from random legal play (seeded), so the games differ and
end in wins and draws alike. With `--think S` a mover waits 0.5 to 1.5 times S (at
random, seeded) before each move, as people do; without it the games are played as fast
as the screens allow (a stress, not a crowd).

`--mix` is the crowd issue 46 asks for: half the sessions play, a quarter watch their
games (spread over the rooms in the lobby's order: each picks its row and presses `w`),
a quarter sit in the lobby. A spectator's figure is the time from the mover's key to its
screen showing the move (or a later one). A lobby sitter's screen is never read, so no
terminal emulator draws it: its bytes are drained (load_sessions.py). What each kind of
session costs this generator, a second, is reported, as is its whole CPU per move.

`--store postgresql` starts PostgreSQL in a temporary directory (as the tests do) and
gives each size a new, empty database; `sqlite` (the default) is each server's own file.

`--ramp 16,32,64` runs one fresh server per size and prints one row each
(docs/deployment.md explains each column), stopping at the first size past `--limit-ms`
(150) at p95, to the opponents or to the spectators, or with a refused session. The
generator runs on the same machine: its CPU is what it took from the server, so the
figures are a lower bound of what the machine holds alone.

The machine is shared, so each latency comes with a reference measured in the same run
and the same sessions (in the single run's report): the time from a cursor key (left or
right, drawn by the mover's own client with no room service involved) to the mover's own
screen changing. Memory: the resident size of the server process, of its AI workers, of
the fork server and of the client processes (also their own, private pages, as most of
a forked client's are shared with the fork server), read from /proc after the games. A
client's CPU is split by role (its processes told apart by when they started): per move
it was shown, and a second while everyone is in place and nothing is played (`--idle`
seconds, read to the nanosecond from /proc's schedstat).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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

from load_sessions import DRAWN, Costs, Following, Marks, lobby_sitter, watch_room  # noqa: E402
from load_store import STORES, LoadStore  # noqa: E402

from c4tui.app.keys import cursor_start  # noqa: E402
from c4tui.app.screens.game import playable  # noqa: E402
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
    """Two sessions in one room: the host (●) and the guest (○), and who watches them."""

    def __init__(self, host, guest, names, think: float = 0.0, seed: int = 0) -> None:
        self.players = (host, guest)
        self.names = names
        self.think = think
        self.rng = random.Random(seed)
        self.latencies: list[float] = []
        self.references: list[float] = []
        self.undrawn = 0  # cursor keys that drew nothing (left out of the reference)
        self.moves = 0
        self.sent: dict[int, float] = {}  # ply (0-based) -> when its key was typed
        self.followers: list[Following] = []
        # Each player's board cursor, followed as its client moves it (a screen read for
        # its words does not show it): the column last dropped in, kept off full ones.
        self.cursors = [cursor_start(Position.start().width)] * 2

    def read_words(self, costs: Costs, keep: bool = False) -> None:
        """From now on the players' screens are read for their words, not drawn; with
        `keep`, their bytes are kept to be drawn after the games (Marks.replay)."""
        self.players = tuple(Marks(player, costs, keep) for player in self.players)

    def drawn_latencies(self) -> tuple[list[float], list[float]]:
        """The kept screens drawn (Marks.replay): from each move's key to the opponent's
        screen showing it, and to its spectators'."""
        shown = [player.replay() for player in self.players]
        opponent = [shown[(ply + 1) % 2][ply] - sent for ply, sent in self.sent.items()
                    if ply in shown[(ply + 1) % 2]]  # fmt: skip
        watched = []
        for follower in self.followers:
            seen = follower.spectator.replay()
            watched += [seen[ply] - sent for ply, sent in self.sent.items() if ply in seen]
        return opponent, watched

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
        await host.wait_for("Your turn")  # its client knows the game began

    async def reference(self, mover, position: Position) -> None:
        """A cursor key to the mover's own screen changing: no room service involved.

        To a column with room beside the cursor and back, so both keys move it: a key
        that changes nothing (at an edge, or onto a full column, where the cursor is
        kept off) draws nothing. A key whose screen has not changed after NOTHING_DRAWN
        is left out of the figures and counted."""
        column = self.cursors[self.players.index(mover)]
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
            if self.think:  # people differ from move to move: half to one and a half times
                await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
            await self.reference(mover, Position.from_moves(moves[: ply - first_ply]))
            start = time.perf_counter()
            self.sent[ply - first_ply] = start
            mover.type(column)
            # The move list's title names the last move: "Moves to 3 ○".
            title = f"Moves to {move_name(ply - first_ply)}"
            await opponent.wait_for(title)
            self.latencies.append(time.perf_counter() - start)
            await mover.wait_for(title)
            self.moves += 1
            self.follow_cursors(ply - first_ply, int(column) - 1, moves)

    def follow_cursors(self, ply: int, column: int, moves: str) -> None:
        """As the clients do: the mover's cursor on its column, both kept playable."""
        self.cursors[ply % 2] = column
        position = Position.from_moves(moves[: ply + 1])
        self.cursors = [playable(cursor, position) for cursor in self.cursors]

    async def play_game(self, moves: str) -> None:
        following = [asyncio.create_task(f.follow()) for f in self.followers]
        try:
            await self.play(moves, 1)
            for player in self.players:  # (not the key bar's "Draw?")
                await player.wait_for(re.compile(r"wins|Draw(?!\?)|You win"))
            last = f"Moves to {move_name(len(moves) - 1)}"
            for follower in self.followers:  # the last move seen by its spectators too
                with contextlib.suppress(AssertionError):  # a spectator gone: not a failure
                    await follower.spectator.wait_for(last)
            await asyncio.sleep(0)  # the followers' turn to note it
        finally:
            for task in following:
                task.cancel()


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


def precise_cpu(pid: int) -> float:
    """CPU time so far of a process's live threads, to the nanosecond (/proc's
    schedstat): an idle client's few milliseconds a second are below the clock ticks
    that cpu_seconds counts (10 ms)."""
    total = 0
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            total += int(Path(f"/proc/{pid}/task/{task}/schedstat").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return cpu_seconds(pid)
    return total / 1e9


def open_files(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def uptime() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


ROLES = ("player", "spectator", "lobby")
MIX = "the mix: half playing, a quarter watching, a quarter in the lobby"


@dataclass
class Measurement:
    """One run at one size: what was held, how fast moves travelled, what it cost."""

    sessions: int
    store: str = "sqlite"
    # sessions by role: in a game, watching one, in the lobby (--mix: 1/2, 1/4, 1/4)
    roles: dict[str, int] = field(default_factory=dict)
    refused: int = 0  # sessions that never reached their place (a seat, a room watched...)
    why: str = ""  # the first such failure, in one line (a refusal, or a wait that ran out)
    held: int = 0  # sessions still open when every game had ended
    games: int = 0
    moves: int = 0
    elapsed: float = 0.0
    latencies: list[float] = field(default_factory=list)  # a move to the opponent's screen
    watched: list[float] = field(default_factory=list)  # a move to its spectators' screens
    unfollowed: int = 0  # spectators whose room was not found on their screen
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
    # client processes by role, and this load generator (pyte, asyncssh) itself.
    server_cpu: float = 0.0
    clients_cpu: dict[str, float] = field(default_factory=dict)
    moves_seen: dict[str, int] = field(default_factory=dict)  # moves shown, by role
    generator_cpu: float = 0.0
    # The generator's CPU for each kind of session (pyte drawing, or draining), a second;
    # the sample's (DRAWN) is its drawing after the games, a second of the games.
    generator_costs: dict[str, float] = field(default_factory=dict)
    # The sample room's latencies as its drawn screens showed them (drawn after the
    # games from the bytes as they came), and as the same screens' words did.
    sample_drawn: tuple[list[float], list[float]] = ([], [])
    sample_words: tuple[list[float], list[float]] = ([], [])
    # With everyone in place and nothing played: a client's CPU a second, by role.
    idle_cpu: dict[str, float] = field(default_factory=dict)
    load: str = ""

    def p(self, fraction: float, values: list[float] | None = None) -> float:
        values = self.latencies if values is None else values
        return percentile(values, fraction) if values else float("nan")

    def per_move(self, role: str) -> float:
        """A client's CPU for each move it was shown, in seconds (nan: no such client)."""
        seen = self.moves_seen.get(role, 0)
        return self.clients_cpu.get(role, 0.0) / seen if seen else float("nan")


async def open_sessions(port: int, names: list[str]):
    """An ssh session with a screen for each name, opened at once: the contexts and the
    screens (or the errors)."""
    contexts = [screen_session(port, name, **SIZE) for name in names]
    entered = await asyncio.gather(*(c.__aenter__() for c in contexts), return_exceptions=True)
    return contexts, entered


def server_flags(sessions: int, store_url: str | None) -> list[str]:
    flags = [
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
    ]
    return flags + (["--store", store_url] if store_url else [])


def roles_of(sessions: int, mix: bool) -> dict[str, int]:
    """Every session a player, or with `mix` half of them (pairs), a quarter watching
    and the rest in the lobby."""
    if not mix:
        return {"player": sessions, "spectator": 0, "lobby": 0}
    players = sessions // 4 * 2
    spectators = sessions // 4
    return {"player": players, "spectator": spectators, "lobby": sessions - players - spectators}


def usable(entered) -> list:
    return [s for s in entered if not isinstance(s, BaseException)]


class Clients:
    """The client processes of each role (told apart by when they started), their CPU."""

    def __init__(self, server: ServeProcess) -> None:
        self.server = server
        self.pids: dict[str, list[int]] = {}

    def started(self, role: str) -> None:
        """The clients that started since the last call are `role`'s."""
        known = {pid for pids in self.pids.values() for pid in pids}
        self.pids[role] = [p for p in self.server.client_pids() if p not in known]

    def cpu(self, measure=cpu_seconds) -> dict[str, float]:
        return {role: sum(map(measure, pids)) for role, pids in self.pids.items()}

    def all(self) -> list[int]:
        return [pid for pids in self.pids.values() for pid in pids]


async def measure(
    sessions: int,
    seed: int,
    think: float = 0.0,
    mix: bool = False,
    store_url: str | None = None,
    idle: float = 5.0,
) -> Measurement:
    rng = random.Random(seed)
    roles = roles_of(sessions, mix)
    result = Measurement(sessions, "postgresql" if store_url else "sqlite", roles)
    costs = Costs()
    with tempfile.TemporaryDirectory(prefix="c4tui-serve-load-") as state:
        server = ServeProcess(Path(state), *server_flags(sessions, store_url))
        await server.start()
        opened: list = []  # (context, session) of every session that opened
        try:
            clients = Clients(server)
            names = [f"player{n:03d}" for n in range(roles["player"])]
            contexts, screens = await open_sessions(server.ssh_port, names)
            opened += [(c, s) for c, s in zip(contexts, screens, strict=True)]
            for screen in usable(screens):
                costs.draw_timed(screen, "player")
            candidates = [
                Pair(screens[i], screens[i + 1], names[i : i + 2], think, rng.randrange(1 << 30))
                for i in range(0, len(names) - 1, 2)
                if not isinstance(screens[i], BaseException)
                and not isinstance(screens[i + 1], BaseException)
            ]
            met = await asyncio.gather(*(p.meet() for p in candidates), return_exceptions=True)
            pairs = [p for p, m in zip(candidates, met, strict=True) if m is None]
            failures = [f for f in [*screens, *met] if isinstance(f, BaseException)]
            clients.started("player")
            placed = 2 * len(pairs)
            if roles["spectator"] and pairs:
                watchers, failed, watching = await spectate(
                    server.ssh_port, roles["spectator"], pairs, costs
                )
                opened += watchers
                failures += failed
                placed += watching
                result.unfollowed = watching - sum(len(p.followers) for p in pairs)
            clients.started("spectator")
            if roles["lobby"]:
                sitters, failed = await sit_in_lobby(server.ssh_port, roles["lobby"], costs)
                opened += sitters
                failures += failed
                placed += roles["lobby"] - len(failed)
            clients.started("lobby")
            read_words(pairs, costs)
            result.refused = sessions - placed
            result.why = str(failures[0]).splitlines()[0][:100] if failures else ""
            pid = server.process.pid
            forks = server.fork_server()
            workers = [p for p in children(pid) if p not in clients.all() and p != forks]
            seated = sum(clients.cpu().values())
            result.seated_cpu = seated / len(clients.all()) if clients.all() else 0.0

            await settled([session for _, session in opened])
            idle_before = clients.cpu(precise_cpu)
            await asyncio.sleep(idle)
            result.idle_cpu = {
                role: (cpu - idle_before[role]) / len(clients.pids[role]) / idle
                for role, cpu in clients.cpu(precise_cpu).items()
                if clients.pids[role]
            }

            server_cpu = cpu_seconds(pid) + sum(cpu_seconds(p) for p in workers)
            clients_cpu = clients.cpu()
            generator_cpu = time.process_time()
            costs_before = dict(costs.cpu)
            started = time.perf_counter()
            async with asyncio.TaskGroup() as playing:
                for pair in pairs:
                    playing.create_task(pair.play_game(random_game(rng)))
            result.elapsed = time.perf_counter() - started
            result.generator_cpu = time.process_time() - generator_cpu
            result.generator_costs = {
                kind: (cpu - costs_before.get(kind, 0.0)) / costs.sessions[kind] / result.elapsed
                for kind, cpu in costs.cpu.items()
                if costs.sessions[kind]
            }
            result.server_cpu = cpu_seconds(pid) + sum(map(cpu_seconds, workers)) - server_cpu
            result.clients_cpu = {r: c - clients_cpu[r] for r, c in clients.cpu().items()}
            if pairs:  # the sample drawn once the games' CPU is read: the words' check
                drawing = time.process_time()
                result.sample_drawn = pairs[0].drawn_latencies()
                sample = 2 + len(pairs[0].followers)
                result.generator_costs[DRAWN] = (
                    (time.process_time() - drawing) / sample / result.elapsed
                )
                result.sample_words = (
                    pairs[0].latencies,
                    [x for f in pairs[0].followers for x in f.latencies],
                )
            every = clients.all()
            result.server_mb = rss_mb(pid)
            result.workers_mb = sum(rss_mb(p) for p in workers)
            result.client_mb = statistics.mean(rss_mb(p) for p in every) if every else 0.0
            result.client_own_mb = statistics.mean(own_mb(p) for p in every) if every else 0.0
            result.forks_mb = rss_mb(forks) if forks is not None else 0.0
            result.server_fds = open_files(pid)
            result.load = uptime()
            result.held = sum(not s.ended for _, s in opened if not isinstance(s, BaseException))
        finally:
            for context, session in opened:
                if not isinstance(session, BaseException):
                    await context.__aexit__(None, None, None)
            await server.stop()
    result.games = len(pairs)
    result.moves = sum(pair.moves for pair in pairs)
    result.latencies = [x for pair in pairs for x in pair.latencies]
    result.watched = [x for pair in pairs for f in pair.followers for x in f.latencies]
    result.references = [x for pair in pairs for x in pair.references]
    result.undrawn = sum(pair.undrawn for pair in pairs)
    result.moves_seen = {
        "player": 2 * result.moves,
        "spectator": sum(pair.moves * len(pair.followers) for pair in pairs),
        # today every lobby client is sent every room's moves; a lobby that is not shown
        # them costs nothing per move, and this says so
        "lobby": result.moves * roles["lobby"],
    }
    return result


def read_words(pairs: list[Pair], costs: Costs) -> None:
    """Every screen in place is read for its words from now on (load_sessions.Marks);
    the first room's bytes are also kept, to be drawn after the games (the sample)."""
    for n, pair in enumerate(pairs):
        pair.read_words(costs, keep=n == 0)
        for follower in pair.followers:
            follower.spectator = Marks(follower.spectator, costs, keep=n == 0)


async def settled(sessions: list, most: int = 15) -> None:
    """Until no session has been sent anything for a second (at most `most` seconds):
    the last screens drawn (seats, rooms, lobbies), so that idle is idle."""
    opened = [s for s in sessions if not isinstance(s, BaseException)]

    def sent() -> int:
        return sum(len(s.raw) if hasattr(s, "raw") else s.received for s in opened)

    for _ in range(most):
        before = sent()
        await asyncio.sleep(1.0)
        if sent() == before:
            return


async def spectate(port: int, count: int, pairs: list[Pair], costs: Costs):
    """`count` spectators, spread over the rooms in the lobby's order, each following
    the pair whose names its screen shows: the (context, session)s and the failures."""
    names = [f"watcher{n:03d}" for n in range(count)]
    contexts, screens = await open_sessions(port, names)
    for screen in usable(screens):
        costs.draw_timed(screen, "spectator")
    rows = [watch_room(s, n % len(pairs)) if not isinstance(s, BaseException) else None
            for n, s in enumerate(screens)]  # fmt: skip
    done = await asyncio.gather(*(r for r in rows if r is not None), return_exceptions=True)
    failures = [f for f in [*screens, *done] if isinstance(f, BaseException)]
    watching = [s for s, d in zip(usable(screens), done, strict=True) if d is None]
    for spectator in watching:
        text = spectator.text()
        pair = next((p for p in pairs if all(name in text for name in p.names)), None)
        if pair is not None:
            pair.followers.append(Following(spectator, pair.sent))
    return list(zip(contexts, screens, strict=True)), failures, len(watching)


async def sit_in_lobby(port: int, count: int, costs: Costs):
    contexts = [
        lobby_sitter(port, f"lobby{n:03d}", costs, SIZE["columns"], SIZE["rows"])
        for n in range(count)
    ]
    entered = await asyncio.gather(*(c.__aenter__() for c in contexts), return_exceptions=True)
    failures = [e for e in entered if isinstance(e, BaseException)]
    return list(zip(contexts, entered, strict=True)), failures


def ms_pair(values: list[float]) -> str:
    if not values:
        return "-"
    return f"{percentile(values, 0.5) * 1000:.0f} / {percentile(values, 0.95) * 1000:.0f}"


def cpu_ms(seconds: float) -> str:
    return "-" if seconds != seconds else f"{seconds * 1000:.1f} ms"  # nan: no such client


def report(m: Measurement) -> None:
    p50, p95 = m.p(0.5), m.p(0.95)
    r50, r95 = m.p(0.5, m.references), m.p(0.95, m.references)
    roles = m.roles
    print(
        f"c4tui serve under load: {m.sessions} ssh sessions on 127.0.0.1 ({roles['player']} "
        f"playing in {m.games} rooms, {roles['spectator']} watching, {roles['lobby']} in the "
        f"lobby), store {m.store}"
    )
    print(f"{m.load} (at the end)")
    print()
    print("| figure | value |")
    print("|---|---|")
    print(f"| sessions held (all games) | {m.held} of {m.sessions} ({m.refused} refused) |")
    if m.why:
        print(f"| the first refusal | {m.why} |")
    if m.unfollowed:
        print(f"| spectators whose room was not found on their screen | {m.unfollowed} |")
    print(f"| games played to the end | {m.games} |")
    print(f"| moves played | {m.moves} in {m.elapsed:.0f} s |")
    print(f"| move to opponent's screen, p50 / p95 | {p50 * 1000:.0f} / {p95 * 1000:.0f} ms |")
    print(f"| move to its spectators' screens, p50 / p95 | {ms_pair(m.watched)} ms |")
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
    print(f"| one client's CPU to its place, mean | {m.seated_cpu * 1000:.0f} ms |")
    print(f"| open files of the server | {m.server_fds} |")
    per_move = max(1, m.moves)
    print(f"| CPU per move: server / load generator | {server_generator(m, per_move)} |")
    print(f"| a client's CPU per move shown: player / spectator / lobby | {client_cpu(m)} |")
    print(f"| a client's CPU a second, idle: player / spectator / lobby | {idle_cpu(m)} |")
    kinds = " / ".join((*ROLES, "sample drawn after the games"))
    print(f"| the generator's CPU a second per session: {kinds} | {costs_of(m)} |")
    print(
        "| the sample room drawn after the games from its bytes as they came, p50 / p95: "
        f"to opponent, to spectators (as its words showed them) | {sample_check(m)} |"
    )


def by_role(values: dict[str, float], scale: float, unit: str) -> str:
    return " / ".join(
        f"{values[role] * scale:.2f} {unit}" if role in values else "-" for role in ROLES
    )


def client_cpu(m: Measurement) -> str:
    return " / ".join(cpu_ms(m.per_move(role)) for role in ROLES)


def idle_cpu(m: Measurement) -> str:
    return by_role(m.idle_cpu, 1000, "ms")


def costs_of(m: Measurement) -> str:
    """The generator's CPU for each kind of session, and for the sample still drawn."""
    costs = m.generator_costs
    drawn = f"{costs[DRAWN] * 1000:.2f} ms" if DRAWN in costs else "-"
    return f"{by_role(costs, 1000, 'ms')} / {drawn}"


def sample_check(m: Measurement, unit: str = " ms") -> str:
    """The sample's latencies drawn, and as words: the same screens, two readings."""
    (opponent, watched), (words_opponent, words_watched) = m.sample_drawn, m.sample_words
    return (
        f"{ms_pair(opponent)}, {ms_pair(watched)}{unit} "
        f"({ms_pair(words_opponent)}, {ms_pair(words_watched)}{unit})"
    )


def server_generator(m: Measurement, per_move: int) -> str:
    return " / ".join(
        f"{seconds / per_move * 1000:.0f} ms" for seconds in (m.server_cpu, m.generator_cpu)
    )


def client_memory(m: Measurement) -> str:
    return f"{m.client_mb:.0f} / {m.client_own_mb:.0f}"


RAMP_HEADER = (
    "| sessions: playing / watching / lobby | held | to opponent p50 / p95 ms "
    "| to spectators p50 / p95 ms | server MB | fork server MB | client MB: resident / own "
    "| server fds | client CPU to its place | CPU per move: server / generator "
    "| client CPU per move shown: player / spectator / lobby "
    "| client CPU a second, idle: player / spectator / lobby "
    "| generator CPU a second per session: player / spectator / lobby / drawn sample "
    "| the sample drawn (as words): to opponent, to spectators p50 / p95 ms "
    "| load (1 5 15 min) |"
)


def ramp_row(m: Measurement) -> str:
    roles = m.roles
    sessions = f"{m.sessions}: {roles['player']} / {roles['spectator']} / {roles['lobby']}"
    held = f"{m.held}" + (f" ({m.refused} refused)" if m.refused else "")
    latency = f"{m.p(0.5) * 1000:.0f} / {m.p(0.95) * 1000:.0f}"
    memory = f"{m.server_mb:.0f} | {m.forks_mb:.0f} | {client_memory(m)}"
    load = m.load.removeprefix("load ").split(" on ")[0]
    seated = f"{m.seated_cpu * 1000:.0f} ms"
    cells = [
        sessions,
        held,
        latency,
        ms_pair(m.watched),
        memory,
        str(m.server_fds),
        seated,
        server_generator(m, max(1, m.moves)),
        client_cpu(m),
        idle_cpu(m),
        costs_of(m),
        sample_check(m, unit=""),
        load,
    ]
    return "| " + " | ".join(cells) + " |"


async def ramp(
    sizes: list[int], seed: int, limit_ms: float, think: float, mix: bool, store: str, idle: float
) -> None:
    """One row per size, each on a fresh server and database, up to the first past
    `limit_ms` at p95 (to the opponent or to the spectators) or with a refusal."""
    print(
        f"c4tui serve ramp on 127.0.0.1, store {store}: p95 limit {limit_ms:.0f} ms, "
        f"{think:g} s to think before each move (half to one and a half times it); "
        f"{MIX if mix else 'everyone playing'}; "
        f"{uptime()} (at start)"
    )
    print()
    print(RAMP_HEADER)
    print("|" + "---|" * (RAMP_HEADER.count("|") - 1))
    with LoadStore(store) as stores:
        for sessions in sizes:
            m = await measure(sessions, seed, think, mix, stores.fresh(), idle)
            print(ramp_row(m), flush=True)
            worst = max(m.p(0.95), m.p(0.95, m.watched) if m.watched else 0.0)
            if m.refused or not worst * 1000 <= limit_ms:
                over = f"p95 over {limit_ms:.0f} ms"
                reason = f"{m.refused} refused ({m.why})" if m.refused else over
                print(f"\nstopped at {sessions} sessions: {reason}")
                break
    print(f"\n{uptime()} (at the end)")


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
        "--think", type=float, default=0.0, metavar="S",
        help="seconds before each move, on average (each 0.5-1.5 times it)",
    )  # fmt: skip
    parser.add_argument(
        "--mix", action="store_true",
        help="half the sessions play, a quarter watch their games, a quarter sit in the lobby",
    )  # fmt: skip
    parser.add_argument("--store", choices=STORES, default="sqlite",
                        help="postgresql: started here, a new database for each size")  # fmt: skip
    parser.add_argument("--idle", type=float, default=5.0, metavar="S",
                        help="seconds with everyone in place and nothing played")  # fmt: skip
    args = parser.parse_args()
    if args.mix and any(size % 4 for size in args.ramp or [args.sessions]):
        parser.error("--mix: session counts that are multiples of 4")
    if args.ramp:
        asyncio.run(
            ramp(args.ramp, args.seed, args.limit_ms, args.think, args.mix, args.store, args.idle)
        )
    else:
        report(asyncio.run(single(args)))


async def single(args) -> Measurement:
    with LoadStore(args.store) as stores:
        return await measure(
            args.sessions, args.seed, args.think, args.mix, stores.fresh(), args.idle
        )


if __name__ == "__main__":
    main()
