"""SIGKILL during a rated game on a clock: the room service (a process of its own, its time read
from a file the test writes) comes back with every move and fair clocks: the time it was
down is not charged, and of the turn under way only what it kept (every CLOCK_KEEP
seconds) counts."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys

import pytest

from c4tui.community.clocks import CLOCK_KEEP
from c4tui.server.wire.room_client import RoomClient
from tests.rooms.support import PATIENCE, room_where

# The service's time is the number in a file; each time the file changes the service
# looks at its rooms (as its once-a-second look would) and says so on stdout once what
# the look kept is written.
SERVICE_SCRIPT = """
import asyncio, json, sys
from pathlib import Path
from c4tui.server.service.service import Identity, RoomService

async def main():
    clock = Path(sys.argv[2])
    service = RoomService(Path(sys.argv[1]), now=lambda: float(clock.read_text()))
    await service.start()
    people = [Identity(f"ssh-name:{n}", n, "127.0.0.1") for n in ("ann", "bob")]
    tokens = [service.issue_token(person) for person in people]
    print(json.dumps({"socket": str(service.socket_path), "tokens": tokens}), flush=True)
    seen = clock.read_text()
    while True:
        await asyncio.sleep(0.02)
        if clock.read_text() != seen:
            seen = clock.read_text()
            service.host.look()
            await service.host.line.written()  # a clock kept is written off the loop
            print(f"looked {seen}", flush=True)

asyncio.run(main())
"""


class FileTime:
    """The time in a file, moved by the test."""

    def __init__(self, path, start: float) -> None:
        self.path, self.seconds = path, start
        self.write()

    def write(self) -> None:
        """The time into the file whole (renamed into place: never read half-written)."""
        part = self.path.with_suffix(".part")
        part.write_text(str(self.seconds))
        os.replace(part, self.path)

    async def moved(self, process, seconds: float) -> None:
        """Move the time on and wait until the service has looked at its rooms."""
        self.seconds += seconds
        self.write()
        while True:
            line = await asyncio.wait_for(process.stdout.readline(), PATIENCE)
            if line.decode().strip() == f"looked {self.seconds}":
                return


async def started(state, time):
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", SERVICE_SCRIPT, str(state), str(time.path),
        stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    told = json.loads(await asyncio.wait_for(process.stdout.readline(), PATIENCE))
    players = [await RoomClient.connect(told["socket"], token=t) for t in told["tokens"]]
    return process, players


async def killed(process, players) -> None:
    os.kill(process.pid, signal.SIGKILL)
    await process.wait()
    for player in players:
        await player.close()


@pytest.mark.slow  # three service processes started: about 3 s of CPU
async def test_a_kill_on_a_clock_comes_back_move_for_move_with_fair_clocks(tmp_path):
    state, time = tmp_path / "state", FileTime(tmp_path / "now", 1000.0)
    process, (ann, bob) = await started(state, time)
    try:
        await ann.send("seek", control="3+0")  # a rated game, paired by automatch
        await bob.send("seek", control="3+0")
        paired = await room_where(ann, lambda m: m["seat"] is not None)
        await room_where(bob, lambda m: m["seat"] is not None)
        if paired["seat"] == 1:  # the pairing chose the colours: "ann" plays ● below
            ann, bob = bob, ann
        assert paired["rated"] and paired["clock"]["running"] == 0
        await time.moved(process, 10)
        await ann.send("drop", column=3, ply=0)
        await room_where(bob, lambda m: m["moves"] == "4")
        await time.moved(process, 20)
        await bob.send("drop", column=3, ply=1)
        await room_where(ann, lambda m: m["moves"] == "44")
        await time.moved(process, 7)  # ann thinks 7 s, then the server is killed
    finally:
        await killed(process, (ann, bob))

    time.seconds += 3600  # down an hour
    time.write()
    process, (ann, bob) = await started(state, time)
    try:
        back = await room_where(ann, lambda m: m["seat"] is not None)
        if back["seat"] == 1:
            ann, bob = bob, ann
            back = await room_where(ann, lambda m: m["seat"] == 0)
        assert back["moves"] == "44" and back["clock"]["running"] == 0 and back["rated"]
        # The hour is not charged, nor the 7 s since the clock was last kept (the move).
        assert back["clock"]["left"] == [170.0, 160.0]
        await time.moved(process, CLOCK_KEEP + 10)  # a long think: kept on the way
    finally:
        await killed(process, (ann, bob))

    time.seconds += 100
    time.write()
    process, (ann, bob) = await started(state, time)
    try:
        back = await room_where(ann, lambda m: m["seat"] is not None)
        if back["seat"] == 1:
            ann, bob = bob, ann
            back = await room_where(ann, lambda m: m["seat"] == 0)
        assert back["clock"]["left"] == [170.0 - CLOCK_KEEP - 10, 160.0]  # the kept think
        assert back["rated"]
        await time.moved(process, 5)
        await ann.send("drop", column=2, ply=2)
        moved = await room_where(bob, lambda m: m["moves"] == "443")
        assert moved["clock"]["left"] == [170.0 - CLOCK_KEEP - 15, 160.0]
        assert moved["clock"]["running"] == 1
    finally:
        await killed(process, (ann, bob))
