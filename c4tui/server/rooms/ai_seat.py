"""The AI seats' searches: a room whose AI is to move gets one search in the pool.

The host asks `search(room)` after every change it kept; the search runs in a worker
process (ai_pool.py) on the position as it was, and its move comes back through the
host's `changed`, like a person's. A search whose room moved on meanwhile (a take-back,
a new game, a room closed or let go) is cancelled, and a late answer is dropped by the
room's search id (`Room.ai_move`). A bot's seat searches in the bot's own process: the
room only shows it thinking.
"""

from __future__ import annotations

import secrets

from c4tui.engine.players.contract import SearchInfo
from c4tui.server.rooms.ai_pool import AiPool, PooledSearch
from c4tui.server.rooms.face import Host
from c4tui.server.rooms.room import Room
from c4tui.server.rooms.worker import SearchJob
from c4tui.server.wire.protocol import Progress


class AiSeat:
    """The searches of the AI seats of one host's rooms, one a room at most."""

    def __init__(self, host: Host, pool: AiPool) -> None:
        self.host = host
        self.pool = pool
        self.searches: dict[int, PooledSearch] = {}  # by room number

    def search(self, room: Room) -> None:
        """Start the search of the room's AI if it is to move and none runs."""
        if room.bot_to_move():  # it thinks in its own process; the room shows it thinking
            if not room.thinking:
                room.start_search()
            return
        spec = room.ai_to_move()
        if spec is None or room.paused or room.number in self.searches:
            return
        host = self.host
        search_id = room.start_search()
        pos, number, path = room.position, room.number, room.position.path
        seconds = host.limits.ai_seconds
        if room.clock is not None:  # on a clock, a twentieth of what is left at most
            seconds = min(seconds, max(0.05, room.clock.remaining(pos.to_move, host.now()) / 20))
        job = SearchJob(
            spec,
            pos.to_moves(),
            pos.width,
            pos.height,
            pos.connect,
            seconds,
            seed=secrets.randbelow(1 << 30),
        )
        self.searches[number] = self.pool.search(
            job,
            on_info=lambda info: self._progress(number, search_id, info),
            on_done=lambda move, info: self._moved(number, search_id, path, move, info),
            on_failed=lambda reason: self._failed(number, search_id, reason),
            player=next((s.key for s in room.seats if s.key is not None), ""),
        )

    def cancel(self, number: int) -> None:
        """Stop the search of room `number`, if one runs."""
        search = self.searches.pop(number, None)
        if search is not None:
            search.cancel()

    def cancel_all(self) -> None:
        for number in list(self.searches):
            self.cancel(number)

    def _progress(self, number: int, search_id: int, info: SearchInfo) -> None:
        room = self.host.rooms.get(number)
        if room is None or not room.progress(search_id, info):
            return
        progress = Progress(number, search_id, info)
        for client in self.host.members(room):
            client.send(progress)

    def _moved(
        self, number: int, search_id: int, path: tuple[int, ...], move: int, info: SearchInfo
    ) -> None:
        room = self.host.rooms.get(number)
        self.searches.pop(number, None)
        if room is not None and room.ai_move(search_id, path, move, info):
            self.host.changed(room)

    def _failed(self, number: int, search_id: int, reason: str) -> None:
        room = self.host.rooms.get(number)
        self.searches.pop(number, None)
        if room is None or search_id != room.search_id:
            return
        room.search_failed()
        self.host.tell(room, f"The AI failed: {reason}. Press m to let it try again.")
        self.host.show(room)
