"""The lobby counts each room's watchers as they come and go (RoomHost.lobby)."""

from __future__ import annotations

from tests.rooms.support import login, next_of, room_where


async def test_a_watcher_who_leaves_is_no_longer_counted_in_the_lobby(service):
    ann, bob, cy = [await login(service, name) for name in ("ann", "bob", "cy")]
    await ann.send("create")
    number = (await room_where(ann, lambda m: m["seat"] == 0))["room"]
    await bob.send("watch", room=number)
    await room_where(bob, lambda m: m["room"] == number)
    await next_of(cy, "lobby", lambda m: m["rooms"] and m["rooms"][0]["watchers"] == 1)
    await bob.send("leave")  # before, the lobby said 1 until something else changed
    await next_of(cy, "lobby", lambda m: m["rooms"] and m["rooms"][0]["watchers"] == 0)
    for client in (ann, bob, cy):
        await client.close()
