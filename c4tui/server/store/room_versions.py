"""room_versions: what a lobby shows of each kept room, read cheaply, to tell which changed.

A server lists the rooms the other servers play (server/rooms/other_servers.py) from the store.
Loading a room whole reads its game's moves, which costs a round trip or two a room;
with every move on any server changing some room, a lobby of many rooms would load them
all again and again. So it loads again only the rooms whose version changed: the game it
plays, how many moves are made (a take-back and another move list as before), the result
and how the game ended, and who sits where.
"""

from __future__ import annotations

from typing import Any

from c4tui.server.store.store import Store


def room_versions(store: Store) -> dict[int, tuple[Any, ...]]:
    """Every kept room's version: equal versions list the same in a lobby."""
    seats: dict[int, list[Any]] = {}
    for room, key, name, ai in store.rows(
        "SELECT room, key, name, ai FROM room_seats ORDER BY room, seat"
    ):
        seats.setdefault(int(room), []).append((key, name, ai))
    return {
        int(number): (game, plies, result, ended, tuple(seats.get(int(number), ())))
        for number, game, plies, result, ended in store.rows(
            "SELECT r.number, r.game, g.plies, g.result, g.ended FROM rooms r"
            " JOIN games g ON g.id = r.game"
        )
    }
