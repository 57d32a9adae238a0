"""Glicko-2: a rating with its uncertainty, updated after each rating period.

Mark Glickman's system ("Example of the Glicko-2 system", 2012; the test checks his
worked example): a rating `r` on the Elo-like scale, its deviation `rd` (how uncertain
it is: large for a newcomer, shrinking with games) and a volatility `sigma` (how much
it is expected to move). The puzzle trainer treats each puzzle answered as one game of
its own rating period against the puzzle's rating: a right answer a win, a wrong one a
loss.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's internal scale: (r - 1500) / SCALE
TAU = 0.5  # the system constant: how much the volatility may change
EPSILON = 0.000001  # the volatility iteration's tolerance


@dataclass(frozen=True)
class Rating:
    r: float = 1500.0
    rd: float = 350.0
    sigma: float = 0.06


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi**2)


def expected(player: Rating, opponent: Rating) -> float:
    """The player's expected score against the opponent."""
    mu, mu_j = (player.r - 1500) / SCALE, (opponent.r - 1500) / SCALE
    return 1 / (1 + math.exp(-_g(opponent.rd / SCALE) * (mu - mu_j)))


def update(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The rating after one period of `games`: (opponent, score 1, 0.5 or 0). No games:
    only the deviation grows."""
    mu, phi, sigma = (player.r - 1500) / SCALE, player.rd / SCALE, player.sigma
    if not games:
        return Rating(player.r, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)
    v_inverse, delta_sum = 0.0, 0.0
    for opponent, score in games:
        g = _g(opponent.rd / SCALE)
        e = expected(player, opponent)
        v_inverse += g * g * e * (1 - e)
        delta_sum += g * (score - e)
    v = 1 / v_inverse
    delta = v * delta_sum
    sigma = _volatility(delta, phi, v, sigma, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    return Rating(1500 + SCALE * mu_new, SCALE * phi_new, sigma)


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """The new volatility: the root of Glickman's f by the Illinois algorithm (step 5)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        return top / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)
