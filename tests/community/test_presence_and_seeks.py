"""Who is online and automatch's seeks across servers (presence.py, seek_records.py), on
both stores; two servers pairing at once on PostgreSQL pair each seek once."""

from __future__ import annotations

import threading

from c4tui.community.automatch import Seek, nobody_blocked
from c4tui.engine.board.gamefile import Ending, GameRecord
from c4tui.server.cluster.presence import PresenceRecords
from c4tui.server.store.clock_records import ClockRecords
from c4tui.server.store.room_records import RoomRecord, RoomRecords, SeatRecord
from c4tui.server.store.room_versions import room_versions
from c4tui.server.store.seek_records import PAIRING_LOCK, SeekRecords

A, B, C = "a:1", "b:2", "c:3"  # three servers
NOW = 2_000_000_000.0


def clock() -> float:
    return NOW


def test_presence_counts_only_the_other_live_servers_and_one_identity_once(store):
    a, b, c = (PresenceRecords(store, server) for server in (A, B, C))
    a.arrive("ssh-name:ann", "ann", NOW)
    b.arrive("ssh-name:bob", "bob", NOW)
    b.arrive("ssh-name:ann", "ann", NOW + 1)  # ann on two servers: one player
    c.arrive("ssh-name:cy", "cy", NOW)
    assert a.online({A, B, C}) == {
        "ssh-name:bob": "bob",
        "ssh-name:ann": "ann",
        "ssh-name:cy": "cy",
    }
    assert a.online({A, B}) == {"ssh-name:bob": "bob", "ssh-name:ann": "ann"}  # c died
    assert c.online({A, C}) == {"ssh-name:ann": "ann"}  # b died: its ann row does not count
    b.depart("ssh-name:ann")
    assert a.online({A, B}) == {"ssh-name:bob": "bob"}
    b.clear()  # b started again: nobody is connected to it yet
    assert a.online({A, B, C}) == {"ssh-name:cy": "cy"}
    assert c.online({A, B, C}) == {"ssh-name:ann": "ann"}


def seek(key: str, rating: float = 1500.0, control: str = "3+2", since: float = NOW) -> Seek:
    return Seek(key, key.removeprefix("ssh-name:"), rating, control, since)


def test_seeks_of_two_servers_meet_once_and_are_gone(store):
    a, b = SeekRecords(store, A), SeekRecords(store, B)
    a.keep(seek("ssh-name:ann"))
    b.keep(seek("ssh-name:bob", 1550.0))
    b.keep(seek("ssh-name:cy", control="1+0"))
    pairings, waiting = b.pair({A, B}, clock, nobody_blocked)
    assert [(p.first.key, p.second.key) for p in pairings] == [("ssh-name:ann", "ssh-name:bob")]
    assert list(waiting.seeks) == ["ssh-name:cy"]
    assert a.pair({A, B}, clock, nobody_blocked)[0] == []
    # Their last game was against each other: with someone else waiting, not again.
    a.keep(seek("ssh-name:ann"))
    b.keep(seek("ssh-name:bob"))
    a.keep(seek("ssh-name:dee"))
    queue = a.queue({A, B}, clock, nobody_blocked)
    assert queue.last_opponent == {"ssh-name:ann": "ssh-name:bob", "ssh-name:bob": "ssh-name:ann"}
    first = a.pair({A, B}, clock, nobody_blocked)[0][0]
    assert {first.first.key, first.second.key} != {"ssh-name:ann", "ssh-name:bob"}


def test_a_dead_server_s_seeks_wait_and_one_seek_a_player(store):
    a, b = SeekRecords(store, A), SeekRecords(store, B)
    a.keep(seek("ssh-name:ann"))
    b.keep(seek("ssh-name:bob"))
    assert a.pair({A}, clock, nobody_blocked)[0] == []  # b is not live: bob cannot play
    b.keep(seek("ssh-name:ann", control="1+0"))  # ann seeks again on b: one seek, b's
    a.cancel("ssh-name:ann")  # not a's to cancel any more
    assert a.queue({A, B}, clock, nobody_blocked).seeks["ssh-name:ann"].control == "1+0"
    b.clear()
    assert a.queue({A, B}, clock, nobody_blocked).seeks == {}


def test_two_servers_pairing_at_once_pair_each_seek_once(postgres_url, postgres):
    """While one server pairs (its transaction holds the lock) the other waits for it,
    then finds the seeks it paired gone."""
    from c4tui.server.store.postgres_store import PostgresStore

    with PostgresStore(postgres_url) as one, PostgresStore(postgres_url) as two:
        postgres.emptied(one)
        first, second = SeekRecords(one, A), SeekRecords(two, B)
        first.keep(seek("ssh-name:ann"))
        second.keep(seek("ssh-name:bob"))
        found: list = []
        with one.transaction():
            one.execute("SELECT pg_advisory_xact_lock(?)", (PAIRING_LOCK,))
            assert len(first.queue({A, B}, clock, nobody_blocked).seeks) == 2
            waiter = threading.Thread(
                target=lambda: found.append(second.pair({A, B}, clock, nobody_blocked))
            )
            waiter.start()
            while not one.value(
                "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                " AND objid::bigint = ?",
                (PAIRING_LOCK,),
            ):
                assert waiter.is_alive()  # the second server waits for the lock
            one.execute("DELETE FROM seeks")  # as the first server's pairing does
        waiter.join()
        pairings, waiting = found[0]
        assert pairings == [] and waiting.seeks == {}


def test_servers_racing_to_pair_never_pair_a_seek_twice(postgres_url, postgres):
    from c4tui.server.store.postgres_store import PostgresStore

    stores = [PostgresStore(postgres_url) for _ in range(3)]
    try:
        postgres.emptied(stores[0])
        servers = [SeekRecords(store, name) for store, name in zip(stores, (A, B, C), strict=True)]
        for round_ in range(5):
            for index in range(6):
                servers[index % 3].keep(seek(f"ssh-name:p{round_}-{index}"))
            start = threading.Barrier(3)
            results: list = []

            def pair(records: SeekRecords, start: threading.Barrier, results: list) -> None:
                start.wait()
                results.append(records.pair({A, B, C}, clock, nobody_blocked)[0])

            threads = [threading.Thread(target=pair, args=(s, start, results)) for s in servers]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            keys = [s.key for found in results for p in found for s in (p.first, p.second)]
            assert sorted(keys) == sorted(f"ssh-name:p{round_}-{i}" for i in range(6))
    finally:
        for store in stores:
            store.close()


def test_servers_making_challenges_at_once_number_them_apart(postgres_url, postgres):
    """Each server makes its challenge in the book as the store has it under the lock, so
    two made at once get two numbers (neither is lost to the other's)."""
    from c4tui.community.challenges import ChallengeBook
    from c4tui.server.store.challenge_records import ChallengeRecords
    from c4tui.server.store.postgres_store import PostgresStore

    stores = [PostgresStore(postgres_url) for _ in range(3)]
    try:
        postgres.emptied(stores[0])
        start = threading.Barrier(3)

        def make(store, index: int) -> None:
            records = ChallengeRecords(store)
            start.wait()
            for round_ in range(4):
                with records.locked() as found:
                    book = ChallengeBook(clock, open={c.id: c for c in found})
                    me, other = (f"k{index}", f"p{index}"), (f"o{index}-{round_}", "o")
                    made = book.make(
                        me, other, "3+2", rated=True, correspondence=False, opponent_online=True
                    )
                    records.keep(made)

        threads = [threading.Thread(target=make, args=(s, i)) for i, s in enumerate(stores)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(c.id for c in ChallengeRecords(stores[0]).load()) == list(range(1, 13))
    finally:
        for store in stores:
            store.close()


SEATS = (SeatRecord("ssh-name:ann", "ann", None, "S1"), SeatRecord("ssh-name:bob", "bob"))


def room(number: int, moves: str, seats=SEATS, **game) -> RoomRecord:
    record = GameRecord(moves, players=("ann", "bob"), date="2026-11-26T03:00:00Z", **game)
    return RoomRecord(number, f"CODE{number}", False, f"g{number}", record, seats)


def test_a_seat_in_a_game_under_way_at_one_sitting_is_playing(store):
    rooms, seeks = RoomRecords(store), SeekRecords(store, A)
    rooms.keep(room(1, ""))  # not begun
    rooms.keep(room(2, "44", ended=Ending("resigned", 1)))  # over
    assert not seeks.playing("ssh-name:ann")
    rooms.keep(room(3, "4"))
    by_post = {"minutes": 0, "increment": 0, "days": 2}
    ClockRecords(store).keep(3, {"control": by_post, "left": [172800.0] * 2, "running": 1})
    assert not seeks.playing("ssh-name:bob")  # days a move: played beside anything
    rooms.keep(room(4, "4"))
    assert seeks.playing("ssh-name:bob") and not seeks.playing("ssh-name:cy")


def test_a_room_s_version_changes_with_what_a_lobby_shows_and_one_room_loads_alone(store):
    rooms = RoomRecords(store)
    rooms.keep(room(1, "44"))
    rooms.keep(room(2, ""))
    before = room_versions(store)
    rooms.keep(room(1, "44"))  # kept again as it was
    assert room_versions(store) == before
    rooms.keep(room(1, "445"))
    rooms.keep(room(2, "", seats=(SEATS[0], SeatRecord("ssh-name:cy", "cy"))))
    after = room_versions(store)
    assert after[1] != before[1] and after[2] != before[2]
    (two,) = rooms.load({2})
    assert two.number == 2 and two.seats[1].name == "cy"
    assert [r.number for r in rooms.load()] == [1, 2]
