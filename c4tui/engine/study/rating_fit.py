"""An engine's Elo from its games against opponents of known rating: a maximum-likelihood fit.

The model is the logistic Elo curve: against an opponent rated `o`, a player rated `r`
expects the score `1 / (1 + 10 ** ((o - r) / 400))`. A draw counts as half a win and
half a loss, as the levels' own ratings were fitted (benchmarks/levels.py). The
opponents' ratings are fixed: only the one rating is free, so the log-likelihood is a
concave curve in one variable, and its maximum is found by a safeguarded Newton search.

The interval is the likelihood-ratio one: every rating whose log-likelihood is within
z²/2 of the maximum (1.92 for 95%). With many games it is the familiar estimate ±1.96
standard errors from the Fisher information; with few, it is lopsided as the evidence
is, and after a clean sweep (every game won, or every game lost) it still gives the one
bound the games support while the estimate itself is unbounded.

Games are not always independent coins: the two games of one opening (each side with
each colour) between deterministic engines tend to go alike. Each game may carry a
cluster key (the opening and the opponent); when the games of a cluster vary together
more than independent games would, the interval is widened by that design effect (the
quasi-likelihood correction: the log-likelihood drop allowed is multiplied by it, so
two games that always agree count as one). It is never narrowed.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

ELO_PER_LOGIT = 400 / math.log(10)  # Elo points per unit of the logistic's argument
REACH = 2500.0  # how far beyond the opponents' ratings a rating or a bound is sought
TOLERANCE = 0.01  # Elo: precision of the estimate and of the interval's ends


@dataclass(frozen=True)
class Outcome:
    """One game: the opponent's fixed rating, the score (1 won, 0.5 drawn, 0 lost), and
    the cluster it belongs to (None: a cluster of its own)."""

    opponent: float
    score: float
    cluster: Hashable = None

    def __post_init__(self) -> None:
        if self.score not in (0, 0.5, 1):
            raise ValueError(f"a game scores 0, 0.5 or 1, not {self.score!r}")


@dataclass(frozen=True)
class RatingFit:
    """The fitted rating with its interval.

    `rating` is None when the games cannot place it (a clean sweep: the likelihood
    grows without end); `low`/`high` are None when that side of the interval is
    unbounded. `stderr` is the Fisher information's standard error (Elo) at the
    estimate, before any widening; `dispersion` is the widening factor applied to the
    interval's log-likelihood drop (1: none).
    """

    rating: float | None
    low: float | None
    high: float | None
    games: int
    confidence: float
    stderr: float | None = None
    dispersion: float = 1.0

    @property
    def margin(self) -> float | None:
        """Half the interval's width; None while either end is unbounded."""
        if self.low is None or self.high is None:
            return None
        return (self.high - self.low) / 2

    def guess(self, default: float) -> float:
        """Where the rating most likely is, for choosing opponents: the estimate, else
        the one bound a sweep gives, else `default` (no games yet)."""
        for value in (self.rating, self.low, self.high):
            if value is not None:
                return value
        return default


def expected_score(rating: float, opponent: float) -> float:
    """The score a player rated `rating` expects against one rated `opponent`."""
    return 1 / (1 + math.exp((opponent - rating) / ELO_PER_LOGIT))


def log_likelihood(rating: float, outcomes: Sequence[Outcome]) -> float:
    """How likely the games are for a player of this rating (natural log)."""
    total = 0.0
    for game in outcomes:
        # log p and log(1-p) from the logit directly: no overflow far from the data
        x = (rating - game.opponent) / ELO_PER_LOGIT
        log_win = -_softplus(-x)
        log_loss = -_softplus(x)
        total += game.score * log_win + (1 - game.score) * log_loss
    return total


def _softplus(x: float) -> float:
    """log(1 + e^x), exact for large |x|."""
    return x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))


def fisher_information(rating: float, outcomes: Sequence[Outcome]) -> float:
    """Minus the log-likelihood's second derivative at `rating`, per Elo squared."""
    info = 0.0
    for game in outcomes:
        p = expected_score(rating, game.opponent)
        info += p * (1 - p)
    return info / ELO_PER_LOGIT**2


def _slope(rating: float, outcomes: Sequence[Outcome]) -> float:
    """The log-likelihood's derivative (per Elo): the score's surplus over expectation."""
    return sum(g.score - expected_score(rating, g.opponent) for g in outcomes) / ELO_PER_LOGIT


def fit_rating(outcomes: Iterable[Outcome], confidence: float = 0.95) -> RatingFit:
    """The maximum-likelihood rating of the games' player, with its interval (see the
    module docstring)."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie between 0 and 1, not {confidence!r}")
    games = list(outcomes)
    if not games:
        return RatingFit(None, None, None, 0, confidence)
    z = NormalDist().inv_cdf((1 + confidence) / 2)
    low_end = min(g.opponent for g in games) - REACH
    high_end = max(g.opponent for g in games) + REACH
    total = sum(g.score for g in games)
    if total in (0, len(games)):
        # A clean sweep: the likelihood rises towards one end without a maximum; its
        # supremum there is 1 (log 0), so the bound is where the drop reaches z²/2.
        drop = z * z / 2
        bound = _crossing(games, -drop, low_end, high_end)
        if total == 0:
            return RatingFit(None, None, bound, len(games), confidence)
        return RatingFit(None, bound, None, len(games), confidence)
    rating = _maximum(games, low_end, high_end)
    info = fisher_information(rating, games)
    dispersion = max(1.0, _design_effect(rating, games))
    floor = log_likelihood(rating, games) - dispersion * z * z / 2
    low = _crossing(games, floor, low_end, rating)
    high = _crossing(games, floor, rating, high_end)
    return RatingFit(rating, low, high, len(games), confidence, 1 / math.sqrt(info), dispersion)


def _maximum(games: Sequence[Outcome], low: float, high: float) -> float:
    """The rating where the slope is zero: Newton's steps kept inside a shrinking
    bracket (the slope falls as the rating rises, so the bracket always holds it)."""
    rating = (low + high) / 2
    for _ in range(200):
        slope = _slope(rating, games)
        if slope == 0:
            return rating
        if slope > 0:
            low = rating
        else:
            high = rating
        info = fisher_information(rating, games)
        guess = rating + slope / info if info > 0 else math.inf
        if abs(guess - rating) < TOLERANCE / 10 or high - low < TOLERANCE / 10:
            return min(max(guess, low), high)
        rating = guess if low < guess < high else (low + high) / 2
    return rating


def _crossing(games: Sequence[Outcome], level: float, low: float, high: float) -> float | None:
    """The rating between `low` and `high` where the log-likelihood crosses `level`
    (it is above at one end, below at the other), by bisection; None when it does
    not cross there (the bound lies beyond REACH: unbounded for any purpose)."""
    low_above = log_likelihood(low, games) >= level
    if low_above == (log_likelihood(high, games) >= level):
        return None
    while high - low > TOLERANCE:
        middle = (low + high) / 2
        if (log_likelihood(middle, games) >= level) == low_above:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def _design_effect(rating: float, games: Sequence[Outcome]) -> float:
    """How much more the clusters' summed surpluses spread than their games' own would
    if the games were independent: the summed squares of each cluster's score surplus
    over the summed squares of each game's. 1 when every game is a cluster of its own
    (or the games of a cluster vary independently), 2 when the two games of every
    cluster always agree. Both sums are the games' own spread, so the figure does not
    depend on how noisy one game is (a draw is less noisy than a coin)."""
    surplus: dict[object, float] = {}
    squares = 0.0
    for index, game in enumerate(games):
        key = ("game", index) if game.cluster is None else ("cluster", game.cluster)
        residual = game.score - expected_score(rating, game.opponent)
        surplus[key] = surplus.get(key, 0.0) + residual
        squares += residual * residual
    if squares == 0:
        return 1.0
    return sum(value * value for value in surplus.values()) / squares
