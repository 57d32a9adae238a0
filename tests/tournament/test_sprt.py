"""The SPRT's statistics (tournament/sprt.py): its bounds, ratios and intervals, and its
error rates on simulated engines (benchmarks/sprt_errors.py, a few hundred runs here)."""

from __future__ import annotations

import argparse
import math

import pytest

from benchmarks.sprt_errors import edge_for, elo_of_pairs, pair_probabilities, simulate
from c4tui.tournament import sprt


def test_wald_bounds():
    lower, upper = sprt.bounds(0.05, 0.05)
    assert lower == pytest.approx(-math.log(19)) and upper == pytest.approx(math.log(19))
    assert sprt.verdict(3.0, 0.05, 0.05) == "H1"
    assert sprt.verdict(-3.0, 0.05, 0.05) == "H0"
    assert sprt.verdict(0.0, 0.05, 0.05) is None
    with pytest.raises(ValueError):
        sprt.bounds(0.6, 0.5)


def test_the_likeliest_distribution_has_the_score_asked_and_stays_near():
    p = sprt.frequencies([10, 40, 100, 60, 20])
    for score in (0.45, 0.5, 0.55):
        q = sprt.likeliest_with_score(p, sprt.PAIR_SCORES, score)
        mean, _ = sprt.mean_and_variance(sprt.PAIR_SCORES, q)
        assert sum(q) == pytest.approx(1) and mean == pytest.approx(score, abs=1e-9)
    # p's own mean: p itself is the likeliest
    mean, _ = sprt.mean_and_variance(sprt.PAIR_SCORES, p)
    assert sprt.likeliest_with_score(p, sprt.PAIR_SCORES, mean) == pytest.approx(p)


def test_the_likeliest_distribution_with_a_t_value():
    p = sprt.frequencies([10, 40, 100, 60, 20])
    for t in (-0.1, 0.0, 0.2):
        q = sprt.likeliest_with_t(p, sprt.PAIR_SCORES, t)
        mean, variance = sprt.mean_and_variance(sprt.PAIR_SCORES, q)
        assert (mean - 0.5) / math.sqrt(variance) == pytest.approx(t, abs=1e-7)
    # after a single pair the frequencies are nearly all one outcome: still an answer
    assert sprt.llr([0, 0, 0, 0, 1], 0, 50, "normalized") > 0


@pytest.mark.parametrize("model", sprt.MODELS)
def test_the_ratio_points_to_the_hypothesis_the_outcomes_fit(model):
    even = [20, 80, 120, 80, 20]  # scores exactly 1/2: elo0 = 0 fits
    strong = [10, 50, 110, 100, 40]
    assert sprt.llr(even, 0, 20, model) < 0 < sprt.llr(strong, 0, 20, model)
    assert sprt.llr([0] * 5, 0, 20, model) == 0
    # the same outcomes twice as often: twice the evidence
    double = [2 * n for n in strong]
    assert sprt.llr(double, 0, 20, model) == pytest.approx(2 * sprt.llr(strong, 0, 20, model))


def test_the_ratio_is_near_its_normal_approximation_on_many_pairs():
    # For bounds close together LLR ~ N (s1 - s0) (2 mean - s0 - s1) / (2 variance).
    counts = [1000, 4000, 10000, 4300, 1050]  # a mean between s0 and s1, as near the end
    s0, s1 = sprt.score_of_elo(0), sprt.score_of_elo(5)
    p = [n / sum(counts) for n in counts]
    mean, variance = sprt.mean_and_variance(sprt.PAIR_SCORES, p)
    normal = sum(counts) * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)
    assert sprt.llr(counts, 0, 5) == pytest.approx(normal, rel=0.01)


def test_trinomial_counts_are_single_games():
    assert sprt.llr([30, 40, 50], 0, 20) > 0 > sprt.llr([50, 40, 30], 0, 20)
    with pytest.raises(ValueError):
        sprt.llr([1, 2, 3, 4], 0, 20)


def test_elo_and_its_interval():
    even = sprt.elo_interval([20, 80, 120, 80, 20])
    assert even.elo == pytest.approx(0, abs=1e-9)
    assert even.low == pytest.approx(-even.high)
    strong = sprt.elo_interval([10, 50, 110, 100, 40])
    assert 0 < strong.low < strong.elo < strong.high
    # the same score on four times the pairs: about half the interval
    wide = strong.high - strong.low
    narrow = sprt.elo_interval([40, 200, 440, 400, 160])
    assert narrow.high - narrow.low == pytest.approx(wide / 2, rel=0.05)
    assert sprt.elo_interval([0, 0, 0, 0, 5]).elo is None  # every pair won
    nelo = sprt.elo_interval([10, 50, 110, 100, 40], "normalized")
    assert nelo.low < nelo.elo < nelo.high


@pytest.mark.parametrize("model", sprt.MODELS)
def test_the_simulated_engines_are_calibrated_to_the_elo_asked(model):
    for elo in (0.0, 25.0, 50.0):
        assert elo_of_pairs(pair_probabilities(edge_for(elo, model)), model) == pytest.approx(elo)


@pytest.mark.slow
def test_error_rates_on_simulated_engines():
    # 400 runs a side (the benchmark makes 10,000); the rates must stay within alpha or
    # beta plus three standard errors. A test pointing the wrong way, or bounds swapped,
    # would accept the wrong hypothesis in most runs.
    args = argparse.Namespace(
        runs=400, elo0=0.0, elo1=100.0, alpha=0.05, beta=0.05, model="logistic", most=10_000
    )
    import random

    rng = random.Random(5)
    allowed = 0.05 + 3 * math.sqrt(0.05 * 0.95 / 400)
    at_elo0, tri0 = simulate(0.0, args, rng)
    at_elo1, tri1 = simulate(100.0, args, rng)
    assert at_elo0.h1 / at_elo0.runs <= allowed and at_elo1.h0 / at_elo1.runs <= allowed
    assert at_elo0.undecided == at_elo1.undecided == 0
    # the pentanomial test needs fewer games than the trinomial on the same engines
    assert at_elo0.games < tri0.games and at_elo1.games < tri1.games
