"""SIGKILL during a tournament: a room service in a process of its own is killed with a
move in flight mid-round, and comes back with the tournament, its round, the result of
the game that had ended and the game under way where its players last saw it; the
round then ends and the next one is paired."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys

from c4tui.server.wire.room_client import RoomClient
from tests.rooms.support import PATIENCE, next_of, room_where

NAMES = ("ann", "bob", "cat", "dan", "eve")
SERVICE_SCRIPT = """
import asyncio, json, sys
from pathlib import Path
from c4tui.server.service.service import Identity, RoomLimits, RoomService

async def main():
    service = RoomService(Path(sys.argv[1]), RoomLimits(round_pause=0.0))
    await service.start()
    tokens = [
        service.issue_token(Identity(f"ssh-name:{name}", name, "127.0.0.1"))
        for name in sys.argv[2:]
    ]
    print(json.dumps({"socket": str(service.socket_path), "tokens": tokens}), flush=True)
    await asyncio.Event().wait()

asyncio.run(main())
"""
FIRST_WINS = "1212121"  # ● makes four in column 1 on its fourth move
SLOW_GAME = "4444"  # four moves that end nothing


async def started(state):
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", SERVICE_SCRIPT, str(state), *NAMES, stdout=asyncio.subprocess.PIPE
    )
    told = json.loads(await asyncio.wait_for(process.stdout.readline(), PATIENCE))
    clients = [await RoomClient.connect(told["socket"], token=t) for t in told["tokens"]]
    return process, dict(zip(NAMES, clients, strict=True))


async def rooms_of(players):
    """Each player's room as it is shown to them, by room: {room: {seat: (client, view)}}."""
    seats = {}
    for client in players:
        view = await room_where(client, lambda m: m["seat"] is not None)
        seats.setdefault(view["room"], {})[view["seat"]] = (client, view)
    return seats


async def drop(seats, moves, first_ply=0, last_waited=True):
    """Play these moves, each seen by its player before the next is sent (two players'
    connections are not ordered with each other)."""
    for ply, column in enumerate(moves, start=first_ply):
        mover = seats[ply % 2][0]
        await mover.send("drop", column=int(column) - 1, ply=ply)
        if last_waited or ply < first_ply + len(moves) - 1:
            await room_where(mover, lambda m, n=ply + 1: len(m["moves"]) >= n)


async def test_a_tournament_killed_mid_round_comes_back_with_its_rounds_and_games(tmp_path):
    state = tmp_path / "state"
    process, clients = await started(state)
    try:
        ann = clients["ann"]
        await ann.send("make_tournament", name="Killed", control="5+3", rounds=3, minutes=60)
        number = (await next_of(ann, "tournament"))["tournament"]["number"]
        for name in ("bob", "cat", "dan"):
            await clients[name].send("enter_tournament", tournament=number)
        await next_of(ann, "tournament", lambda m: m["tournament"]["players"] == 4)
        await ann.send("begin_tournament", tournament=number)
        boards = await rooms_of([clients[n] for n in NAMES[:4]])
        (ended, ended_seats), (going, going_seats) = sorted(boards.items())
        await drop(ended_seats, FIRST_WINS)
        await room_where(ended_seats[1][0], lambda m: m["over"])
        await drop(going_seats, SLOW_GAME[:3])
        await room_where(going_seats[1][0], lambda m: m["moves"] == SLOW_GAME[:3])
        # In flight as the kill comes:
        await drop(going_seats, SLOW_GAME[3], first_ply=3, last_waited=False)
    finally:
        os.kill(process.pid, signal.SIGKILL)
        await process.wait()
    for client in clients.values():
        await client.close()
    names = {seat: view["seats"][seat]["name"] for seat, (_, view) in going_seats.items()}

    process, clients = await started(state)
    try:
        eve = clients["eve"]
        await eve.send("follow_tournament", tournament=number)
        back = await next_of(eve, "tournament")
        assert back["tournament"]["phase"] == "playing" and back["tournament"]["round"] == 1
        results = {b["room"]: (b["points"], b["moves"]) for b in back["boards"]}
        assert results[ended] == (1.0, 7)
        assert results[going][0] is None and results[going][1] in (3, 4)  # never half
        again = {}
        for seat, name in names.items():
            view = await room_where(clients[name], lambda m: m["room"] == going)
            assert view["seat"] == seat and view["moves"] in (SLOW_GAME[:3], SLOW_GAME)
            again[seat] = (clients[name], view)
        played = len(again[0][1]["moves"])
        await drop(again, SLOW_GAME[played:], first_ply=played)  # the move lost, again
        await again[0][0].send("resign")  # ● is to move after four moves: ● resigns
        second = await next_of(eve, "tournament", lambda m: m["tournament"]["round"] == 2)
        assert len([b for b in second["boards"] if b["round"] == 2]) == 2
    finally:
        os.kill(process.pid, signal.SIGKILL)
        await process.wait()
        for client in clients.values():
            await client.close()
