"""Profiles from the store: who a name stands for, results, ratings by class."""

from __future__ import annotations

from c4tui.engine.board.gamefile import Ending, GameRecord
from c4tui.server.store.game_records import GameRecords
from c4tui.server.store.profiles import ProfileRecords, Results
from c4tui.server.store.rating_records import RatingRecords


def keep(store, name, moves, players, keys, ended=None):
    record = GameRecord(moves, players=players, date="2026-11-26T01:00:00Z", ended=ended)
    GameRecords(store).keep(name, record, keys=keys)


def test_results_count_every_finished_game_of_the_players_identities(store):
    profiles = ProfileRecords(store)
    ann = profiles.players.player("ssh-key:SHA256:ann", "ann")
    profiles.players.claim("ann", "ssh-key:SHA256:ann")
    keep(store, "g1", "4455667", ("ann", "bob"), ("ssh-key:SHA256:ann", "web:bob"))  # ann wins
    keep(store, "g2", "4455667", ("bob", "ann"), ("web:bob", "ssh-key:SHA256:ann"))  # ann loses
    keep(store, "g3", "44", ("ann", "level:3"), ("ssh-key:SHA256:ann", None))  # going on
    keep(
        store,
        "g4",
        "4",
        ("level:5", "ann"),
        (None, "ssh-key:SHA256:ann"),
        ended=Ending("resigned", 1),
    )  # the engine resigned: ann, second, won
    keep(
        store, "g5", "45", ("ann", "bob"), ("ssh-key:SHA256:ann", "web:bob"), Ending("agreed", None)
    )
    assert profiles.player_named("ANN") == ann
    assert profiles.results(ann) == Results(wins=2, draws=1, losses=1)
    assert profiles.results(ann).games == 4
    assert profiles.name_of(ann) == "ann"


def test_a_name_never_claimed_is_found_by_its_last_game(store):
    profiles = ProfileRecords(store)
    assert profiles.player_named("bob") is None
    bob = profiles.players.player("web:bob", "bob")
    keep(store, "g1", "4455667", ("ann", "bob"), ("ssh-key:SHA256:ann", "web:bob"))
    assert profiles.player_named("Bob") == bob
    assert profiles.results(bob) == Results(losses=1)
    assert profiles.player_named("level:3") is None  # an engine is nobody's


def test_ratings_are_listed_for_the_classes_played(store):
    profiles = ProfileRecords(store)
    ann = profiles.players.player("k-ann", "ann")
    bob = profiles.players.player("k-bob", "bob")
    ratings = RatingRecords(store)
    ratings.set_terms("g1", "blitz", rated=True)
    ratings.rate("g1", (ann, bob), 1.0, 1000.0)
    shown = profiles.ratings(ann)
    assert list(shown) == ["blitz"]
    assert shown["blitz"].games == 1 and shown["blitz"].rating.r > 1500


def test_a_profile_lists_the_players_finished_games_the_last_ended_first(store):
    profiles = ProfileRecords(store)
    ann = profiles.players.player("ssh-key:SHA256:ann", "ann")
    keep(store, "g1", "4455667", ("ann", "bob"), ("ssh-key:SHA256:ann", "web:bob"))
    keep(store, "g2", "44", ("ann", "level:3"), ("ssh-key:SHA256:ann", None))  # going on
    keep(store, "g3", "4", ("level:5", "ann"), (None, "ssh-key:SHA256:ann"), Ending("resigned", 1))
    keep(store, "g4", "45", ("ann", "ann"), ("ssh-key:SHA256:ann",) * 2, Ending("agreed", None))
    store.execute("UPDATE games SET updated = '2999-01-01T00:00:00Z' WHERE name = 'g1'")
    recent = profiles.recent(ann)
    assert [(p.name, p.side, p.record.players) for p in recent] == [
        ("g1", 0, ("ann", "bob")),
        ("g3", 1, ("level:5", "ann")),
    ]
    assert recent[0].record.moves == "4455667" and recent[0].record.result == "1-0"
    assert profiles.recent(ann, limit=1)[0].name == "g1"
