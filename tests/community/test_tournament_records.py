"""Tournaments kept in a real store and read back whole, also after the store is reopened."""

from __future__ import annotations

from c4tui.community.swiss_standings import DRAW, WIN
from c4tui.community.tournament import Tournament
from c4tui.server.store.opening import open_store
from c4tui.server.store.tournament_records import TournamentRecords


def under_way() -> Tournament:
    tournament = Tournament(3, "Evening Swiss", "ann", "5+3", 3, 1000.0)
    for name in ("ann", "bob", "cat", "dan", "eve"):
        tournament.join(f"key:{name}", name, 1500.0)
    first = tournament.begin()
    assert first is not None
    for room, board in enumerate(first.boards, start=10):
        board.room = room
    first.boards[0].points, first.boards[0].how = WIN, "line"
    first.boards[1].points, first.boards[1].how = DRAW, "agreed"
    second = tournament.advance()
    assert second is not None
    second.boards[0].room = 20
    tournament.leave("key:eve")
    return tournament


def test_a_tournament_under_way_comes_back_whole(store):
    records = TournamentRecords(store)
    tournament = under_way()
    records.keep(tournament)
    assert records.load() == [tournament]


def test_keeping_again_replaces_and_a_reopened_store_has_it(tmp_path):
    with open_store(tmp_path) as store:
        records = TournamentRecords(store)
        tournament = under_way()
        records.keep(tournament)
        tournament.rounds[-1].boards[0].points = WIN
        tournament.entries["key:eve"].withdrawn = False
        records.keep(tournament)
        waiting = Tournament(4, "Later", "the operator", "3+2", 5, 2000.0)
        records.keep(waiting)
    with open_store(tmp_path) as store:
        assert TournamentRecords(store).load() == [tournament, waiting]


def test_the_pause_between_rounds_is_kept(store):
    records = TournamentRecords(store)
    tournament = under_way()
    for board in tournament.rounds[-1].boards:
        board.points, board.how = WIN, "line"
    tournament.next_round_at = 1234.5
    records.keep(tournament)
    assert records.load()[0].next_round_at == 1234.5
    tournament.advance()
    assert tournament.next_round_at is None
    records.keep(tournament)
    assert records.load() == [tournament]
