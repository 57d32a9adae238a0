"""Community ratings: Glicko-2 one game a period, deviation growing with time away, classes."""

from __future__ import annotations

import pytest

from c4tui.community.glicko2 import (
    NEWCOMER,
    PERIOD_SECONDS,
    Rated,
    after_game,
    aged,
    provisional,
    shown,
)
from c4tui.engine.study.glicko import Rating, expected, update


def test_glickmans_worked_example_step_by_step():
    # "Example of the Glicko-2 system": a 1500 (RD 200, volatility 0.06) player beats a
    # 1400 (RD 30), loses to a 1550 (RD 100) and to a 1700 (RD 300) in one period. The
    # paper's expected scores are 0.639, 0.432, 0.303 and its result 1464.06, 151.52,
    # 0.05999 (it rounds as it goes; unrounded the rating is 1464.05).
    player = Rating(1500, 200, 0.06)
    opponents = [Rating(1400, 30), Rating(1550, 100), Rating(1700, 300)]
    assert [round(expected(player, o), 3) for o in opponents] == [0.639, 0.432, 0.303]
    after = update(player, list(zip(opponents, (1.0, 0.0, 0.0), strict=True)))
    assert after.r == pytest.approx(1464.05, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.sigma == pytest.approx(0.05999, abs=0.00001)


def test_a_newcomer_beating_a_settled_player_moves_far_and_the_settled_one_little():
    # Worked out by hand from the paper's steps (bisection for the volatility).
    newcomer, settled = after_game(Rated(NEWCOMER), Rated(Rating(1700, 80)), 1.0)
    assert newcomer.r == pytest.approx(1801.42, abs=0.01)
    assert newcomer.rd == pytest.approx(267.81, abs=0.01)
    assert settled.r == pytest.approx(1683.21, abs=0.01)
    assert settled.rd == pytest.approx(79.85, abs=0.01)


def test_time_away_grows_the_deviation_before_the_game():
    # 100 days away: 60 grows to sqrt(60^2 + 100 * (0.06 * 173.7178)^2) = 120.27; a draw
    # with an equal settled player then brings it to 114.25 and leaves the rating.
    assert aged(Rating(1600, 60), 100 * PERIOD_SECONDS).rd == pytest.approx(120.27, abs=0.01)
    back, _ = after_game(
        Rated(Rating(1600, 60), 100 * PERIOD_SECONDS), Rated(Rating(1600, 60)), 0.5
    )
    assert back.r == pytest.approx(1600.0, abs=1e-9)
    assert back.rd == pytest.approx(114.25, abs=0.01)
    assert aged(Rating(1600, 60), 1e12).rd == NEWCOMER.rd  # never past a newcomer's
    assert aged(Rating(1600, 60), 0).rd == 60


def test_the_two_sides_see_one_game_from_both_ends():
    a, b = Rated(Rating(1550, 90)), Rated(Rating(1450, 120))
    won, lost = after_game(a, b, 1.0)
    lost_again, won_again = after_game(b, a, 0.0)
    assert (won, lost) == (won_again, lost_again)
    with pytest.raises(ValueError, match=r"1, 0\.5 or 0"):
        after_game(a, b, 2.0)


def test_provisional_until_the_deviation_is_under_110():
    assert provisional(NEWCOMER) and shown(NEWCOMER) == "1500?"
    assert not provisional(Rating(1623.4, 110)) and shown(Rating(1623.4, 110)) == "1623"
    rating, games = NEWCOMER, 0
    while provisional(rating):  # against settled equals, winning and losing in turn
        rating, _ = after_game(Rated(rating), Rated(Rating(1500, 60)), float(games % 2))
        games += 1
    assert 8 <= games <= 12
