"""The operator's check of issue 46, as a test: two servers on one PostgreSQL with games
in play; the database stopped for 25 s, then frozen (SIGSTOP) for 30 s. Meanwhile moves
are refused with a notice and the clocks stand still; afterwards both servers carry on
by themselves (nothing here restarts them or makes them look), and every move shown is
kept, once. Before, a restart left both servers refusing everything until they were
restarted, and a freeze held each whole server."""

from __future__ import annotations

import asyncio

from c4tui.server.wire.identity import RoomLimits
from tests.community.test_store_away import PATIENCE
from tests.community.two_servers import two_servers
from tests.rooms.support import login, room_where

DOWN_SECONDS = 25.0  # the database stopped (pg_ctl stop -m immediate), then started
FROZEN_SECONDS = 30.0  # every process of the database stopped with SIGSTOP, then SIGCONT
OPENING = "4455"  # the moves of every game before the database goes
LATER = "1177"  # the moves after it is back, two each time (no four)


class Game:
    """Two players at one room, each logged in to a server of their own choosing."""

    def __init__(self, first, second) -> None:
        self.players = (first, second)
        self.moves = ""
        self.number = 0
        self.last: dict = {}  # the room as its mover was last shown it

    async def drop(self, column: str) -> dict:
        """The side to move drops in `column` (1-based); the room as the other sees it
        once the move is kept, or as the mover is shown it refused (with its trouble)."""
        ply = len(self.moves)
        mover, other = self.players[ply % 2], self.players[1 - ply % 2]
        await mover.send("drop", column=int(column) - 1, ply=ply)
        shown = await room_where(mover, lambda m: m["moves"] != self.moves or m["trouble"])
        self.last = shown
        if shown["moves"] == self.moves:
            return shown  # refused
        await room_where(other, lambda m: m["moves"] == shown["moves"])
        self.moves = shown["moves"]
        return shown

    async def drop_when_back(self, column: str) -> None:
        """Drop once the database is back, as a player would: try again until it is kept."""
        deadline = asyncio.get_running_loop().time() + PATIENCE
        played = len(self.moves) + 1
        while len((await self.drop(column))["moves"]) < played:
            assert asyncio.get_running_loop().time() < deadline, "never kept again"
            await asyncio.sleep(0.5)


async def a_game(first_at, second_at, names: tuple[str, str], clock: str | None) -> Game:
    first, second = await login(first_at, names[0]), await login(second_at, names[1])
    await first.send("create", **({} if clock is None else {"clock": clock}))
    made = await room_where(first, lambda m: m["seat"] == 0)
    await second.send("join", code=made["code"])
    await room_where(second, lambda m: m["seat"] == 1)
    game = Game(first, second)
    game.number = made["room"]
    return game


async def refused_meanwhile(games: list[Game]) -> None:
    """Every game's next move is refused, the player told why, the clock stopped."""
    for game in games:
        shown = await game.drop("1")
        assert shown["moves"] == game.moves and shown["trouble"], shown
        assert shown["clock"] is None or shown["clock"]["running"] is None, shown


def kept_moves(service) -> dict[int, list[tuple[int, int]]]:
    """Each kept room's moves as the database holds them: (ply, column) rows."""
    rows = service.host.store.rows(
        "SELECT r.number, m.ply, m.col FROM rooms r JOIN moves m ON m.game = r.game"
        " ORDER BY r.number, m.ply"
    )
    found: dict[int, list[tuple[int, int]]] = {}
    for number, ply, col in rows:
        found.setdefault(int(number), []).append((int(ply), int(col)))
    return found


async def test_two_servers_carry_on_by_themselves_after_their_database_stops_and_freezes(
    own_postgres, tmp_path
):
    limits = RoomLimits(ai_workers=1, ai_seconds=0.3, store_timeout=1.0)
    async with two_servers(tmp_path, own_postgres.url, limits=limits) as (first, second):
        games = [
            await a_game(first, first, ("ann", "bob"), None),
            await a_game(second, second, ("cy", "dee"), "1+0"),  # 55 s away: past its time
            await a_game(first, second, ("eve", "fay"), None),  # through the other server
        ]
        for game in games:
            for column in OPENING:
                await game.drop(column)
        own_postgres.halt()
        await refused_meanwhile(games)
        await asyncio.sleep(DOWN_SECONDS)
        own_postgres.start_again()
        for game in games:
            for column in LATER[:2]:
                await game.drop_when_back(column)
        own_postgres.freeze()
        try:
            await refused_meanwhile(games)
            await asyncio.sleep(FROZEN_SECONDS)
        finally:
            own_postgres.thaw()
        for game in games:
            for column in LATER[2:]:
                await game.drop_when_back(column)
        kept = kept_moves(first)
        for game in games:
            shown = [(ply, int(column) - 1) for ply, column in enumerate(game.moves)]
            assert game.moves == OPENING + LATER
            assert kept[game.number] == shown  # each move kept, once, in its place
        assert games[1].last["ended"] is None  # no flag fell while the database was away
