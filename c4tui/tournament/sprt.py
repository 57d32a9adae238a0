"""The statistics of `c4tui sprt`: the generalized SPRT over game pairs, and Elo with its interval.

Pure functions of outcome counts, no games and no clock. The counts are pentanomial
(the five results of a pair of games from one opening, colours swapped: NEW's pair score
0, 1/2, 1, 3/2 or 2 points) or trinomial (single games: lost, drawn, won), as fishtest
counts them.

The test is the generalized sequential probability ratio test (GSPRT): the hypotheses
are not one outcome distribution each but a constraint on it, "NEW's expected score is
that of `elo0`" (H0) against "... of `elo1`" (H1). Each is replaced by the distribution
that satisfies its constraint and is likeliest given the outcomes seen so far (the
maximum-likelihood, or maximum-entropy, member of the family); the log-likelihood
ratio of those two is compared with Wald's bounds log(beta / (1 - alpha)) and
log((1 - beta) / alpha). Counting pairs rather than games removes the noise the
openings add (a pair from an opening that favours one colour is usually 1-1), so the
pentanomial test stops in fewer games.

Two Elo models say what `elo0` and `elo1` mean:
- logistic: the expected score s = 1 / (1 + 10^(-elo / 400)), the usual Elo;
- normalized: elo / (800 / ln 10) is the expected score's distance from 1/2 in
  standard deviations of a game's score, so a difference means the same number of games
  to detect whatever the draw rate (fishtest's "nElo").

The likeliest distribution q under a constraint sum_i q_i g_i = 0 is q_i = p_i / (1 +
lam * g_i), with `lam` the root of sum_i p_i g_i / (1 + lam * g_i) = 0 (a Lagrange
multiplier); `_constrained` finds it. For the logistic model g_i = a_i - s (a_i the
outcome's score); for the normalized one the constraint involves q's own spread, so
g is recomputed from q until q stops changing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Model = Literal["logistic", "normalized"]
MODELS: tuple[Model, ...] = ("logistic", "normalized")
Verdict = Literal["H0", "H1"]

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)  # a pair's score per game, by pentanomial count
GAME_SCORES = (0.0, 0.5, 1.0)  # a game's score, by trinomial count
# Normalized Elo per unit of t-value (standard deviations of a game's score): a small
# logistic difference near an even score, in nElo, is about the same number.
NELO_PER_T = 800 / math.log(10)
Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval
# An outcome not seen yet still has some probability: a zero count counts as this much,
# so the likeliest distributions keep every outcome possible (fishtest does the same).
UNSEEN = 1e-3
_TOLERANCE = 1e-12
_ROUNDS = 200


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds on the log-likelihood ratio: below the first accept H0, above the
    second accept H1 (false positives at most about alpha, false negatives beta)."""
    if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
        raise ValueError(f"alpha {alpha} and beta {beta} must be in (0, 1) with alpha + beta < 1")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def verdict(llr_value: float, alpha: float, beta: float) -> Verdict | None:
    """H1 or H0 once the ratio leaves its bounds; None while the test goes on."""
    lower, upper = bounds(alpha, beta)
    if llr_value >= upper:
        return "H1"
    if llr_value <= lower:
        return "H0"
    return None


def score_of_elo(elo: float) -> float:
    """The expected score of a logistic Elo difference."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of_score(score: float) -> float:
    """The logistic Elo difference that expects `score` (0 < score < 1)."""
    return -400 * math.log10(1 / score - 1)


def _scores(counts: Sequence[int]) -> tuple[float, ...]:
    if len(counts) == len(PAIR_SCORES):
        return PAIR_SCORES
    if len(counts) == len(GAME_SCORES):
        return GAME_SCORES
    raise ValueError(f"counts are 5 pair outcomes or 3 game outcomes, not {len(counts)}")


def frequencies(counts: Sequence[int]) -> list[float]:
    """The outcomes' observed frequencies, an unseen outcome counted as UNSEEN."""
    if any(count < 0 for count in counts):
        raise ValueError(f"counts cannot be negative: {list(counts)}")
    weights = [count if count > 0 else UNSEEN for count in counts]
    total = sum(weights)
    return [weight / total for weight in weights]


def mean_and_variance(
    scores: Sequence[float], probabilities: Sequence[float]
) -> tuple[float, float]:
    mean = sum(p * a for p, a in zip(probabilities, scores, strict=True))
    variance = sum(p * (a - mean) ** 2 for p, a in zip(probabilities, scores, strict=True))
    return mean, variance


def _multiplier(p: Sequence[float], g: Sequence[float]) -> float:
    """The root lam of sum p_i g_i / (1 + lam g_i) = 0 with every 1 + lam g_i > 0.

    The sum falls as lam rises, from +inf at the lower end of that range to -inf at the
    upper, so the root is bracketed; Newton's steps, falling back to halving the bracket
    when a step would leave it.
    """
    high_g, low_g = max(g), min(g)
    if high_g <= 0 or low_g >= 0:
        raise ValueError("the constrained score lies outside the outcomes' scores")
    low, high = -1 / high_g, -1 / low_g
    lam = 0.0
    for _ in range(_ROUNDS):
        value = slope = 0.0
        for p_i, g_i in zip(p, g, strict=True):
            term = g_i / (1 + lam * g_i)
            value += p_i * term
            slope -= p_i * term * term
        if abs(value) < _TOLERANCE:
            return lam
        if value > 0:
            low = lam
        else:
            high = lam
        step = lam - value / slope
        lam = step if low < step < high else (low + high) / 2
    return lam


def _constrained(p: Sequence[float], g: Sequence[float]) -> list[float]:
    lam = _multiplier(p, g)
    q = [p_i / (1 + lam * g_i) for p_i, g_i in zip(p, g, strict=True)]
    total = sum(q)
    return [q_i / total for q_i in q]


def likeliest_with_score(p: Sequence[float], scores: Sequence[float], score: float) -> list[float]:
    """The distribution nearest `p` (most likely given outcomes distributed as p) whose
    expected score is `score`."""
    return _constrained(p, [a - score for a in scores])


def likeliest_with_t(p: Sequence[float], scores: Sequence[float], t: float) -> list[float]:
    """The distribution nearest `p` whose (mean - 1/2) / standard deviation is `t`.

    With mean m and deviation d of q, the constraint (m - 1/2) - t d = 0 equals
    sum_i q_i g_i = 0 for g_i = a_i - 1/2 - t ((a_i - m)^2 + d^2) / (2 d), whose
    gradient is that of the constraint: so q = p / (1 + lam g), g taken at the q of
    the round before, until q settles.
    """
    # Start from p mixed with the even spread: after a few pairs p may be nearly all one
    # outcome, whose tiny deviation puts every g_i on one side of 0 (no root). A round
    # that meets that mixes its start further toward the even spread.
    even = 1 / len(scores)
    q = [(p_i + even) / 2 for p_i in p]
    for _ in range(_ROUNDS):
        mean, variance = mean_and_variance(scores, q)
        deviation = math.sqrt(variance)
        g = [a - 0.5 - t * ((a - mean) ** 2 + variance) / (2 * deviation) for a in scores]
        if min(g) >= 0 or max(g) <= 0:
            q = [(q_i + even) / 2 for q_i in q]
            continue
        following = _constrained(p, g)
        if max(abs(x - y) for x, y in zip(following, q, strict=True)) < 1e-10:
            return following
        q = following
    return q


def t_of_nelo(nelo: float, counts: Sequence[int]) -> float:
    """The t-value (per pair for pentanomial counts, per game for trinomial) of `nelo`.

    A pair's score is the mean of two games: its deviation is a game's over sqrt(2),
    so a pair's t-value is sqrt(2) times a game's.
    """
    per_game = nelo / NELO_PER_T
    return per_game * math.sqrt(2) if len(counts) == len(PAIR_SCORES) else per_game


def llr(counts: Sequence[int], elo0: float, elo1: float, model: Model = "logistic") -> float:
    """The generalized log-likelihood ratio of H1 (elo1) against H0 (elo0) after `counts`."""
    scores = _scores(counts)
    trials = sum(counts)
    if trials == 0:
        return 0.0
    p = frequencies(counts)
    if model == "logistic":
        q0 = likeliest_with_score(p, scores, score_of_elo(elo0))
        q1 = likeliest_with_score(p, scores, score_of_elo(elo1))
    elif model == "normalized":
        q0 = likeliest_with_t(p, scores, t_of_nelo(elo0, counts))
        q1 = likeliest_with_t(p, scores, t_of_nelo(elo1, counts))
    else:
        raise ValueError(f"no Elo model {model!r}: {' or '.join(MODELS)}")
    return trials * sum(p_i * math.log(b / a) for p_i, a, b in zip(p, q0, q1, strict=True))


@dataclass(frozen=True)
class EloInterval:
    """An Elo difference with its 95% interval; None where the score is 0% or 100%."""

    elo: float | None
    low: float | None
    high: float | None


def elo_interval(counts: Sequence[int], model: Model = "logistic") -> EloInterval:
    """NEW's Elo over OLD with a 95% interval, from the observed outcomes.

    Logistic: the mean score +- 1.96 standard errors (of the pair scores, for pentanomial
    counts: the pairs are the independent trials), each end turned into Elo.
    Normalized: the t-value (mean - 1/2) / deviation, in nElo, +- 1.96 its standard
    error 1 / sqrt(trials).
    """
    scores = _scores(counts)
    trials = sum(counts)
    if trials == 0:
        return EloInterval(None, None, None)
    p = [count / trials for count in counts]
    mean, variance = mean_and_variance(scores, p)
    if model == "normalized":
        if variance == 0:
            return EloInterval(None, None, None)
        per_trial = 1 / math.sqrt(2) if len(counts) == len(PAIR_SCORES) else 1.0
        t = (mean - 0.5) / math.sqrt(variance)
        nelo = t * per_trial * NELO_PER_T
        margin = Z95 / math.sqrt(trials) * per_trial * NELO_PER_T
        return EloInterval(nelo, nelo - margin, nelo + margin)
    error = Z95 * math.sqrt(variance / trials)

    def elo(score: float) -> float | None:
        return elo_of_score(score) if 0 < score < 1 else None

    return EloInterval(elo(mean), elo(mean - error), elo(mean + error))


def pair_outcome(new_points: float) -> int:
    """The pentanomial count a pair adds to, by NEW's points in it (0, 0.5, 1, 1.5, 2)."""
    index = round(new_points * 2)
    if not 0 <= index <= 4 or index != new_points * 2:
        raise ValueError(f"a pair scores 0 to 2 in half points, not {new_points}")
    return index
