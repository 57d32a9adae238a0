"""The servers' bus: LISTEN/NOTIFY between servers of one community on PostgreSQL, and
nothing at all on SQLite (one server alone)."""

from __future__ import annotations

import asyncio

from c4tui.server.cluster.bus import LocalBus
from c4tui.server.cluster.bus_postgres import NOTIFY_MOST, PostgresBus, channel

PATIENCE = 30.0


class Heard:
    """What one bus's handlers were given, as (kind, body, sender), waited on in order."""

    def __init__(self, bus, *kinds: str) -> None:
        self.queue: asyncio.Queue = asyncio.Queue()
        for kind in kinds:
            bus.on(
                kind, lambda body, sender, kind=kind: self.queue.put_nowait((kind, body, sender))
            )

    async def next(self):
        return await asyncio.wait_for(self.queue.get(), PATIENCE)


async def started(url: str, *names: str) -> list[PostgresBus]:
    buses = [PostgresBus(url, name) for name in names]
    for bus in buses:
        await bus.start()
    return buses


async def test_a_broadcast_reaches_every_other_server_in_order_and_a_send_only_one(postgres_url):
    first, second, third = await started(postgres_url, "first", "second", "third")
    try:
        heard = {
            bus.server: Heard(bus, "game.moved", "relay.message") for bus in (first, second, third)
        }
        for ply in range(3):
            first.broadcast("game.moved", {"ply": ply})
        first.send("third", "relay.message", {"to": "third only"})
        for name in ("second", "third"):
            got = [await heard[name].next() for _ in range(3)]
            assert got == [("game.moved", {"ply": n}, "first") for n in range(3)]
        assert await heard["third"].next() == ("relay.message", {"to": "third only"}, "first")
        # The sender hears neither its own broadcast nor another's letter: a mark it sends
        # itself after them (it hears its own channel) is the first thing it hears.
        first.send("first", "relay.message", {"mark": 1})
        assert await heard["first"].next() == ("relay.message", {"mark": 1}, "first")
        second.send("second", "relay.message", {"mark": 2})
        assert await heard["second"].next() == ("relay.message", {"mark": 2}, "second")
    finally:
        for bus in (first, second, third):
            await bus.close()


async def test_a_message_too_long_for_a_notify_goes_through_a_letter_in_its_place(postgres_url):
    first, second = await started(postgres_url, "first", "second")
    try:
        heard = Heard(second, "room.shown")
        chat = "a long chat " * (NOTIFY_MOST // 6)  # two NOTIFY payloads' worth
        first.broadcast("room.shown", {"n": 1})
        first.broadcast("room.shown", {"n": 2, "chat": chat})
        first.broadcast("room.shown", {"n": 3})
        got = [await heard.next() for _ in range(3)]
        assert [body["n"] for _, body, _ in got] == [1, 2, 3]
        assert got[1][1]["chat"] == chat
    finally:
        for bus in (first, second):
            await bus.close()


async def test_two_communities_on_one_postgresql_never_hear_each_other(postgres, postgres_url):
    other_url = postgres.fresh_url()  # another schema: another community
    (ours,) = await started(postgres_url, "ours")
    (theirs,) = await started(other_url, "theirs")
    (ours_too,) = await started(postgres_url, "ours too")
    try:
        heard_theirs, heard_ours = Heard(theirs, "game.moved"), Heard(ours_too, "game.moved")
        ours.broadcast("game.moved", {"from": "ours"})
        assert await heard_ours.next() == ("game.moved", {"from": "ours"}, "ours")
        theirs.send("theirs", "game.moved", {"mark": True})  # after ours, on its own channel
        assert await heard_theirs.next() == ("game.moved", {"mark": True}, "theirs")
    finally:
        for bus in (ours, theirs, ours_too):
            await bus.close()


async def test_alone_on_sqlite_the_bus_delivers_nothing():
    bus = LocalBus("alone")
    heard = Heard(bus, "game.moved")
    await bus.start()
    bus.broadcast("game.moved", {"ply": 1})
    await bus.close()
    assert heard.queue.empty()


async def test_a_bus_whose_connections_were_cut_connects_again(postgres_url):
    import psycopg

    first, second = await started(postgres_url, "first", "second")
    try:
        heard = Heard(second, "game.moved")
        first.broadcast("game.moved", {"n": 0})
        assert (await heard.next())[1] == {"n": 0}
        cut = [second._ears.info.backend_pid, first._talk.info.backend_pid]
        async with await psycopg.AsyncConnection.connect(postgres_url, autocommit=True) as admin:
            for pid in cut:  # as a database restart or a network cut would
                await admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        # Lost while cut: what is sent then may go; once connected again, it all comes.
        for n in range(1, 1000):
            first.broadcast("game.moved", {"n": n})
            try:
                _, body, _ = await asyncio.wait_for(heard.queue.get(), 0.2)
                break
            except TimeoutError:
                continue
        first.broadcast("game.moved", {"n": "after"})
        while body != {"n": "after"}:
            _, body, _ = await heard.next()
    finally:
        for bus in (first, second):
            await bus.close()


async def test_messages_waiting_for_one_server_go_together_in_order(postgres_url):
    import psycopg

    first, second = await started(postgres_url, "first", "second")
    async with await psycopg.AsyncConnection.connect(postgres_url, autocommit=True) as spy:
        await spy.execute(f'LISTEN "{first.everyone}"')
        try:
            heard = Heard(second, "room.shown")
            for n in range(50):  # a change shown to many relayed players at once
                first.broadcast("room.shown", {"n": n, "view": "x" * 300})
            got = [await heard.next() for _ in range(50)]
            assert [body["n"] for _, body, _ in got] == list(range(50))
            notified = 0
            async for _ in spy.notifies(timeout=0.5):
                notified += 1
            assert notified <= 5  # 17 KB in notifications of up to 7.9 KB, not one each
        finally:
            for bus in (first, second):
                await bus.close()


async def test_a_bus_that_cannot_connect_says_so_in_one_line():
    from c4tui.server.store.store import StoreError
    from tests.community.postgres import free_port

    bus = PostgresBus(f"postgresql://c4tui:secret@127.0.0.1:{free_port()}/postgres", "lone")
    try:
        await bus.start()
    except StoreError as error:
        said = str(error)
    else:
        raise AssertionError("a bus with no database started")
    assert "\n" not in said and "secret" not in said and "the servers' bus" in said


async def test_a_protocol_line_goes_as_it_is_not_inside_the_messages_json(postgres_url):
    # A relayed view: its bytes on the wire as protocol.encode made them (no escaped
    # quotes), and the same bytes to the handler; long ones through a letter likewise.
    import psycopg

    first, second = await started(postgres_url, "first", "second")
    line = '{"kind":"room","room":7,"chat":"«ann» said \\"hi\\""}\n'.encode()
    long_line = b'{"kind":"room","room":8,"pad":"' + b"y" * 9000 + b'"}\n'
    async with await psycopg.AsyncConnection.connect(postgres_url, autocommit=True) as spy:
        await spy.execute(f'LISTEN "{channel(second.prefix, "second")}"')
        try:
            heard = Heard(second, "relay.message")
            first.send("second", "relay.message", {"id": 3}, line)
            assert await heard.next() == ("relay.message", {"id": 3, "line": line}, "first")
            async for notify in spy.notifies(timeout=PATIENCE, stop_after=1):
                assert line[:-1].decode() in notify.payload.split("\n")
            first.send("second", "relay.message", {"id": 4}, long_line)
            assert await heard.next() == ("relay.message", {"id": 4, "line": long_line}, "first")
        finally:
            for bus in (first, second):
                await bus.close()
