"""Fixed states of the served app for snapshot tests: the lobby, a room seen by a player
and by a spectator.

A room service runs in the app's own event loop (started when the app connects, closed
when it stops), the other players are plain protocol clients driven by the state's
steps, and the app runs in its steady mode. The room and seat codes are random by
design; the snapshot test seeds their generator.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from c4tui.app.screens.game import GameScreen
from c4tui.app.served import ServedApp
from c4tui.match.remote import RemoteMatch
from c4tui.server.service.service import RoomLimits, RoomService
from c4tui.server.wire.room_client import RoomClient
from tests.rooms.support import PATIENCE, login, room_where


class ShowcaseApp(ServedApp):
    """The served app with a room service of its own, as `name`."""

    def __init__(self, state_dir: Path, name: str) -> None:
        self.service = RoomService(
            state_dir, RoomLimits(ai_workers=1, ai_seconds=1, round_pause=0.0)
        )
        self.others: dict[str, RoomClient] = {}

        async def connect() -> RemoteMatch:
            await self.service.start()
            return RemoteMatch(await login(self.service, name))

        super().__init__(steady=True, connect_with=connect)

    async def other(self, name: str) -> RoomClient:
        """Another person in the same service (a protocol client)."""
        self.others[name] = client = await login(self.service, name)
        return client

    async def on_unmount(self) -> None:
        super().on_unmount()
        for client in self.others.values():
            await client.close()
        await self.service.close()


async def until(pilot: Pilot[Any], condition) -> None:
    async def wait() -> None:
        while not condition():
            await pilot.pause(0.02)

    await asyncio.wait_for(wait(), PATIENCE)


async def play(client: RoomClient, moves: str, first_ply: int) -> None:
    for ply, column in enumerate(moves, start=first_ply):
        await client.send("drop", column=int(column) - 1, ply=ply)
        await room_where(client, lambda m, ply=ply: len(m["moves"]) > ply)


def shown(app: ShowcaseApp, moves: str) -> bool:
    room = app.match.room
    return (
        isinstance(app.screen, GameScreen)
        and room is not None
        and room.position.to_moves() == moves
    )


async def player(pilot: Pilot[Any]) -> None:
    """ann made a room, bob joined; three moves in, bob says something."""
    app: ShowcaseApp = pilot.app  # type: ignore[assignment]
    await until(pilot, lambda: app.screen.__class__.__name__ == "LobbyScreen")
    await pilot.press("r")
    await until(pilot, lambda: shown(app, ""))
    bob = await app.other("bob")
    await bob.send("join", code=app.match.room.code)
    await until(pilot, lambda: app.match.room.seats[1].name == "bob")
    await pilot.press("4")
    await room_where(bob, lambda m: m["moves"] == "4")
    await play(bob, "4", 1)
    await until(pilot, lambda: shown(app, "44"))
    await pilot.press("5")
    await room_where(bob, lambda m: m["moves"] == "445")
    await bob.send("say", text="nice opening")
    await until(pilot, lambda: bool(app.room_panel.chat))
    await pilot.pause()


async def spectator(pilot: Pilot[Any]) -> None:
    """cat watches ann and bob five moves in."""
    app: ShowcaseApp = pilot.app  # type: ignore[assignment]
    await until(pilot, lambda: app.screen.__class__.__name__ == "LobbyScreen")
    ann, bob = await app.other("ann"), await app.other("bob")
    await ann.send("create")
    made = await room_where(ann, lambda m: m["seat"] == 0)
    await bob.send("join", code=made["code"])
    await room_where(bob, lambda m: m["seat"] == 1)
    for ply, column in enumerate("44536"):
        await play(bob if ply % 2 else ann, column, ply)
    await until(pilot, lambda: bool(app.lobby_screen.rooms))
    await pilot.press("w")
    await until(pilot, lambda: shown(app, "44536"))
    await ann.send("say", text="hello cat")
    await until(pilot, lambda: bool(app.room_panel.chat))
    await pilot.pause()


async def lobby(pilot: Pilot[Any]) -> None:
    """dan in the lobby: a game under way between ann and bob, and cy's room waiting."""
    app: ShowcaseApp = pilot.app  # type: ignore[assignment]
    await until(pilot, lambda: app.screen.__class__.__name__ == "LobbyScreen")
    ann, bob, cy = await app.other("ann"), await app.other("bob"), await app.other("cy")
    await ann.send("create", public=True)
    made = await room_where(ann, lambda m: m["seat"] == 0)
    await bob.send("join", code=made["code"])
    await room_where(bob, lambda m: m["seat"] == 1)
    for ply, column in enumerate("4453"):
        await play(bob if ply % 2 else ann, column, ply)
    await cy.send("create", public=True)
    await room_where(cy, lambda m: m["seat"] == 0)
    await until(pilot, lambda: len(app.lobby_screen.rooms) == 2)
    await until(pilot, lambda: "cy" in str(app.lobby_screen.query_one("#online").render()))
    await pilot.pause()


@dataclass(frozen=True)
class RoomState:
    name: str
    description: str
    who: str
    size: tuple[int, int]
    steps: Any

    def app(self, state_dir: Path) -> ShowcaseApp:
        return ShowcaseApp(state_dir, self.who)


ROOM_STATES = {
    state.name: state
    for state in (
        RoomState("lobby", "the lobby: a game under way, a room waiting", "dan", (100, 30), lobby),
        RoomState("room", "a room for two, seen by its first player", "ann", (80, 24), player),
        RoomState(
            "spectator", "a room watched, with a line of its chat", "cat", (120, 40), spectator
        ),
    )
}
