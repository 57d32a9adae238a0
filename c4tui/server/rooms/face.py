"""The host as its parts see it: what the lobby, the AI seats, the look at clocks and
seats, the showing of a room and the leases ask of the room host.

host.py's RoomHost composes those parts and hands each itself; the parts know it by this
face alone, so none of them imports host.py (the host imports them). The type checker
holds RoomHost to it wherever the host hands a part `self`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Protocol, TypeVar

from c4tui.server.cluster.bus import Bus
from c4tui.server.rooms.audience import Audience, Client
from c4tui.server.rooms.hooks import Elsewhere, HostListener
from c4tui.server.rooms.keeping import RoomKeeper
from c4tui.server.rooms.looks import Looks
from c4tui.server.rooms.room import Room
from c4tui.server.rooms.watching import Watching
from c4tui.server.store.room_records import RoomRecord
from c4tui.server.store.store import Store
from c4tui.server.wire.identity import RoomLimits

T = TypeVar("T")


class Searches(Protocol):
    """The AI seats' searches (ai_seat.py's AiSeat)."""

    def search(self, room: Room) -> None: ...

    def cancel(self, number: int) -> None: ...


class LobbyNews(Protocol):
    """What the parts tell the lobby, or ask of it (lobby.py's LobbyBoard)."""

    def changed(self, here: bool = True) -> None: ...

    def room_changed(self, room: Room | int) -> None: ...

    def bell(self, key: str) -> bool: ...


class Host(Protocol):
    """The room host, as its parts see it (see the module docstring)."""

    rooms: dict[int, Room]
    kept: dict[int, RoomRecord]
    clients: Audience
    listeners: list[HostListener]
    limits: RoomLimits
    server: str
    bus: Bus
    elsewhere: Elsewhere
    watching: Watching
    looks: Looks  # when each room is next looked at (looks.py)
    closing: bool
    now: Callable[[], float]  # the clocks' and holds' time
    wall: Callable[[], float]  # Unix seconds, for the leases
    in_tournament: Callable[[int], bool]

    @property
    def store(self) -> Store: ...

    @property
    def keeper(self) -> RoomKeeper: ...

    @property
    def ai(self) -> Searches: ...

    @property
    def lobby(self) -> LobbyNews: ...

    def members(self, room: Room) -> list[Client]: ...

    def show(self, room: Room) -> None: ...

    def tell(self, room: Room, text: str) -> None: ...

    def changed(self, room: Room) -> asyncio.Future[bool]: ...

    def keep(self, room: Room, *, show: bool = True) -> asyncio.Future[bool]: ...

    def writing(self, number: int) -> bool: ...

    def off_loop(self, job: Callable[[Store], T]) -> asyncio.Future[T]: ...

    @property
    def store_away(self) -> str | None: ...

    def enter(self, client: Client, room: Room, seat: int | None) -> None: ...

    def vacate(self, room: Room, seat: int) -> None: ...

    def unmake(self, room: Room, reason: str) -> None: ...

    def hold_seat(self, room: Room, seat: int, now: float) -> float | None: ...
