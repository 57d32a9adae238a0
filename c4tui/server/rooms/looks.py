"""When each room is next to be looked at (seat_watch.py's look): a heap of times.

The look at clocks and held seats needs a room only when something in it falls due (a
flag, a held seat's end, a clock's keep) or when it changed; a server of hundreds of
rooms where nothing happens looks at none of them.
"""

from __future__ import annotations

import heapq
from math import inf


class Looks:
    """When each room is next to be looked at: the earliest time asked for each, in a
    heap. A room nobody asked for is not looked at, so a server of hundreds of rooms
    where nothing happens looks at none of them (it looked at every one each TICK)."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int]] = []
        self._when: dict[int, float] = {}

    def at(self, number: int, when: float = -inf) -> None:
        """Room `number` is to be looked at by `when` (by default: at the next look)."""
        if self._when.get(number, inf) <= when:
            return
        self._when[number] = when
        heapq.heappush(self._heap, (when, number))

    def due(self, now: float) -> list[int]:
        """The rooms due a look by `now`, each once (asked for again by `at`)."""
        heap, due = self._heap, []
        while heap and heap[0][0] <= now:
            when, number = heapq.heappop(heap)
            if self._when.get(number) == when:
                del self._when[number]
                due.append(number)
        return due
