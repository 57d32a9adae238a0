"""A spectator whose connection ends is back to watching when they connect again while
the room is on, as a player is back in their seat (server/rooms/watching.py); one who left the
room, or whose room closed, comes back to the lobby."""

from __future__ import annotations

from c4tui.server.store.watcher_records import WatcherRecords
from tests.rooms.support import login, next_of, room_where


async def test_a_spectator_who_hung_up_watches_again_and_one_who_left_does_not(service):
    ann, bob = await login(service, "ann"), await login(service, "bob")
    await ann.send("create")
    number = (await room_where(ann, lambda m: m["seat"] == 0))["room"]
    await bob.send("watch", room=number)
    await room_where(bob, lambda m: m["room"] == number and m["seat"] is None)
    await bob.close()  # the connection ends (a dropped line, a server that died)
    bob = await login(service, "bob")
    back = await room_where(bob, lambda m: m["room"] == number)
    assert back["seat"] is None
    await bob.send("leave")
    await next_of(bob, "lobby")
    await bob.close()
    bob = await login(service, "bob")
    await next_of(bob, "lobby")
    assert WatcherRecords(service.host.store).watched_by("ssh-name:bob") is None
    for client in (ann, bob):
        await client.close()


async def test_a_closed_room_has_no_spectators_kept(service):
    ann, bob = await login(service, "ann"), await login(service, "bob")
    await ann.send("create")
    number = (await room_where(ann, lambda m: m["seat"] == 0))["room"]
    await bob.send("watch", room=number)
    await room_where(bob, lambda m: m["room"] == number)
    await bob.close()
    assert WatcherRecords(service.host.store).watched_by("ssh-name:bob") == number
    await ann.send("leave")  # nobody plays in it: it closes
    await next_of(ann, "lobby")
    await service.host.line.written()  # the room goes from the store off the loop
    assert WatcherRecords(service.host.store).watched_by("ssh-name:bob") is None
    await ann.close()
