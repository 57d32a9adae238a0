"""RemoteMatch: the match interface over a room of the room service (running in the test)."""

from __future__ import annotations

import asyncio

import pytest

from c4tui.match.interface import (
    GameOver,
    PositionChanged,
    SearchDone,
    SearchProgress,
    SearchStarted,
)
from c4tui.match.opponents import Judge
from c4tui.match.remote import RemoteMatch
from c4tui.match.room_events import GamesListed, LobbyChanged, RoomChanged
from c4tui.match.search_requests import Notice
from c4tui.server.service.service import RoomLimits, RoomService
from tests.rooms.support import PATIENCE, login, room_where


@pytest.fixture
async def service(tmp_path):
    service = RoomService(tmp_path / "state", RoomLimits(ai_workers=1, ai_seconds=0.3))
    await service.start()
    yield service
    await service.close()


class Heard:
    """Every event a match told, and a way to wait for the next of a kind."""

    def __init__(self, match: RemoteMatch) -> None:
        self.events: list[object] = []  # not yet looked at
        self.every: list[object] = []
        self.changed = asyncio.Event()
        match.listen(self.hear)

    def hear(self, event: object) -> None:
        self.events.append(event)
        self.every.append(event)
        self.changed.set()

    async def first(self, kind: type, where=lambda event: True):
        async def look():
            while True:
                for event in self.events:
                    if isinstance(event, kind) and where(event):
                        self.events = self.events[self.events.index(event) + 1 :]
                        return event
                self.changed.clear()
                await self.changed.wait()

        return await asyncio.wait_for(look(), PATIENCE)


async def test_a_game_against_the_ai_as_the_interface_events(service):
    match = RemoteMatch(await login(service, "ann"))
    heard = Heard(match)
    running = asyncio.create_task(match.run())
    await heard.first(LobbyChanged)
    match.create("mcts:time=0.3", second=True)
    started = await heard.first(SearchStarted)
    assert started.spec == "mcts:time=0.3" and started.limits.time == 0.3
    assert match.thinking and match.sides.first == "mcts:time=0.3" and match.sides.second is None
    assert (await heard.first(SearchProgress)).search_id == started.search_id
    done = await heard.first(SearchDone)
    assert done.search_id == started.search_id and done.move == match.position.path[0]
    assert (await heard.first(PositionChanged)).position.moves == 1
    values, whose = match.evaluation_line()
    assert len(values) == 1 and -1 <= values[0] <= 1 and whose == Judge("MCTS")
    match.redo()
    assert "not for rooms" in (await heard.first(Notice)).text
    match.drop(3)
    await heard.first(PositionChanged, lambda e: e.position.moves >= 2)
    await heard.first(SearchStarted)  # the AI's reply
    match.resign()
    over = await heard.first(GameOver)
    assert (over.winner, over.how) == (0, "resigned")
    assert match.game.moves == match.position.path
    match.stop()
    await match.client.close()
    await running


async def test_a_held_down_key_sends_its_intent_once(service):
    match = RemoteMatch(await login(service, "ann"))
    heard = Heard(match)
    running = asyncio.create_task(match.run())
    await heard.first(LobbyChanged)
    for _ in range(200):  # seven seconds of auto-repeat, at once: over the flood limit
        match.offer_draw()
    match.games()
    await heard.first(GamesListed)  # still connected: the 200 went out as one
    refusals = [e.text for e in heard.every if isinstance(e, Notice)]
    assert refusals == ["You are not in a room."]
    match.stop()
    await match.client.close()
    await running


async def test_a_spectator_who_comes_later_reads_the_ais_figures_as_its_own(service):
    """The room brings its AI's last search to one who comes to watch after it: those
    figures are the AI's, of the position before its move, not of the position now
    (the panel said 'figures from ○'s view' of ●'s search)."""
    ann = RemoteMatch(await login(service, "ann"))
    heard = Heard(ann)
    running = [asyncio.create_task(ann.run())]
    await heard.first(LobbyChanged)
    ann.create("level:3", second=True)  # the AI plays ● and moves first
    await heard.first(PositionChanged, lambda e: e.position.moves == 1)
    bob = RemoteMatch(await login(service, "bob"))
    seen = Heard(bob)
    running.append(asyncio.create_task(bob.run()))
    await seen.first(LobbyChanged)
    bob.watch(ann.room.number)
    await seen.first(PositionChanged, lambda e: e.position.moves == 1)
    search = bob.view().search
    assert search is not None and search.info is not None
    assert search.position.to_move == 0 and search.position.moves == 0
    for match in (ann, bob):
        match.stop()
        await match.client.close()
    await asyncio.gather(*running)


@pytest.mark.slow  # over 0.3 s of CPU (a served app or two players)
async def test_a_move_plays_on_the_game_shown_and_a_take_back_makes_it_again(service):
    """The usual move extends this client's game (not made again from every move)."""
    match = RemoteMatch(await login(service, "ann"))
    heard = Heard(match)
    running = asyncio.create_task(match.run())
    await heard.first(LobbyChanged)
    match.create()
    await heard.first(RoomChanged)
    bob = await login(service, "bob")
    await bob.send("join", code=match.room.code)
    await heard.first(RoomChanged, lambda e: not e.room.alone())
    game = match.game
    match.drop(3)
    await heard.first(PositionChanged, lambda e: e.position.path == (3,))
    await bob.send("drop", column=2, ply=1)
    await heard.first(PositionChanged, lambda e: e.position.path == (3, 2))
    assert match.game is game and game.moves == (3, 2)
    match.take_back()  # asked of bob, who agrees
    await room_where(bob, lambda m: m["offers"] == {"take_back": 0})
    await bob.send("answer", offer="take_back", accept=True)
    back = await heard.first(PositionChanged, lambda e: len(e.position.path) < 2)
    assert match.game is not game and match.game.moves == back.position.path
    match.stop()
    await match.client.close()
    await running
    await bob.close()
