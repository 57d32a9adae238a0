"""A room whose lease another server took is let go: once, quietly, and nothing else of
the service starts again."""

from __future__ import annotations

from c4tui.server.rooms.hooks import HostListener
from tests.rooms.support import login, next_of, room_where


async def test_letting_a_room_go_starts_nothing_again(service):
    class Starts(HostListener):
        count = 0

        def started(self) -> None:
            Starts.count += 1

    host = service.host
    host.listeners.append(Starts())
    ticking = host._tick
    ann = await login(service, "ann")
    await ann.send("create")
    number = (await room_where(ann, lambda m: m["seat"] == 0))["room"]
    host.store.execute(  # another server took its lease (as after this one stalled)
        "UPDATE room_leases SET server = ?, expires = ? WHERE room = ?",
        ("elsewhere", host.wall() + 3600, number),
    )
    await host.leasing.see_to()
    assert "another server" in (await next_of(ann, "notice"))["text"]
    assert host.rooms == {}
    assert Starts.count == 0  # the listeners started with the service, not again
    assert host._tick is ticking  # one look at the seats a TICK, not one more per room
    await ann.close()
