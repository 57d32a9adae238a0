"""The look at clocks and held seats sees only the rooms due it (rooms/looks.py): one
that changed, or whose flag, held seat or clock keep falls due; not every room each
second."""

from __future__ import annotations

from c4tui.server.rooms import seat_watch
from tests.rooms.support import login, next_of, room_where


async def a_room(service, host_name: str, guest_name: str, **settings):
    host, guest = await login(service, host_name), await login(service, guest_name)
    await host.send("create", **settings)
    made = await room_where(host, lambda m: m["seat"] == 0)
    await guest.send("join", code=made["code"])
    await room_where(host, lambda m: m["seats"][1]["name"] == guest_name)
    return host, guest, made["room"]


async def test_a_look_sees_the_rooms_that_changed_or_fall_due_and_no_other(clocked, monkeypatch):
    service, time = clocked
    quiet = [await a_room(service, f"a{n}", f"b{n}") for n in range(3)]
    ann, bob, timed = await a_room(service, "ann", "bob", clock="1+0")
    service.host.look()  # each room changed since it was made: each is seen once
    seen: list[int] = []
    real = seat_watch.look_at
    monkeypatch.setattr(
        seat_watch,
        "look_at",
        lambda host, room, now: (seen.append(room.number), real(host, room, now)),
    )
    service.host.look()
    assert seen == []  # before, every room at every look
    first, second, _ = quiet[0]
    await first.send("drop", column=3, ply=0)
    await room_where(second, lambda m: m["moves"] == "4")
    seen.clear()  # (a move looks at its room before it is made)
    service.host.look()
    assert seen == [quiet[0][2]]  # the room that changed
    time.moved(61)  # ann's minute is over
    service.host.look()
    assert seen == [quiet[0][2], timed]  # its flag fell due
    said = await next_of(bob, "notice", lambda m: "time ran out" in m["text"])
    assert said["text"] == "ann's time ran out: ann forfeits: no move made."
    for client in (*[c for room in quiet for c in room[:2]], ann, bob):
        await client.close()
