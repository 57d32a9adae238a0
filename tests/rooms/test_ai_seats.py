"""The AI seats' pool: budgets capped by the server, rooms in turn, a dead worker replaced."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from tests.rooms.support import PATIENCE, login, next_of, room_where


@pytest.mark.slow  # a worker process to start, and two searches one after the other
async def test_budgets_are_capped_and_busy_rooms_take_turns(service):
    # One worker, two rooms whose engines ask for 30 s a move: the server's 0.3 s cap
    # ends each search, and the second room's waits only for the first one's.
    ann, bob = await login(service, "ann"), await login(service, "bob")
    for player in (ann, bob):
        await player.send("create", ai="mcts:time=30", second=True)
    for player in (ann, bob):
        moved = await room_where(player, lambda m: len(m["moves"]) == 1)
        assert moved["info"]["elapsed"] < 30
    await ann.close()
    await bob.close()


@pytest.mark.slow  # two worker processes to start
async def test_a_worker_killed_mid_search_is_replaced_and_m_tries_again(service):
    ann = await login(service, "ann")
    await ann.send("create", ai="mcts:time=30", second=True)
    await next_of(ann, "progress")  # the worker is searching now
    worker = service.host.ai.pool._live[0]
    os.kill(worker.process.pid, signal.SIGKILL)
    failed = await next_of(ann, "notice", lambda m: "The AI failed" in m["text"])
    assert "Press m" in failed["text"]
    await ann.send("hurry")
    await room_where(ann, lambda m: len(m["moves"]) == 1)
    await asyncio.wait_for(ann.close(), PATIENCE)
