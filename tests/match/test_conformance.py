"""One conformance suite for both implementations of the match interface: the in-process
`Match` and a room's `RemoteMatch` (a room service runs in the test's loop).

Each test plays a game between two people through a `Table`: the match under test is
the first person's; the second person moves through the match itself (in a game of
one's own, one person plays both sides) or as another client of the room.
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
from collections.abc import AsyncIterator, Callable

import pytest

from c4tui.match.controller import Match
from c4tui.match.interface import (
    GameOver,
    MatchInterface,
    MatchView,
    PositionChanged,
)
from c4tui.match.remote import RemoteMatch
from c4tui.match.room_events import RoomChanged
from c4tui.match.search_requests import Notice
from c4tui.match.sides import Sides
from c4tui.server.service.service import RoomLimits, RoomService
from c4tui.server.wire.room_client import RoomClient
from tests.match.playing import QueuedRunner
from tests.rooms.support import PATIENCE, login, room_where


class Table:
    """A match under test, every event it told, and the other person's moves."""

    def __init__(self, match: MatchInterface) -> None:
        self.match = match
        self.events: list[object] = []
        self.changed = asyncio.Event()
        match.listen(self._hear)

    def _hear(self, event: object) -> None:
        self.events.append(event)
        self.changed.set()

    async def until(self, condition: Callable[[], bool]) -> None:
        async def wait() -> None:
            while not condition():
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(wait(), PATIENCE)

    async def told(self, kind: type, where=lambda event: True):
        await self.until(lambda: any(isinstance(e, kind) and where(e) for e in self.events))
        return next(e for e in self.events if isinstance(e, kind) and where(e))

    async def other_drops(self, column: int) -> None:
        self.match.drop(column)

    async def moved(self, moves: int) -> None:
        await self.until(lambda: self.match.view().position.moves == moves)

    async def play(self, columns: tuple[int, ...]) -> None:
        """The first person's moves and the other's, in turn, each seen by the match."""
        for ply, column in enumerate(columns, start=self.match.view().position.moves):
            if ply % 2:
                await self.other_drops(column)
            else:
                self.match.drop(column)
            await self.moved(ply + 1)


class RoomTable(Table):
    def __init__(self, match: RemoteMatch, other: RoomClient) -> None:
        super().__init__(match)
        self.other = other

    async def other_drops(self, column: int) -> None:
        ply = self.match.view().position.moves
        await self.other.send("drop", column=column, ply=ply)


@pytest.fixture(params=["Match", "RemoteMatch"])
async def table(request, tmp_path) -> AsyncIterator[Table]:
    if request.param == "Match":
        yield Table(Match(Sides(None, None), seed=1, runner=QueuedRunner()))
        return
    service = RoomService(tmp_path / "state", RoomLimits(ai_workers=1, ai_seconds=0.3))
    await service.start()
    match = RemoteMatch(await login(service, "ann"))
    running = asyncio.create_task(match.run())
    table = RoomTable(match, await login(service, "bob"))
    match.create()
    await table.told(RoomChanged)
    await table.other.send("join", code=match.room.code)
    await room_where(table.other, lambda m: m["seat"] == 1)
    await table.until(lambda: not match.room.seats[1].open)
    table.events.clear()
    yield table
    match.stop()
    await table.other.close()
    await match.client.close()
    await running
    await service.close()


def test_both_have_every_member_of_the_interface():
    wanted = {name for name, _ in inspect.getmembers(MatchInterface) if not name.startswith("_")}
    assert wanted <= set(dir(Match(Sides(None, None)))) and wanted <= set(dir(RemoteMatch))


async def test_a_drop_changes_the_position_and_the_view(table):
    before = table.match.view()
    assert isinstance(before, MatchView) and before.position.moves == 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        before.thinking = True  # type: ignore[misc]
    assert before.position.to_move in before.movers and not before.over
    table.match.drop(3)
    changed = await table.told(PositionChanged)
    assert changed.position.to_moves() == "4" == table.match.view().position.to_moves()
    assert table.match.position == table.match.view().position


async def test_a_refused_drop_is_a_notice_never_an_error(table):
    await table.play((3,) * 6)  # column 4 full
    table.events.clear()
    table.match.drop(3)
    notice = await table.told(Notice)
    assert "full" in notice.text
    assert table.match.view().position.moves == 6


async def test_resigning_ends_the_game_for_the_other_side(table):
    await table.play((3, 4))
    table.match.resign()
    over = await table.told(GameOver)
    assert (over.winner, over.how) == (1, "resigned")
    await table.until(lambda: table.match.view().over)
    view = table.match.view()
    assert view.over and view.winner == 1 and view.how == "resigned"


async def test_a_finished_game_is_an_analysis_board(table):
    await table.play((3, 4, 3, 4, 3, 4, 3))  # ● four in column 4
    await table.told(GameOver)
    assert "jump" not in table.match.view().refused
    table.events.clear()
    table.match.jump((3, 4, 3))
    await table.told(PositionChanged)
    assert table.match.view().position.to_moves() == "454"
    table.match.drop(0)  # a variation from there, on this side's copy
    await table.until(lambda: table.match.view().position.to_moves() == "4541")


async def test_what_the_view_refuses_is_refused(table):
    refused = table.match.view().refused
    if "redo" in refused:
        table.match.redo()
        assert isinstance(await table.told(Notice), Notice)
    assert "drop" not in refused  # the first person's turn
