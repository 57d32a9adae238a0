"""The SPRT's error rates and lengths, measured on simulated engines: pentanomial against trinomial.

The simulated engines: NEW and OLD play pairs of games from openings that favour the
first player by a bias drawn from `BIASES` (in Elo, the same for both games of a pair),
each game drawn from the BayesElo model (win 1 / (1 + 10^((draw_elo - d) / 400)), loss
the same with -d, a draw otherwise; d the rating difference, colour bias included).
NEW's rating edge is calibrated so that its expected score (logistic) or its t-value
(normalized) is exactly the Elo asked for: at `elo0` an accepted H1 is a false positive,
at `elo1` an accepted H0 a false negative.

Each run draws pairs until the pentanomial test stops (the sprt statistics, checked
after every pair); the same stream of games, counted game by game, feeds the trinomial
test until it stops too, so the two are compared on the same engines. A run that has
not stopped after `--most` pairs counts as undecided.

    nice uv run python benchmarks/sprt_errors.py [--runs 10000] [--seed 1]
        [--elo0 0] [--elo1 50] [--alpha 0.05] [--beta 0.05] [--model logistic]
"""

from __future__ import annotations

import argparse
import math
import random
import time
from bisect import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate

from c4tui.tournament.sprt import (
    MODELS,
    NELO_PER_T,
    PAIR_SCORES,
    Model,
    llr,
    mean_and_variance,
    score_of_elo,
    verdict,
)

BIASES = (-150.0, 0.0, 0.0, 150.0, 300.0)  # openings' first-move edge, in Elo
DRAW_ELO = 200.0


def game_probabilities(edge: float, draw_elo: float = DRAW_ELO) -> tuple[float, float, float]:
    """NEW's loss, draw and win probabilities with this rating edge (BayesElo)."""
    win = score_of_elo(edge - draw_elo)
    loss = score_of_elo(-edge - draw_elo)
    return loss, 1 - win - loss, win


def pair_probabilities(edge: float, biases: Sequence[float] = BIASES) -> list[float]:
    """The pentanomial distribution of NEW's pair score (0, 1/2, ..., 2 points)."""
    pair = [0.0] * 5
    for bias in biases:
        first = game_probabilities(edge + bias)  # NEW moves first: the bias is its
        second = game_probabilities(edge - bias)
        for i, a in enumerate(first):
            for j, b in enumerate(second):
                pair[i + j] += a * b / len(biases)
    return pair


def elo_of_pairs(pair: Sequence[float], model: Model) -> float:
    """The Elo (logistic or normalized) a pentanomial distribution has."""
    mean, variance = mean_and_variance(PAIR_SCORES, pair)
    if model == "logistic":
        return -400 * math.log10(1 / mean - 1)
    return (mean - 0.5) / math.sqrt(2 * variance) * NELO_PER_T


def edge_for(elo: float, model: Model, biases: Sequence[float] = BIASES) -> float:
    """The BayesElo edge that gives NEW exactly `elo` (bisection: Elo grows with edge)."""
    low, high = -2000.0, 2000.0
    for _ in range(100):
        middle = (low + high) / 2
        if elo_of_pairs(pair_probabilities(middle, biases), model) < elo:
            low = middle
        else:
            high = middle
    return (low + high) / 2


@dataclass
class Runs:
    """How the runs of one test ended."""

    h1: int = 0
    h0: int = 0
    undecided: int = 0
    games: int = 0

    @property
    def runs(self) -> int:
        return self.h1 + self.h0 + self.undecided


def simulate(
    true_elo: float,
    args: argparse.Namespace,
    rng: random.Random,
) -> tuple[Runs, Runs]:
    """`args.runs` runs of both tests on engines `true_elo` apart: (pentanomial, trinomial)."""
    edge = edge_for(true_elo, args.model)
    # Cumulative game probabilities for each opening, NEW first and NEW second.
    games = [
        (
            list(accumulate(game_probabilities(edge + b))),
            list(accumulate(game_probabilities(edge - b))),
        )
        for b in BIASES
    ]
    penta_runs, tri_runs = Runs(), Runs()

    def judge(counts: list[int]) -> str | None:
        return verdict(llr(counts, args.elo0, args.elo1, args.model), args.alpha, args.beta)

    for _ in range(args.runs):
        penta, tri = [0] * 5, [0] * 3
        penta_done: str | None = None
        tri_done: str | None = None
        pairs = 0
        while (penta_done is None or tri_done is None) and pairs < args.most:
            first, second = games[rng.randrange(len(games))]
            a = min(bisect(first, rng.random()), 2)
            b = min(bisect(second, rng.random()), 2)
            pairs += 1
            if penta_done is None:
                penta[a + b] += 1
                penta_done = judge(penta)
                if penta_done is not None:
                    _count(penta_runs, penta_done, 2 * pairs)
            if tri_done is None:
                tri[a] += 1
                tri[b] += 1
                tri_done = judge(tri)
                if tri_done is not None:
                    _count(tri_runs, tri_done, 2 * pairs)
        for done, runs in ((penta_done, penta_runs), (tri_done, tri_runs)):
            if done is None:
                runs.undecided += 1
                runs.games += 2 * pairs
    return penta_runs, tri_runs


def _count(runs: Runs, done: str, games: int) -> None:
    runs.games += games
    if done == "H1":
        runs.h1 += 1
    else:
        runs.h0 += 1


def error_rate(wrong: int, runs: int) -> str:
    """A rate with its binomial standard error: '4.87% ± 0.22%'."""
    rate = wrong / runs
    return f"{rate:.2%} ± {math.sqrt(rate * (1 - rate) / runs):.2%}"


def main(argv: Sequence[str] | None = None, out: Callable[[str], None] = print) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=50.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--model", choices=MODELS, default="logistic")
    parser.add_argument("--most", type=int, default=100_000, help="pairs before a run is undecided")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    out(
        f"{args.runs:,} runs each, {args.model} Elo, elo0 {args.elo0:g}, elo1 {args.elo1:g}, "
        f"alpha {args.alpha:g}, beta {args.beta:g}, seed {args.seed}; openings' biases "
        f"{', '.join(f'{b:+g}' for b in BIASES)} Elo, draw_elo {DRAW_ELO:g}"
    )
    out(
        f"{'true Elo':>9} {'test':>11} {'accepted H1':>18} {'accepted H0':>18} "
        f"{'undecided':>9} {'mean games':>10}"
    )
    for true_elo, wrong in ((args.elo0, "h1"), (args.elo1, "h0")):
        start = time.perf_counter()
        penta, tri = simulate(true_elo, args, rng)
        for name, runs in (("pentanomial", penta), ("trinomial", tri)):
            h1 = error_rate(runs.h1, runs.runs) if wrong == "h1" else f"{runs.h1 / runs.runs:.2%}"
            h0 = error_rate(runs.h0, runs.runs) if wrong == "h0" else f"{runs.h0 / runs.runs:.2%}"
            out(
                f"{true_elo:>9g} {name:>11} {h1:>18} {h0:>18} {runs.undecided:>9,} "
                f"{runs.games / runs.runs:>10,.0f}"
            )
        out(f"{'':>9} ({time.perf_counter() - start:.0f} s)")
    out(
        "The error rate is the accepted H1 at elo0 (at most alpha) and the accepted H0 at "
        "elo1 (at most beta), ± one standard error of the simulation."
    )


if __name__ == "__main__":
    main()
