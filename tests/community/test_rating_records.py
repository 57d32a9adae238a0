"""Ratings, game terms and the leaderboard in a real store (server/store/rating_records.py),
and open challenges kept across a restart (challenge_records.py)."""

from __future__ import annotations

from c4tui.community.bot_tokens import bot_key
from c4tui.community.challenges import ChallengeBook
from c4tui.community.glicko2 import NEWCOMER
from c4tui.server.store.challenge_records import ChallengeRecords
from c4tui.server.store.opening import open_store
from c4tui.server.store.player_records import PlayerRecords
from c4tui.server.store.rating_records import RatingRecords

DAY = 86400.0


def test_a_rated_game_moves_both_ratings_once(store) -> None:
    people = PlayerRecords(store)
    ann, bob = people.player("k-ann", "ann"), people.player("k-bob", "bob")
    ratings = RatingRecords(store)
    assert ratings.standing(ann, "blitz").rating == NEWCOMER
    assert ratings.rate("g1", (ann, bob), 1.0, DAY) is None  # no terms: not a paired game
    ratings.set_terms("g1", "blitz", rated=True)
    won, lost = ratings.rate("g1", (ann, bob), 1.0, DAY) or (None, None)
    assert won is not None and lost is not None and won.r > 1500 > lost.r
    assert ratings.rate("g1", (ann, bob), 1.0, 2 * DAY) is None  # never twice
    assert ratings.standing(ann, "blitz").rating == won
    assert ratings.standing(ann, "blitz").games == 1
    assert ratings.standing(ann, "bullet").rating == NEWCOMER  # a class of its own
    assert ratings.terms("g1").applied


def test_a_casual_game_moves_nothing(store) -> None:
    people = PlayerRecords(store)
    ann, bob = people.player("k-ann", "ann"), people.player("k-bob", "bob")
    ratings = RatingRecords(store)
    ratings.set_terms("g1", "blitz", rated=False)
    assert ratings.rate("g1", (ann, bob), 0.5, DAY) is None
    assert ratings.leaderboard("blitz") == []


def test_the_leaderboard_marks_bots_as_bots(store) -> None:
    people = PlayerRecords(store)
    ann, alpha = people.player("k-ann", "ann"), people.player(bot_key("alpha"), "alpha")
    ratings = RatingRecords(store)
    ratings.set_terms("g1", "blitz", rated=True)
    ratings.rate("g1", (ann, alpha), 1.0, DAY)
    board = ratings.leaderboard("blitz")
    assert [(ranked.name, ranked.bot) for ranked in board] == [("ann", False), ("alpha", True)]


def test_the_leaderboard_lists_settled_ratings_before_provisional_ones(store) -> None:
    people = PlayerRecords(store)
    ids = {name: people.player(f"k-{name}", name) for name in ("ann", "bob", "cy", "dee")}
    ratings = RatingRecords(store)
    for n in range(20):  # ann and bob play each other 20 times: settled
        ratings.set_terms(f"g{n}", "blitz", rated=True)
        ratings.rate(f"g{n}", (ids["ann"], ids["bob"]), 1.0 if n % 3 else 0.0, DAY + n)
    ratings.set_terms("h", "blitz", rated=True)
    ratings.rate("h", (ids["cy"], ids["dee"]), 1.0, DAY)  # cy wins once: high, provisional
    board = ratings.leaderboard("blitz")
    assert [r.name for r in board] == ["ann", "bob", "cy", "dee"]
    assert [r.provisional for r in board] == [False, False, True, True]
    assert board[2].rating.r > board[0].rating.r
    assert [r.games for r in board] == [20, 20, 1, 1]


def test_open_challenges_outlive_a_restart(tmp_path) -> None:
    with open_store(tmp_path) as store:
        book = ChallengeBook(lambda: 1000.0)
        kept = ChallengeRecords(store)
        waiting = book.make(
            ("k-ann", "ann"),
            ("k-bob", "bob"),
            "1d",
            rated=True,
            correspondence=True,
            opponent_online=False,
        )
        gone = book.make(
            ("k-ann", "ann"),
            ("k-cy", "cy"),
            "3+2",
            rated=False,
            correspondence=False,
            opponent_online=True,
        )
        kept.keep(waiting)
        kept.keep(gone)
        kept.forget(gone.id)
    with open_store(tmp_path) as store:
        assert ChallengeRecords(store).load() == [waiting]
