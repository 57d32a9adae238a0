"""SIGKILL at any moment loses nothing anyone was shown: a room service in a process of
its own is killed with a move in flight, three times in one game, and each time comes
back with every move its players saw (and the one in flight, or not: never half)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys

from c4tui.engine.board.position import Position
from c4tui.server.wire.room_client import RoomClient
from tests.rooms.support import PATIENCE, room_where

SERVICE_SCRIPT = """
import asyncio, json, sys
from pathlib import Path
from c4tui.server.service.service import Identity, RoomService

async def main():
    service = RoomService(Path(sys.argv[1]))
    await service.start()
    people = [Identity(f"ssh-name:{n}", n, "127.0.0.1") for n in ("ann", "bob")]
    tokens = [service.issue_token(person) for person in people]
    print(json.dumps({"socket": str(service.socket_path), "tokens": tokens}), flush=True)
    await asyncio.Event().wait()

asyncio.run(main())
"""


def a_long_game(plies: int) -> str:
    """Moves that end nothing for `plies` plies: each the first column (turning) that
    neither wins nor lets the other side win at once."""
    position, moves = Position.start(), ""
    for ply in range(plies):
        for turn in range(7):
            col = (ply + turn) % 7
            if not position.can_play(col) or position.is_winning_move(col):
                continue
            after = position.play(col)
            if not any(after.can_play(c) and after.is_winning_move(c) for c in range(7)):
                break
        position, moves = position.play(col), moves + str(col + 1)
    assert not position.is_over()
    return moves


async def started(state):
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", SERVICE_SCRIPT, str(state), stdout=asyncio.subprocess.PIPE
    )
    told = json.loads(await asyncio.wait_for(process.stdout.readline(), PATIENCE))
    players = [await RoomClient.connect(told["socket"], token=t) for t in told["tokens"]]
    return process, players


async def test_a_kill_with_a_move_in_flight_loses_no_move_anyone_saw(tmp_path):
    state, game = tmp_path / "state", a_long_game(12)
    seen = ""  # the moves both players were shown
    for stop_after in (3, 1, 4):
        process, (ann, bob) = await started(state)
        try:
            if not seen:
                await ann.send("create")
                code = (await room_where(ann, lambda m: m["seat"] == 0))["code"]
                await bob.send("join", code=code)
                await room_where(bob, lambda m: m["seat"] == 1)
            else:  # back in their seats, the game as they last saw it or one move on
                back = await room_where(ann, lambda m: m["seat"] == 0)
                assert back["moves"] in (seen, game[: len(seen) + 1])
                assert back["code"] == code
                seen = back["moves"]
                await room_where(bob, lambda m, n=seen: m["seat"] == 1 and m["moves"] == n)
            for _ in range(stop_after):
                ply = len(seen)
                await (ann, bob)[ply % 2].send("drop", column=int(game[ply]) - 1, ply=ply)
                seen = game[: ply + 1]
                for player in (ann, bob):
                    await room_where(player, lambda m, n=seen: m["moves"] == n)
            ply = len(seen)
            await (ann, bob)[ply % 2].send("drop", column=int(game[ply]) - 1, ply=ply)
        finally:
            os.kill(process.pid, signal.SIGKILL)  # the last move may be kept or not
            await process.wait()
        await ann.close()
        await bob.close()
    assert len(seen) >= 8
