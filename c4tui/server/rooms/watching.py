"""Watching: the spectators of this server's rooms, kept so they follow a room on.

A player's seat is kept with the room, so a player who connects again, to this server
or (several servers on one database) to another after this one died, is back in the
game. A spectator is kept here the same way (server/store/watcher_records.py): a row while
they watch, gone when they leave the room (or it closes), left behind when their
connection ends. Whoever connects again while the room is on is back to watching it,
through the server that holds it now; one who came while no server held it (its server
died, its lease not yet taken) is taken in when a server takes it over. A spectator is
a nicety: a store that cannot be written loses it with a log line, nothing more.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection

from c4tui.server.store.store import Store, StoreError
from c4tui.server.store.watcher_records import WatcherRecords

log = logging.getLogger("c4tui.server")


class Watching:
    """Who watches which room, over the store the host has open now (`store()`)."""

    def __init__(self, store: Callable[[], Store], clock: Callable[[], float]) -> None:
        self._store, self._clock = store, clock

    def _records(self) -> WatcherRecords:
        return WatcherRecords(self._store())

    def entered(self, key: str, room: int) -> None:
        try:
            self._records().watch(key, room, self._clock())
        except StoreError as error:
            log.warning("room %d: a spectator could not be kept: %s", room, error)

    def left(self, key: str, room: int) -> None:
        try:
            self._records().unwatch(key, room)
        except StoreError as error:
            log.warning("room %d: a spectator's leaving could not be kept: %s", room, error)

    def room_of(self, key: str) -> int | None:
        """The room `key` watched last and has not left."""
        try:
            return self._records().watched_by(key)
        except StoreError as error:
            log.warning("the room a spectator watched could not be looked up: %s", error)
            return None

    def of_rooms(self, rooms: Collection[int]) -> dict[str, int]:
        """Who watches these rooms: identity -> room."""
        try:
            return self._records().watching(rooms)
        except StoreError as error:
            log.warning("the spectators of rooms taken over could not be looked up: %s", error)
            return {}
