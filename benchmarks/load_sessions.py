"""The sessions of benchmarks/serve_load.py besides the players: spectators and lobby
sitters, how a screen is read without drawing it, and what each costs the load generator.

Every session reaches its place (a seat, a room watched) with its screen drawn by pyte
(tests/serve/terminal.py), which reads the seat codes and the lobby's rows. From there
on, while the games are played, every player's and spectator's screen is read for its
words only (`Marks`): the client's bytes with their control sequences taken out, in
which a move's arrival is its title ("Moves to 3 ○", written once when it comes).

The first room's screens are the sample that the words are held against: their bytes
are also kept with the time each read came, and drawn by pyte after the games
(`Marks.replay`), which gives the time each move first showed on a drawn screen from
the same bytes at the same times. Drawing them while the games were played cost the
generator about 10 ms of CPU a second for each sample session, on the same two cores as
the server and its clients (pyte parses every byte and lays out every line); after the
games it takes nothing from them.

A lobby sitter's screen is never read, so its session only drains what the server
sends: no terminal emulator, a few microseconds a read. `Costs` counts the generator's
CPU in drawing screens, reading their words and draining, per kind of session.
"""

from __future__ import annotations

import asyncio
import codecs
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


# What the client writes that is not words: control sequences (CSI, OSC, and the
# two-byte ones), taken out so that the words a screen shows read as they were written.
CONTROL = re.compile(
    rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-~]|\x1b[ -~]"
)
CUT_MOST = 64  # bytes kept back for a control sequence cut between two reads
# A drawn sample's sessions count apart from the others of their kind.
DRAWN = "drawn"


class Costs:
    """The generator's CPU per kind of session: drawing its screens, reading their words,
    or draining them."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = defaultdict(float)
        self.sessions: dict[str, int] = defaultdict(int)
        self._kinds: dict[int, str] = {}  # a timed session's kind, by id

    def draw_timed(self, session, kind: str) -> None:
        """Count the CPU of pyte drawing `session`'s screen against `kind`."""
        self._kinds[id(session)] = kind
        self.sessions[kind] += 1
        session.stream.feed = self.timed(session, session.stream.feed)

    def timed(self, session, feed):
        """`feed`, its CPU counted against the session's kind (as it is then)."""

        def timed(data: bytes) -> None:
            start = time.process_time()
            feed(data)
            self.cpu[self._kinds[id(session)]] += time.process_time() - start

        return timed


class Marks:
    """A session whose screen is no longer drawn: the words its client writes, read as
    they come (module docstring). It answers what the load generator asks of a screen:
    `wait_for` a text written since it began reading, the `changed` event, typing."""

    def __init__(self, session, costs: Costs, keep: bool = False) -> None:
        """`keep`: the bytes are kept as they come, with their times, to be drawn later
        (`replay`)."""
        self.session = session
        self.words = ""
        self._read = 0  # how far `unread` has handed the words on
        self._cut = b""  # the start of a control sequence the last read cut off
        self._decode = codecs.getincrementaldecoder("utf-8")(errors="replace").decode
        self._draw = session.stream.feed  # pyte's, where the screen was left
        self.kept: list[tuple[float, bytes]] | None = [] if keep else None
        session.stream.feed = costs.timed(session, self._feed)

    def replay(self) -> dict[int, float]:
        """The kept bytes drawn on the screen, read by read: when each move (by ply)
        first showed, or a later one (a screen may skip a move that came close behind
        another), as pyte drew it from the bytes of that time."""
        shown: dict[int, float] = {}
        for when, data in self.kept or ():
            self._draw(data)
            title = TITLE.search(self.session.text())
            for ply in range(len(shown), PLY_OF.get(title[1], -1) + 1 if title else 0):
                shown[ply] = when
        return shown

    def _feed(self, data: bytes) -> None:
        if self.kept is not None:
            self.kept.append((time.perf_counter(), data))
        data, self._cut = self._cut + data, b""
        cut = data.rfind(b"\x1b")
        if cut >= 0 and len(data) - cut < CUT_MOST and not CONTROL.match(data, cut):
            data, self._cut = data[:cut], data[cut:]
        self.words += self._decode(CONTROL.sub(b"", data))

    @property
    def changed(self) -> asyncio.Event:
        return self.session.changed

    @property
    def ended(self) -> bool:
        return self.session.ended

    def type(self, keys: str | bytes) -> None:
        self.session.type(keys)

    def text(self) -> str:
        return self.words

    def unread(self) -> str:
        """The words written since the last call."""
        words, self._read = self.words[self._read :], len(self.words)
        return words

    async def wait_for(self, text: str | re.Pattern[str], timeout: float = 60.0) -> str:
        """Wait until `text` (or a match of the pattern) has been written."""
        start = 0
        try:
            async with asyncio.timeout(timeout):
                while True:
                    words = self.words
                    back = max(0, start - CUT_MOST)
                    if isinstance(text, re.Pattern):
                        if text.search(words, back):
                            return words
                    elif text in words[back:]:
                        return words
                    if self.ended:
                        raise AssertionError(f"ended before {text!r} was written")
                    start = len(words)
                    self.changed.clear()
                    await self.changed.wait()
        except TimeoutError:
            raise AssertionError(f"{text!r} was never written:\n{self.words[-2000:]}") from None


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
            # the newest title written since the last look
            titles = TITLE.findall(screen.unread())
            ply = max((PLY_OF.get(title, -1) for title in titles), default=-1)
            now = time.perf_counter()
            for earlier in range(self.seen + 1, ply + 1):
                if earlier in self.sent:
                    self.latencies.append(now - self.sent[earlier])
                    self.seen = earlier
            screen.changed.clear()
            await screen.changed.wait()
