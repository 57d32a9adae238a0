"""A Swiss tournament's life: registration, rounds, results, standings, kept and read back."""

from __future__ import annotations

import json

import pytest

from c4tui.community.swiss_standings import DRAW, LOSS, WIN, Result, standings
from c4tui.community.tournament import Tournament


def four(rounds: int = 3) -> Tournament:
    tournament = Tournament(7, "Evening Swiss", "ann", "5+3", rounds, starts_at=1000.0)
    for name, rating in (("ann", 1700), ("bob", 1600), ("cat", 1500), ("dan", 1400)):
        assert tournament.join(name, name, rating) is None
    return tournament


def test_registration_opens_and_closes_at_the_start():
    tournament = four()
    assert tournament.join("ann", "ann") == "You are in this tournament already."
    assert tournament.leave("dan") is None and "dan" not in tournament.entries
    assert tournament.leave("dan") == "You are not in this tournament."
    assert tournament.join("dan", "dan", 1400) is None
    assert not tournament.due(999.0) and tournament.due(1000.0)
    assert tournament.begin() is not None and tournament.phase == "playing"
    assert tournament.join("eve", "eve") == "The tournament has begun: entries are closed."
    assert not tournament.due(2000.0)


def test_too_few_players_cancel_it():
    tournament = Tournament(1, "Lonely", "ann", "5+3", 3, 0.0)
    tournament.join("ann", "ann")
    assert tournament.begin() is None
    assert tournament.phase == "cancelled" and "1 player(s)" in (tournament.note or "")


def test_rounds_are_capped_by_what_the_players_can_play_without_a_rematch():
    tournament = four(rounds=9)
    tournament.begin()
    assert tournament.rounds_planned == 3 and "3 rounds" in (tournament.note or "")


def test_a_round_ends_when_every_game_has_its_result_and_the_last_round_ends_it():
    tournament = four(rounds=2)
    first = tournament.begin()
    assert first is not None
    for room, board in enumerate(first.boards, start=1):
        board.room = room
    assert tournament.record(1, WIN, "line") is first.boards[0]
    assert tournament.record(1, LOSS, "line") is None  # a result stands
    assert tournament.record(99, WIN, "line") is None  # no such game
    assert not tournament.round_over()
    with pytest.raises(ValueError):
        tournament.advance()
    tournament.record(2, DRAW, "agreed")
    assert tournament.round_over()
    second = tournament.advance()
    assert second is not None and second.number == 2
    winner = first.boards[0].first
    assert tournament.board_of(winner) is not None
    for board in second.boards:
        board.points = WIN
    assert tournament.advance() is None and tournament.phase == "finished"
    assert tournament.board_of(winner) is None


def test_a_player_who_withdraws_is_not_paired_again_and_their_results_stand():
    tournament = four()
    first = tournament.begin()
    assert first is not None
    for board in first.boards:
        board.points = WIN
    assert tournament.leave("dan") is None
    second = tournament.advance()
    assert second is not None and second.bye is not None
    assert all("dan" not in (b.first, b.second) for b in second.boards)
    assert "dan" in {s.key for s in tournament.standings()}


def test_standings_break_ties_by_buchholz_then_sonneborn_berger():
    # ann beats bob, bob beats cat, cat beats dan, ann draws dan: ann 1.5, bob 1, cat 1, dan 0.5.
    results = [
        Result("ann", "bob", WIN),
        Result("bob", "cat", WIN),
        Result("cat", "dan", WIN),
        Result("dan", "ann", DRAW),
    ]
    table = standings(["ann", "bob", "cat", "dan"], results)
    assert [(s.key, s.points) for s in table] == [
        ("ann", 1.5),
        ("bob", 1.0),
        ("cat", 1.0),
        ("dan", 0.5),
    ]
    bob, cat = table[1], table[2]
    assert bob.buchholz == 2.5 and cat.buchholz == 1.5  # bob met ann (1.5) and cat (1)
    assert bob.sonneborn_berger == 1.0 and cat.sonneborn_berger == 0.5
    assert [s.place for s in table] == [1, 2, 3, 4]


def test_equal_players_share_a_place_and_a_bye_counts_as_a_virtual_opponent():
    table = standings(["ann", "bob", "cat"], [Result("ann", "bob", DRAW)], byes=["cat"])
    by_key = {s.key: s for s in table}
    assert table[0].key == "cat" and by_key["cat"].points == 1.0
    assert by_key["cat"].buchholz == 1.0 and by_key["cat"].byes == 1
    assert by_key["ann"].place == by_key["bob"].place == 2


def test_a_win_with_the_second_colour_breaks_a_tie_after_the_others():
    table = standings(
        ["ann", "bob", "cat", "dan"],
        [
            Result("ann", "bob", WIN),  # ann wins with ●
            Result("cat", "dan", LOSS),  # dan wins with ○
        ],
    )
    assert [s.key for s in table][:2] == ["dan", "ann"]
    assert table[0].second_wins == 1 and table[0].place == 1 and table[1].place == 2


def test_a_tournament_is_kept_as_plain_values_and_read_back_whole():
    tournament = four()
    first = tournament.begin()
    assert first is not None
    first.boards[0].room, first.boards[0].points, first.boards[0].how = 5, WIN, "time"
    plain = json.loads(json.dumps(tournament.to_plain()))
    again = Tournament.from_plain(plain)
    assert again == tournament
    assert again.standings() == tournament.standings()
    with pytest.raises(ValueError):
        Tournament.from_plain({"number": 1})
