"""Two rated games of one player ending at once (two connections to one database, as two
servers or two threads would be) keep both results: each rating is read and written in
one transaction that holds the write lock from its start."""

from __future__ import annotations

import threading

from c4tui.server.store.opening import open_store
from c4tui.server.store.player_records import PlayerRecords
from c4tui.server.store.rating_records import RatingRecords
from c4tui.server.store.sqlite_store import SqliteStore
from c4tui.server.store.store import DATABASE_NAME

GAMES = 15  # per connection


def test_games_ending_at_once_for_one_player_all_count(tmp_path):
    with open_store(tmp_path) as store:
        people = PlayerRecords(store)
        ann = people.player("k-ann", "ann")
        rivals = [people.player(f"k-{n}", n) for n in ("bob", "cat")]
        ratings = RatingRecords(store)
        for rival in rivals:
            for game in range(GAMES):
                ratings.set_terms(f"ann-{rival}-{game}", "blitz", rated=True)
    start = threading.Barrier(2)
    failures: list[BaseException] = []

    def play(rival: int) -> None:
        try:
            with SqliteStore(tmp_path / DATABASE_NAME) as own:
                mine = RatingRecords(own)
                start.wait()
                for game in range(GAMES):  # ann wins every one
                    assert mine.rate(f"ann-{rival}-{game}", (ann, rival), 1.0, 1000.0 + game)
        except BaseException as error:  # reported below, in the test's thread
            failures.append(error)

    threads = [threading.Thread(target=play, args=(rival,)) for rival in rivals]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    with open_store(tmp_path) as store:
        ratings = RatingRecords(store)
        assert ratings.standing(ann, "blitz").games == 2 * GAMES
        assert [ratings.standing(r, "blitz").games for r in rivals] == [GAMES, GAMES]
        # every win counted: 30 straight wins against two newcomers took ann well up
        assert ratings.standing(ann, "blitz").rating.r > 1900
