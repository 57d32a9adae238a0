"""The sessions of benchmarks/serve_load.py besides the players: spectators and lobby
sitters, and what each costs the load generator.

A player's or a spectator's screen is measured, so pyte draws it (tests/serve/terminal.py);
a lobby sitter's is never read, so its session only drains what the server sends: no
terminal emulator, a few microseconds a read. `Costs` counts the generator's CPU in
drawing screens and in draining, per kind of session.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from c4tui.engine.board.notation import move_name  # noqa: E402
from tests.serve.terminal import connect  # noqa: E402

# The move list's title names the last move: "Moves to 3 ○".
TITLE = re.compile(r"Moves to (\d+ [●○])")
PLY_OF = {move_name(ply): ply for ply in range(100)}
DOWN = "\x1b[B"
# The lobby's button, drawn in one run of bytes: a sitter's client has drawn the lobby.
LOBBY_DRAWN = b"Play together"


class Costs:
    """The generator's CPU per kind of session: drawing its screens, or draining them."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = defaultdict(float)
        self.sessions: dict[str, int] = defaultdict(int)

    def draw_timed(self, session, kind: str) -> None:
        """Count the CPU of pyte drawing `session`'s screen against `kind`."""
        feed = session.stream.feed

        def timed(data: bytes) -> None:
            start = time.process_time()
            feed(data)
            self.cpu[kind] += time.process_time() - start

        session.stream.feed = timed
        self.sessions[kind] += 1


class LobbySitter:
    """A session in the lobby whose screen nobody reads: its bytes are drained, not drawn."""

    def __init__(self, process, costs: Costs) -> None:
        self.process = process
        self.costs = costs
        self.received = 0
        self.tail = b""  # the last bytes read, for a word split across two reads
        self.in_lobby = asyncio.Event()
        self.ended = False
        self.reader = asyncio.create_task(self._drain())
        costs.sessions["lobby"] += 1

    async def _drain(self) -> None:
        while True:
            data = await self.process.stdout.read(65536)
            start = time.process_time()
            if not data:
                break
            self.received += len(data)
            if not self.in_lobby.is_set():
                self.tail = self.tail[-64:] + data
                if LOBBY_DRAWN in self.tail:
                    self.in_lobby.set()
            self.costs.cpu["lobby"] += time.process_time() - start
        self.ended = True


@contextlib.asynccontextmanager
async def lobby_sitter(port: int, username: str, costs: Costs, columns: int, rows: int):
    async with await connect(port, username) as conn:
        process = await conn.create_process(
            term_type="xterm-256color", term_size=(columns, rows), encoding=None
        )
        sitter = LobbySitter(process, costs)
        try:
            async with asyncio.timeout(60):
                await sitter.in_lobby.wait()
            yield sitter
        finally:
            process.close()
            sitter.reader.cancel()


async def watch_room(spectator, row: int) -> None:
    """From the lobby, the rooms list's `row`-th room watched (0: the first)."""
    await spectator.wait_for("Play together")
    await spectator.press("l")  # the rooms list has the keys
    for _ in range(row):
        await spectator.press(DOWN)
    spectator.type("w")
    await spectator.wait_for("you are watching")


class Following:
    """A spectator following one room's moves: the time from each move's key (`sent`,
    by ply) to the spectator's screen showing it, or a later move (its screen may skip
    one that came close behind another)."""

    def __init__(self, spectator, sent: dict[int, float]) -> None:
        self.spectator = spectator
        self.sent = sent
        self.latencies: list[float] = []
        self.seen = -1

    async def follow(self) -> None:
        screen = self.spectator
        while not screen.ended:
            shown = TITLE.search(screen.text())
            ply = PLY_OF.get(shown[1], -1) if shown else -1
            now = time.perf_counter()
            for earlier in range(self.seen + 1, ply + 1):
                if earlier in self.sent:
                    self.latencies.append(now - self.sent[earlier])
                    self.seen = earlier
            screen.changed.clear()
            await screen.changed.wait()
