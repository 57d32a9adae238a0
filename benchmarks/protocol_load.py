"""Load on the room service alone: clients that speak the room protocol, no Textual.
Not a test: it prints figures (docs/deployment.md explains each column).

    uv run python benchmarks/protocol_load.py                 # 500 rooms, the judged size
    uv run python benchmarks/protocol_load.py --rooms 40 --lobby 10 --spectators 10

Past what the machine's terminals can drive: each room service (`RoomService`, in a
process of its own started by this script, a fresh state directory, its room limits
lifted to the load's size) gets plain asyncio connections on its Unix socket, each
admitted with a one-time token the service issued for it, as a front does
(docs/serve-contract.md). `--rooms` rooms of two players each, `--spectators` watchers
spread over the rooms, `--lobby` connections that sit in the lobby. Every room plays one
random legal game (seeded) at once, each mover waiting `--think` seconds (0.5-1.5 times
it, at random) before each move, so the moves are spread as people's are.
A room whose views stop coming for two minutes (a service far behind) is counted as
stalled and left; the others play on.

The figures, for one server on `--store`, then two servers on one PostgreSQL (started
by this script in a temporary directory, as the tests start theirs; each setup on a
fresh database), the connections spread over the two at random, as a load balancer would:

- fan-out: from a move's `drop` sent to each member of the room (both players and its
  spectators) reading the room's view with that move, p50/p95; also to the opponent
  alone and to the spectators alone;
- the room services' CPU (their processes and AI workers, from /proc) per move while
  the games are played, and per lobby change: `--lobby-changes` rooms opened and left,
  one every half second, by a connection of the lobby, while nothing else happens; and
  from such a change to each lobby connection's next lobby line, p50/p95 (the service
  gathers lobby changes for a quarter of a second);
- the services' CPU per second with everyone connected and nothing happening;
- what a lobby connection is sent per move (bytes), and this generator's own CPU per
  move (it reads each line only as far as it needs: a view's move count, never a
  lobby's JSON).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import re
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from load_store import LoadStore
from serve_load import cpu_seconds, percentile, precise_cpu, random_game, uptime

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # PostgreSQL as the tests start it: tests/community/

from c4tui.server.wire.protocol import VERSION  # noqa: E402
from tests.serve.served import children  # noqa: E402

KIND = re.compile(rb'"kind":\s*"(\w+)"')
MOVES = re.compile(rb'"moves":\s*"(\d*)"')
SEAT = re.compile(rb'"seat":\s*(\d|null)')
ROOM = re.compile(rb'"room":\s*(\d+)')
CODE = re.compile(rb'"code":\s*"([^"]+)"')
CONNECT_AT_ONCE = 50  # connections opened together (a Unix socket's backlog is 100)
LINE_LIMIT = 1 << 24  # a whole lobby of 500 rooms is one line
WAIT = 120.0  # a wait this long means the service stopped answering: the run fails


# ---- the room service, in a process of its own ---------------------------------------


def serve_child(state: str, store: str | None, rooms: int) -> None:
    """The child: a RoomService that prints its socket, then answers each line of
    names on its stdin with one line of tokens for them."""
    from c4tui.server.service.service import Identity, RoomLimits, RoomService

    limits = RoomLimits(
        rooms=rooms,
        rooms_per_address=rooms,
        code_guesses_per_address=rooms,
        ai_workers=1,
    )

    async def run() -> None:
        service = RoomService(Path(state), limits, store_url=store)
        await service.start()
        print(f"socket {service.socket_path}", flush=True)
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=LINE_LIMIT)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        while line := await reader.readline():
            names = line.decode().split()
            tokens = [
                service.issue_token(Identity(f"ssh-name:{n}", n, "127.0.0.1"), 600.0) for n in names
            ]
            print(" ".join(tokens), flush=True)
        await service.close()

    raise_file_limit()
    logging.basicConfig(level=logging.WARNING, format="service: %(message)s")  # refusals
    asyncio.run(run())


def raise_file_limit() -> None:
    """A connection is a file descriptor on each side: a thousand need more than 1024."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Service:
    """One room service's process: its socket, tokens on demand, its CPU."""

    def __init__(self, state: Path, store: str | None, rooms: int) -> None:
        self.argv = [sys.executable, __file__, "--serve", str(state), "--room-limit", str(rooms)]
        if store:
            self.argv += ["--store-url", store]
        self.process: asyncio.subprocess.Process | None = None
        self.socket = ""

    async def start(self) -> None:
        self.process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=LINE_LIMIT,
            cwd=ROOT,
        )
        line = await asyncio.wait_for(self.process.stdout.readline(), WAIT)
        if not line.startswith(b"socket "):
            raise RuntimeError(f"the room service did not start: {line!r}")
        self.socket = line.split(b" ", 1)[1].decode().strip()

    async def tokens(self, names: list[str]) -> list[str]:
        self.process.stdin.write(" ".join(names).encode() + b"\n")
        await self.process.stdin.drain()
        return (await asyncio.wait_for(self.process.stdout.readline(), WAIT)).decode().split()

    def cpu(self, measure: Callable[[int], float] = cpu_seconds) -> float:
        pid = self.process.pid
        return measure(pid) + sum(measure(child) for child in children(pid))

    async def stop(self) -> None:
        if self.process.returncode is None:
            self.process.stdin.close()
            try:
                await asyncio.wait_for(self.process.wait(), 30)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()


# ---- the clients --------------------------------------------------------------------


class Tally:
    """What the members of every room saw, and when (one for a whole setup)."""

    def __init__(self) -> None:
        self.sent: dict[tuple[int, int], float] = {}  # (room, moves) -> when the drop went
        self.to_opponent: list[float] = []
        self.to_spectators: list[float] = []
        self.to_movers: list[float] = []
        self.lobby_mark = 0.0  # when the last lobby change was asked for
        self.to_lobby: list[float] = []
        self.lobby_bytes = 0
        self.stalled: list[str] = []  # rooms left behind: why, in one line each


class Connection:
    """One client: reads every line the service sends, as little of it as it needs."""

    def __init__(self, name: str, tally: Tally) -> None:
        self.name = name
        self.tally = tally
        self.role = "lobby"  # "player", "spectator" or "lobby"
        self.seat: int | None = None
        self.room = 0
        self.code = ""
        self.moves = -1  # the move count of the last view of its room
        self.changed = asyncio.Event()
        self.awaiting_lobby = False
        self.ended = False
        self.said = b""  # the last refusal, notice or bye, for a failure's message

    async def open(self, socket: str, token: str) -> None:
        self.reader, self.writer = await asyncio.open_unix_connection(socket, limit=LINE_LIMIT)
        self.send("hello", version=VERSION, token=token)
        welcome = await asyncio.wait_for(self.reader.readline(), WAIT)
        if b'"welcome"' not in welcome[:40]:
            raise RuntimeError(f"{self.name} not admitted: {welcome[:200]!r}")
        self.reading = asyncio.create_task(self.read())

    def send(self, kind: str, **fields: object) -> None:
        self.writer.write(json.dumps({"kind": kind, **fields}).encode() + b"\n")

    async def read(self) -> None:
        while line := await self.reader.readline():
            kind = KIND.search(line, 0, 40)
            if kind is None:
                continue
            if kind[1] == b"room":
                self.viewed(line)
            elif kind[1].startswith(b"lobby") and self.role == "lobby":  # the whole, or a diff
                self.tally.lobby_bytes += len(line)
                if self.awaiting_lobby:
                    self.awaiting_lobby = False
                    self.tally.to_lobby.append(time.perf_counter() - self.tally.lobby_mark)
            elif kind[1] in (b"refused", b"notice", b"bye"):
                self.said = line[:300].strip()
                if kind[1] == b"bye":
                    break
        self.ended = True
        self.changed.set()

    def viewed(self, line: bytes) -> None:
        now = time.perf_counter()
        room, moves = ROOM.search(line), MOVES.search(line)
        if room is None or moves is None:
            return
        seat = SEAT.search(line)
        self.seat = None if seat is None or seat[1] == b"null" else int(seat[1])
        self.room = int(room[1])
        if code := CODE.search(line):
            self.code = code[1].decode()
        count = len(moves[1])
        if count > self.moves:
            sent = self.tally.sent.get((self.room, count))
            if sent is not None and self.moves >= 0:
                latency = now - sent
                if self.role == "spectator":
                    self.tally.to_spectators.append(latency)
                elif self.seat == count % 2:  # its move now: the opponent of the mover
                    self.tally.to_opponent.append(latency)
                else:
                    self.tally.to_movers.append(latency)
        self.moves = count
        self.changed.set()

    async def until(self, what: Callable[[Connection], bool]) -> None:
        try:
            async with asyncio.timeout(WAIT):
                while not what(self):
                    if self.ended:
                        raise ConnectionError(f"{self}: the service closed the connection")
                    self.changed.clear()
                    await self.changed.wait()
        except TimeoutError:
            raise TimeoutError(f"{self}: nothing for {WAIT:g} s") from None

    def __str__(self) -> str:
        where = f"{self.role}, seat {self.seat}, room {self.room}, {self.moves} moves seen"
        return f"{self.name} ({where}; last said: {self.said.decode(errors='replace')})"

    async def close(self) -> None:
        self.writer.close()
        self.reading.cancel()


async def play(
    host: Connection, guest: Connection, moves: str, think: float, rng: random.Random
) -> int:
    """One game, each mover thinking first; the moves played. A room whose views stop
    coming for WAIT seconds (a service far behind) is left there, counted as stalled."""
    players = (host, guest)
    await asyncio.sleep(rng.uniform(0, think))  # the rooms do not move in step
    try:
        for ply, column in enumerate(moves):
            mover = players[ply % 2]
            await mover.until(lambda c, n=ply: c.moves >= n)
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            host.tally.sent[(host.room, ply + 1)] = time.perf_counter()
            mover.send("drop", column=int(column) - 1, ply=ply)
        await host.until(lambda c: c.moves >= len(moves))
        await guest.until(lambda c: c.moves >= len(moves))
    except (TimeoutError, ConnectionError) as error:
        host.tally.stalled.append(str(error))
        return max(0, min(host.moves, guest.moves))
    return len(moves)


# ---- one setup ------------------------------------------------------------------------


@dataclass
class Figures:
    servers: int
    store: str
    players: int
    spectators: int
    lobby: int
    moves: int = 0
    elapsed: float = 0.0
    tally: Tally = field(default_factory=Tally)
    service_cpu_moves: float = 0.0
    service_cpu_idle: float = 0.0  # per second
    idle_seconds: float = 0.0
    lobby_changes: int = 0
    service_cpu_lobby: float = 0.0
    generator_cpu: float = 0.0
    lobby_bytes: int = 0  # sent to the lobby's connections while the games were played
    load: str = ""


async def opened(services: list[Service], names: list[str], tally: Tally, rng) -> list:
    """A connection for each name, each on a service drawn at random (one: all on it)."""
    where = [rng.randrange(len(services)) for _ in names]
    tokens: dict[str, str] = {}
    for number, service in enumerate(services):
        mine = [n for n, w in zip(names, where, strict=True) if w == number]
        tokens.update(zip(mine, await service.tokens(mine), strict=True))
    connections = [Connection(name, tally) for name in names]
    for start in range(0, len(names), CONNECT_AT_ONCE):
        batch = range(start, min(len(names), start + CONNECT_AT_ONCE))
        await asyncio.gather(
            *(connections[i].open(services[where[i]].socket, tokens[names[i]]) for i in batch)
        )
    return connections


async def seat_pairs(players: list[Connection]) -> list[tuple[Connection, Connection]]:
    pairs = list(zip(players[::2], players[1::2], strict=True))
    for host, guest in pairs:
        host.role = guest.role = "player"
        host.send("create", public=True)
    await asyncio.gather(*(host.until(lambda c: c.seat == 0 and bool(c.code)) for host, _ in pairs))
    for host, guest in pairs:
        guest.send("join", code=host.code)
    await asyncio.gather(*(guest.until(lambda c: c.seat == 1) for _, guest in pairs))
    return pairs


async def idle_cpu(services: list[Service], seconds: float) -> float:
    """The services' CPU per second while everyone is connected and nothing happens."""
    before = sum(s.cpu(precise_cpu) for s in services)
    await asyncio.sleep(seconds)
    return (sum(s.cpu(precise_cpu) for s in services) - before) / seconds


async def lobby_changes(
    services: list[Service], changer: Connection, lobby: list[Connection], count: int
) -> float:
    """`count` lobby changes (a room opened, a room left), one every half second; the
    services' CPU for them all."""
    tally = changer.tally
    before = sum(s.cpu() for s in services)
    for change in range(count):
        for member in lobby:
            member.awaiting_lobby = True
        tally.lobby_mark = time.perf_counter()
        if change % 2 == 0:
            changer.send("create", public=True)
            await changer.until(lambda c: c.seat == 0)
        else:
            changer.send("leave")
            changer.seat = None  # its next room's view says 0 again
        await asyncio.sleep(0.5)
    return sum(s.cpu() for s in services) - before


async def measure(args, servers: int, store: str, url: str | None) -> Figures:
    rng = random.Random(args.seed)
    figures = Figures(servers, store, 2 * args.rooms, args.spectators, args.lobby)
    tally = figures.tally
    limit = 2 * args.rooms + args.lobby_changes + 10
    with tempfile.TemporaryDirectory(prefix="c4tui-protocol-load-") as state:
        services = [Service(Path(state) / f"s{n}", url, limit) for n in range(servers)]
        for service in services:  # one after the other: each migrates the schema if new
            await service.start()
        try:
            names = [f"p{n}" for n in range(2 * args.rooms)]
            names += [f"w{n}" for n in range(args.spectators)]
            names += [f"l{n}" for n in range(args.lobby + 1)]
            connections = await opened(services, names, tally, rng)
            players = connections[: 2 * args.rooms]
            spectators = connections[2 * args.rooms : 2 * args.rooms + args.spectators]
            lobby, changer = connections[-args.lobby - 1 : -1], connections[-1]
            changer.role = "changer"
            pairs = await seat_pairs(players)
            for number, spectator in enumerate(spectators):
                spectator.role = "spectator"
                spectator.send("watch", room=pairs[number % len(pairs)][0].room)
            await asyncio.gather(*(s.until(lambda c: c.moves >= 0) for s in spectators))
            await asyncio.sleep(1.0)  # the lobby's last changes sent
            figures.idle_seconds = args.idle
            figures.service_cpu_idle = await idle_cpu(services, args.idle)

            tally.lobby_bytes = 0
            before, generator = sum(s.cpu() for s in services), time.process_time()
            started = time.perf_counter()
            played = await asyncio.gather(
                *(play(h, g, random_game(rng), args.think, rng) for h, g in pairs)
            )
            figures.elapsed = time.perf_counter() - started
            figures.moves = sum(played)
            figures.service_cpu_moves = sum(s.cpu() for s in services) - before
            figures.generator_cpu = time.process_time() - generator
            figures.load = uptime()
            figures.lobby_bytes = tally.lobby_bytes
            await asyncio.sleep(1.0)  # the games' last lobby changes sent
            figures.lobby_changes = args.lobby_changes
            figures.service_cpu_lobby = await lobby_changes(
                services, changer, lobby, args.lobby_changes
            )
            for connection in connections:
                await connection.close()
        finally:
            for service in services:
                await service.stop()
    return figures


# ---- the report ------------------------------------------------------------------------


def ms(values: list[float]) -> str:
    if not values:
        return "-"
    return f"{percentile(values, 0.5) * 1000:.0f} / {percentile(values, 0.95) * 1000:.0f}"


HEADER = (
    "| servers | store | connections: players / spectators / lobby | moves (s) "
    "| fan-out p50 / p95 ms | to opponent | to spectators "
    "| service CPU per move | service CPU per lobby change | lobby change to lobby p50 / p95 ms "
    "| service CPU idle, per s | sent to a lobby connection per move | generator CPU per move "
    "| load (1 5 15 min) |"
)


def row(f: Figures) -> str:
    t = f.tally
    every = t.to_opponent + t.to_spectators + t.to_movers
    per_move = max(1, f.moves)
    lobby_per_move = f.lobby_bytes / max(1, f.lobby) / per_move
    cells = [
        str(f.servers),
        f.store,
        f"{f.players} / {f.spectators} / {f.lobby}",
        f"{f.moves} ({f.elapsed:.0f})" + (f", {len(t.stalled)} rooms stalled" if t.stalled else ""),
        ms(every),
        ms(t.to_opponent),
        ms(t.to_spectators),
        f"{f.service_cpu_moves / per_move * 1000:.2f} ms",
        f"{f.service_cpu_lobby / max(1, f.lobby_changes) * 1000:.1f} ms",
        ms(t.to_lobby),
        f"{f.service_cpu_idle * 1000:.2f} ms",
        f"{lobby_per_move / 1024:.1f} KiB",
        f"{f.generator_cpu / per_move * 1000:.2f} ms",
        f.load.removeprefix("load ").split(" on ")[0],
    ]
    return "| " + " | ".join(cells) + " |"


async def run(args) -> None:
    raise_file_limit()
    print(
        f"room service under protocol load: {args.rooms} rooms of two, {args.spectators} "
        f"spectators, a lobby of {args.lobby}; {args.think:g} s to think before each move "
        f"(0.5-1.5 times it), seed {args.seed}; {uptime()} (at start)"
    )
    print()
    print(HEADER)
    print("|" + "---|" * (HEADER.count("|") - 1))
    postgres = args.store == "postgresql" or 2 in args.servers
    with LoadStore("postgresql" if postgres else "sqlite") as stores:
        for servers in args.servers:
            store = "postgresql" if servers > 1 else args.store
            url = stores.fresh() if store == "postgresql" else None
            figures = await measure(args, servers, store, url)
            print(row(figures), flush=True)
            if figures.tally.stalled:
                print(f"(stalled: {figures.tally.stalled[0]})", flush=True)


def servers_of(text: str) -> list[int]:
    counts = [int(word) for word in text.split(",")]
    if any(count not in (1, 2) for count in counts):
        raise argparse.ArgumentTypeError(f"{text!r}: 1, 2 or 1,2")
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=500, help="rooms of two players")
    parser.add_argument("--spectators", type=int, default=250, help="spread over the rooms")
    parser.add_argument("--lobby", type=int, default=200, help="connections in the lobby")
    parser.add_argument("--think", type=float, default=2.0, metavar="S")
    parser.add_argument("--servers", type=servers_of, default=[1, 2], help="1, 2 or 1,2")
    parser.add_argument("--store", choices=["sqlite", "postgresql"], default="sqlite",
                        help="one server's store (two always share a PostgreSQL)")  # fmt: skip
    parser.add_argument("--lobby-changes", type=int, default=20)
    parser.add_argument("--idle", type=float, default=5.0, help="seconds of doing nothing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--serve", help=argparse.SUPPRESS)  # the child: a state directory
    parser.add_argument("--store-url", help=argparse.SUPPRESS)
    parser.add_argument("--room-limit", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve_child(args.serve, args.store_url, args.room_limit)
    else:
        asyncio.run(run(args))


if __name__ == "__main__":
    main()
