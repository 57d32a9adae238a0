"""The AI pool shares its workers between players in turn, not first come first served."""

from __future__ import annotations

import asyncio

from c4tui.server.rooms.ai_pool import AiPool
from c4tui.server.rooms.worker import SearchJob
from tests.rooms.support import PATIENCE


async def test_a_player_with_many_rooms_does_not_make_another_wait_for_all_of_them():
    pool = AiPool(1)
    finished: list[str] = []
    everything = asyncio.Event()

    def queue(player: str, name: str) -> None:
        def done(move, info) -> None:
            finished.append(name)
            if len(finished) == 6:
                everything.set()

        job = SearchJob("random", "", 7, 6, 4, seconds=1.0, seed=1)
        pool.search(job, lambda info: None, done, lambda reason: None, player=player)

    try:
        for room in range(5):  # one player's five rooms, all asked for first...
            queue("ssh-name:hog", f"hog{room}")
        queue("ssh-name:ann", "ann")  # ...then another player's one room
        await asyncio.wait_for(everything.wait(), PATIENCE)
    finally:
        await pool.close()
    assert finished.index("ann") == 1  # after the hog's first search, not its fifth
    assert [name for name in finished if name != "ann"] == [f"hog{n}" for n in range(5)]
