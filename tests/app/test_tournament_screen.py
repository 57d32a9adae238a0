"""The tournaments screen of the served app: a snapshot of a Swiss in its second round,
seen by a spectator, and its keys: made from the screen, entered, a game watched."""

from __future__ import annotations

import random
import re
import time
from dataclasses import replace
from typing import Any

from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Static

from c4tui.app.screens.game import GameScreen
from c4tui.app.screens.tournament import TournamentScreen, state_words
from c4tui.community.tournament import MAX_ROUNDS
from c4tui.server.wire.tournament_messages import MakeTournament, TournamentListed
from tests.app.room_showcase import ShowcaseApp, play, until
from tests.app.showcase import SEED
from tests.app.test_served import footer_keys, served_app, service  # noqa: F401 (a fixture)
from tests.rooms.support import next_of, room_where

FIRST_WINS = "1212121"


def on_screen(app: ShowcaseApp) -> TournamentScreen | None:
    return app.screen if isinstance(app.screen, TournamentScreen) else None


async def second_round(pilot: Pilot[Any]) -> None:
    """eve follows ann's Swiss of four: round 1 played (● won both), round 2 two moves
    into one game."""
    app: ShowcaseApp = pilot.app  # type: ignore[assignment]
    await until(pilot, lambda: app.screen.__class__.__name__ == "LobbyScreen")
    players = {name: await app.other(name) for name in ("ann", "bob", "cat", "dan")}
    ann = players["ann"]
    await ann.send("make_tournament", name="Evening Swiss", control="3+2", rounds=3, minutes=60)
    number = (await next_of(ann, "tournament"))["tournament"]["number"]
    for name in ("bob", "cat", "dan"):
        await players[name].send("enter_tournament", tournament=number)
    await next_of(ann, "tournament", lambda m: m["tournament"]["players"] == 4)
    await ann.send("begin_tournament", tournament=number)
    played: set[int] = set()
    for moves in (FIRST_WINS, "44"):
        seats: dict[int, dict[int, Any]] = {}
        for client in players.values():
            room = await room_where(
                client, lambda m: m["seat"] is not None and m["room"] not in played
            )
            seats.setdefault(room["room"], {})[room["seat"]] = client
        games = sorted(seats.items())
        for _, seat in games if moves == FIRST_WINS else games[:1]:
            for ply, column in enumerate(moves):
                await play(seat[ply % 2], column, ply)
        played.update(seats)
    await pilot.press("t")
    await until(pilot, lambda: on_screen(app) is not None)
    await until(
        pilot,
        lambda: (
            (screen := on_screen(app)) is not None
            and screen.shown is not None
            and screen.shown.tournament.round == 2
            and any(b.moves == 2 for b in screen.shown.boards)
        ),
    )
    await pilot.pause()


def test_a_swiss_in_its_second_round_seen_by_a_spectator(snap_compare, tmp_path, monkeypatch):
    monkeypatch.setattr("c4tui.server.rooms.access.secrets.choice", random.Random(SEED).choice)
    app = ShowcaseApp(tmp_path / "state", "eve")
    assert snap_compare(app, terminal_size=(80, 24), run_before=second_round)


async def test_a_tournament_made_on_the_screen_is_entered_and_its_game_watched(tmp_path):
    app = ShowcaseApp(tmp_path / "state", "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.screen.__class__.__name__ == "LobbyScreen")
        await pilot.press("t")
        await until(pilot, lambda: on_screen(app) is not None)
        await pilot.press("n")
        assert isinstance(app.focused, Input)
        await pilot.press(*"Friday", "enter")
        await until(pilot, lambda: bool((s := on_screen(app)) and s.listed))
        screen = on_screen(app)
        assert screen is not None and screen.listed[0].name == "Friday"
        assert screen.listed[0].entered  # its maker is in it
        bob = await app.other("bob")
        await bob.send("enter_tournament", tournament=screen.listed[0].number)
        await until(
            pilot, lambda: screen.shown is not None and screen.shown.tournament.players == 2
        )
        await pilot.press("b")  # its maker begins it: ann is taken to her game
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        room = app.match.room
        assert room is not None and room.seat is not None
        await room_where(bob, lambda m: m["seat"] is not None)


def test_in_the_pause_between_rounds_the_state_counts_down_to_the_next():
    listed = TournamentListed(1, "Swiss", "ann", "3+2", 3, 0.0, "playing", 1, 4, True)
    assert state_words(listed, 100.0) == "round 1 of 3"
    paused = TournamentListed(1, "Swiss", "ann", "3+2", 3, 0.0, "playing", 1, 4, True, 112.0)
    assert state_words(paused, 100.2) == "round 2 starts in 12 s"


async def test_at_80_columns_the_longest_state_shows_whole_and_one_player_is_one(service):  # noqa: F811
    app = served_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.screen.__class__.__name__ == "LobbyScreen")
        await pilot.press("t")
        await until(pilot, lambda: on_screen(app) is not None)
        screen = on_screen(app)
        assert screen is not None
        app.match.ask(MakeTournament("Friday", "5+3", MAX_ROUNDS, 60))
        await until(pilot, lambda: bool(screen.listed))
        title = screen.query_one("#tournament-title", Static)
        await until(pilot, lambda: "Friday" in str(title.render()))
        assert "Friday · 5+3 · 1 player · starts" in str(title.render())  # not "1 players"
        # Its maker is in it (✓), in the longest pause (--round-pause) before its last round.
        paused = replace(
            screen.listed[0],
            phase="playing",
            round=MAX_ROUNDS - 1,
            next_round_at=time.time() + 3600,
        )
        screen.show_list((paused,))
        await pilot.pause()
        table = screen.query_one("#tournaments", DataTable)
        row = table.render_line(1).text  # under the header
        assert re.search(rf"✓ round {MAX_ROUNDS} starts in 3[56]\d\d s", row), row
        assert table.virtual_size.width <= table.scrollable_content_region.width
        assert {"Enter", "Withdraw", "Begin", "Watch"} <= footer_keys(app)
        screen.show_list((replace(paused, phase="finished", next_round_at=None),))
        await pilot.pause()
        assert not {"Enter", "Withdraw", "Begin", "Watch"} & footer_keys(app)  # nothing to do
