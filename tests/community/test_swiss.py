"""Swiss pairing: the hard rules hold in every round of random tournaments (hypothesis),
and the pairing prefers what a Swiss should (equal scores, upper half against lower)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from c4tui.community.swiss import FIRST, SECOND, Entrant, pair_round
from c4tui.community.swiss_standings import DRAW, LOSS, WIN
from c4tui.community.tournament import Tournament


def played(tournament: Tournament) -> Counter[frozenset[str]]:
    return Counter(frozenset((b.first, b.second)) for r in tournament.rounds for b in r.boards)


def colours(tournament: Tournament, key: str) -> str:
    return "".join(
        FIRST if b.first == key else SECOND
        for r in tournament.rounds
        for b in r.boards
        if key in (b.first, b.second)
    )


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 12),
    rounds=st.integers(1, 11),
    results=st.randoms(use_true_random=False),
)
def test_every_round_keeps_the_hard_rules(players, rounds, results):
    tournament = Tournament(1, "Swiss", "ann", "5+3", rounds, 0.0)
    for i in range(players):
        assert tournament.join(f"p{i}", f"player {i}", results.choice([1200, 1500, 1800])) is None
    current = tournament.begin()
    while current is not None:
        seated = [k for b in current.boards for k in (b.first, b.second)]
        everyone = seated + ([current.bye] if current.bye else [])
        assert sorted(everyone) == sorted(tournament.entries)  # each plays once a round
        assert (current.bye is not None) == (players % 2 == 1)
        for board in current.boards:
            board.points = results.choice([WIN, DRAW, LOSS])
        current = tournament.advance()
    assert tournament.phase == "finished"
    assert max(played(tournament).values()) == 1  # no pair twice
    byes = Counter(r.bye for r in tournament.rounds if r.bye is not None)
    assert not byes or max(byes.values()) == 1  # one bye each at most
    for key in tournament.entries:
        mine = colours(tournament, key)
        for n in range(1, len(mine) + 1):  # within -2..2 after every round, not only at the end
            assert abs(mine[:n].count(FIRST) - mine[:n].count(SECOND)) <= 2
    # Every round planned was played, unless the note says why not.
    assert len(tournament.rounds) == tournament.rounds_planned or tournament.note


def test_four_players_play_a_round_robin_in_three_rounds_with_colours_one_apart():
    tournament = Tournament(1, "Four", "ann", "5+3", 3, 0.0)
    for name, rating in (("ann", 1700), ("bob", 1600), ("cat", 1500), ("dan", 1400)):
        tournament.join(name, name, rating)
    current = tournament.begin()
    assert current is not None
    # Upper half against lower half; the top board's higher seed has ●, the next ○.
    assert [(b.first, b.second) for b in current.boards] == [("ann", "cat"), ("dan", "bob")]
    while current is not None:
        for board in current.boards:
            board.points = WIN
        current = tournament.advance()
    assert len(tournament.rounds) == 3 and set(played(tournament).values()) == {1}
    assert len(played(tournament)) == 6  # everyone met everyone
    for key in tournament.entries:
        mine = colours(tournament, key)
        assert abs(mine.count(FIRST) - mine.count(SECOND)) == 1


def test_leaders_meet_leaders_and_the_bye_goes_to_the_last_without_one():
    entrants = [
        Entrant("ann", 2.0, colours=f"{FIRST}{SECOND}", met=frozenset({"eve", "dan"})),
        Entrant("bob", 2.0, colours=f"{SECOND}{FIRST}", met=frozenset({"cat", "eve"})),
        Entrant("cat", 1.0, colours=f"{FIRST}{SECOND}", met=frozenset({"bob", "dan"})),
        Entrant("dan", 1.0, colours=f"{SECOND}{FIRST}", met=frozenset({"ann", "cat"})),
        Entrant("eve", 0.0, colours=SECOND, met=frozenset({"ann", "bob"}), had_bye=True),
    ]
    pairing = pair_round(entrants)
    assert pairing is not None
    games = {frozenset((g.first, g.second)) for g in pairing.games}
    assert frozenset(("ann", "bob")) in games
    assert pairing.bye == "dan"  # eve, last, has had hers


def test_a_player_two_games_ahead_with_first_gets_second():
    ann = Entrant("ann", 1.0, colours=FIRST * 2)
    bob = Entrant("bob", 1.0, colours=SECOND + FIRST)
    pairing = pair_round([ann, bob])
    assert pairing is not None and pairing.games[0].first == "bob"
    both_ahead = [Entrant("ann", 0, colours=FIRST * 2), Entrant("bob", 0, colours=FIRST * 2)]
    assert pair_round(both_ahead) is None  # neither may take ● a third time ahead
