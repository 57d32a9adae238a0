"""The rating fit: recovers a known Elo, its interval shrinks with games, sweeps give a bound."""

from __future__ import annotations

import math
import random
from itertools import pairwise

import pytest

from c4tui.engine.study.rating_fit import (
    ELO_PER_LOGIT,
    Outcome,
    expected_score,
    fisher_information,
    fit_rating,
    log_likelihood,
)

LADDER = (1000, 1321, 1425, 1549, 1658, 1770, 1895, 2043)  # the levels' published Elo


def simulated(true_rating: float, games: int, seed: int, draw_share: float = 0.0) -> list[Outcome]:
    """Games of a player of `true_rating` against the ladder, drawn from the model."""
    rng = random.Random(seed)
    out = []
    for index in range(games):
        opponent = LADDER[index % len(LADDER)]
        p = expected_score(true_rating, opponent)
        score = 0.5 if rng.random() < draw_share else float(rng.random() < p)
        out.append(Outcome(opponent, score))
    return out


def test_expected_score_is_the_elo_curve():
    assert expected_score(1500, 1500) == pytest.approx(0.5)
    assert expected_score(1900, 1500) == pytest.approx(10 / 11)  # 400 points: 10 to 1
    assert expected_score(1100, 1500) == pytest.approx(1 / 11)


@pytest.mark.parametrize("true_rating", [1100, 1600, 1950])
def test_recovers_a_known_rating_from_synthetic_games(true_rating):
    fit = fit_rating(simulated(true_rating, 4000, seed=true_rating))
    assert fit.rating == pytest.approx(true_rating, abs=30)
    assert fit.low < true_rating < fit.high


def test_the_estimate_is_where_the_score_meets_its_expectation():
    games = [Outcome(1500, 1), Outcome(1500, 0), Outcome(1500, 1), Outcome(1700, 0.5)]
    fit = fit_rating(games)
    expected = sum(expected_score(fit.rating, g.opponent) for g in games)
    assert expected == pytest.approx(sum(g.score for g in games), abs=1e-4)


def test_one_opponent_gives_the_score_formula():
    # 3 wins of 4 against 1500: 1500 + 400 log10(3)
    fit = fit_rating([Outcome(1500, 1)] * 3 + [Outcome(1500, 0)])
    assert fit.rating == pytest.approx(1500 + 400 * math.log10(3), abs=0.05)


def test_interval_shrinks_with_games():
    margins = [fit_rating(simulated(1600, n, seed=5)).margin for n in (50, 200, 800, 3200)]
    assert all(a > b for a, b in pairwise(margins))
    # Four times the games, about half the width.
    assert margins[2] / margins[3] == pytest.approx(2, rel=0.25)


def test_interval_is_the_likelihood_drop_and_near_the_fisher_one():
    games = simulated(1550, 1000, seed=3)
    fit = fit_rating(games)
    top = log_likelihood(fit.rating, games)
    for end in (fit.low, fit.high):
        assert top - log_likelihood(end, games) == pytest.approx(1.92, abs=0.01)
    assert fit.margin == pytest.approx(1.96 * fit.stderr, rel=0.05)
    assert fit.stderr == pytest.approx(1 / math.sqrt(fisher_information(fit.rating, games)))


def test_wider_confidence_wider_interval():
    games = simulated(1500, 300, seed=2)
    assert fit_rating(games, 0.99).margin > fit_rating(games, 0.95).margin


def test_a_clean_sweep_has_only_a_lower_bound():
    fit = fit_rating([Outcome(1549, 1)] * 10)
    assert fit.rating is None and fit.high is None and fit.margin is None
    # The bound: all 10 won is as likely as the 95% drop allows, exactly.
    assert 10 * math.log(expected_score(fit.low, 1549)) == pytest.approx(-1.92, abs=0.01)
    assert fit.low > 1549
    assert fit.guess(1600) == fit.low


def test_all_lost_has_only_an_upper_bound():
    fit = fit_rating([Outcome(1000, 0)] * 5)
    assert fit.rating is None and fit.low is None and fit.high < 1000


def test_no_games_no_rating():
    fit = fit_rating([])
    assert (fit.rating, fit.low, fit.high, fit.games) == (None, None, None, 0)
    assert fit.guess(1600) == 1600


def test_draws_count_half():
    assert fit_rating([Outcome(1700, 0.5)] * 6).rating == pytest.approx(1700, abs=0.05)


def test_alike_games_of_a_cluster_widen_the_interval():
    # The same results, once as independent games, once as pairs that always agree
    # (both games of an opening won, or both lost): the pairs carry less evidence.
    results = [1.0 if i % 3 else 0.0 for i in range(120)]
    loose = fit_rating(Outcome(1500, s) for s in results)
    paired = fit_rating(
        Outcome(1500, s, cluster=i) for i, s in enumerate(results) for _copy in range(2)
    )
    twice = fit_rating(Outcome(1500, s) for s in results + results)
    assert paired.rating == pytest.approx(twice.rating, abs=0.05)
    assert paired.dispersion == pytest.approx(2, rel=0.05)
    assert paired.margin == pytest.approx(loose.margin, rel=0.05)
    assert twice.dispersion == 1.0


def test_bad_scores_and_confidence_are_refused():
    with pytest.raises(ValueError, match=r"scores 0, 0\.5 or 1"):
        Outcome(1500, 0.7)
    with pytest.raises(ValueError, match="confidence"):
        fit_rating([Outcome(1500, 1)], confidence=1.5)


def test_independent_games_of_a_cluster_do_not_widen_it():
    games = simulated(1600, 2000, seed=9)
    clustered = [Outcome(g.opponent, g.score, cluster=i // 2) for i, g in enumerate(games)]
    assert fit_rating(clustered).margin == pytest.approx(fit_rating(games).margin, rel=0.1)


def test_ratings_far_apart_do_not_overflow():
    fit = fit_rating([Outcome(0, 1), Outcome(5000, 0), Outcome(2500, 1), Outcome(2500, 0)])
    assert fit.rating == pytest.approx(2500, abs=1)
    assert pytest.approx(173.72, abs=0.01) == ELO_PER_LOGIT
