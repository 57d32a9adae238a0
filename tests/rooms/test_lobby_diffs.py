"""The lobby is sent whole once, then as diffs keyed by room (rooms/lobby.py): a change
to one room is one row on the wire, however many rooms there are, and a move in a
correspondence game reaches its player's lobby as their "your move" list alone."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from c4tui.server.wire.lobby_messages import Lobby, LobbyDiff, PlayerListed, RoomListed
from c4tui.server.wire.room_client import RoomClient
from tests.rooms.support import PATIENCE, login, next_of, room_where


async def raw_lobby(client: RoomClient, where=lambda line: True) -> dict[str, Any]:
    """The next lobby line as it came on the wire (`receive` would apply a diff), whole
    or a diff, that matches `where`; other lines are skipped."""

    async def look() -> dict[str, Any]:
        while True:
            line = await client.reader.readline()
            if not line:
                raise ConnectionError("connection ended while waiting for a lobby line")
            message = json.loads(line)
            if message["kind"] in ("lobby", "lobby_diff") and where(message):
                return message

    return await asyncio.wait_for(look(), PATIENCE)


async def test_a_room_made_among_many_reaches_the_lobby_as_its_row_alone(service):
    cy = await login(service, "cy")
    makers = [await login(service, f"p{n}") for n in range(8)]
    for maker in makers:
        await maker.send("create", public=True)
        await room_where(maker, lambda m: m["seat"] == 0)
    await next_of(cy, "lobby", lambda m: len(m["rooms"]) == 8)  # each row has come
    one_more = await login(service, "dan")
    await one_more.send("create", public=True)
    made = await room_where(one_more, lambda m: m["seat"] == 0)
    diff = await raw_lobby(cy, lambda m: m.get("rooms"))
    # Before, every change sent the whole lobby again: 9 rooms for one that was made.
    assert diff["kind"] == "lobby_diff"
    assert [row["room"] for row in diff["rooms"]] == [made["room"]]
    assert diff["rooms"][0]["players"][0]["name"] == "dan"
    await one_more.send("leave")  # the room closes: it goes from the lobby by its number
    gone = await raw_lobby(cy, lambda m: m.get("gone"))
    assert gone["gone"] == [made["room"]] and not gone["rooms"]
    for client in (*makers, cy, one_more):
        await client.close()


async def test_a_move_by_post_reaches_the_players_lobby_as_their_your_move_list(service):
    ann, bob = await login(service, "ann"), await login(service, "bob")
    await ann.send("create", clock="3d")
    made = await room_where(ann, lambda m: m["seat"] == 0)
    await bob.send("join", code=made["code"])
    await room_where(ann, lambda m: m["seats"][1]["name"] == "bob")
    await ann.send("drop", column=3, ply=0)
    await room_where(ann, lambda m: m["moves"] == "4")
    await ann.send("leave")
    await raw_lobby(ann, lambda m: m["kind"] == "lobby")
    await bob.send("drop", column=3, ply=1)
    turn = await raw_lobby(ann, lambda m: m.get("your_move"))
    # Only ann's own part changed: the rows and the people are not sent again.
    assert turn == {"kind": "lobby_diff", "rooms": [], "gone": [], "online": None,
                    "bots": None, "your_move": [made["room"]], "bell": None}  # fmt: skip
    for client in (ann, bob):
        await client.close()


def test_a_diff_applied_replaces_rows_by_room_and_keeps_what_it_does_not_say():
    ann = PlayerListed("ann", None)
    one = RoomListed(1, None, (ann, None), False, True, 0)
    two = RoomListed(2, None, (None, None), False, True, 0)
    lobby = Lobby(("ann",), (one, two), your_move=(1,))
    watched = RoomListed(1, None, (ann, None), False, True, 3)
    three = RoomListed(3, "ABC-DEF", (ann, None), False, True, 0)
    after = lobby.applied(LobbyDiff((three, watched), gone=(2, 9), online=("ann", "bob")))
    assert after == Lobby(("ann", "bob"), (watched, three), (), (1,), True)
    assert after.applied(LobbyDiff((three,), gone=(2,))) == after  # applied twice: the same
