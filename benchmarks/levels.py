"""The levels' Elo ratings, measured: the ladder played with `c4tui arena`, then fitted.

Each level plays the `--reach` nearest levels above it (both colours of every opening,
from balanced random openings) in `c4tui arena` runs, every game kept as a JSON line.
Openings are 2 plies by default: enough to vary the games, and the longer a game is
played from the start, the more of a level's mistakes show in its result (at 4 plies
the steps between levels come out about a fifth smaller).
The games are fitted by maximum likelihood (the Elo model, a draw counted as half a win
and half a loss, one virtual draw added to each pair so that a clean sweep stays
finite) with level 1 fixed at 1000.

The 95% intervals are cluster-robust ("sandwich") intervals, a cluster being the two
games of one opening in one pair. The plain likelihood curvature would treat every
game as an independent coin: between strong levels most games of an opening pair are
tied to the opening (each side wins the won colour, or both draw), which makes a pair of
games far less noisy than two coins, and draws are less noisy than a coin too. The
sandwich uses the spread the games really show, so it is right in both directions.

It prints each level's rating with its interval, each step between neighbours with
its own interval, and each level's seconds a move as the arena measured them.

    uv run python benchmarks/levels.py [--games 300] [--reach 2] [--openings 2]
                                       [--seed 1] [--jobs 2] [--keep FILE]
    uv run python benchmarks/levels.py --refit FILE   # fit games kept earlier
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from itertools import pairwise
from pathlib import Path

from c4tui.engine.players.levels import LEVELS

ANCHOR = 1000.0
SCALE = 400 / math.log(10)  # Elo points per unit of the logistic's argument
Z95 = 1.96


def play(a: int, b: int, games: int, seed: int, args: argparse.Namespace, keep: Path) -> dict:
    """One arena run of two levels (by their specs, so kept games name what played)."""
    command = [
        sys.executable, "-m", "c4tui", "arena", LEVELS[a], LEVELS[b],
        "--games", str(games), "--openings", str(args.openings),
        "--seed", str(seed), "--jobs", str(args.jobs), "--json", "--save", str(keep),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


LEVEL_OF = {spec: level for level, spec in LEVELS.items()}


def read_games(path: Path, openings: int | None = None) -> list[dict]:
    """The kept games between today's levels: first, second (levels), opening, score.

    Games of a spec that is no level now (an earlier tuning) are left out, and so are
    games from openings of another length when `openings` is given.
    """
    games = []
    lines = path.read_text().splitlines() if path.exists() else []
    for line in lines:
        game = json.loads(line)
        if game["first"] not in LEVEL_OF or game["second"] not in LEVEL_OF:
            continue
        if openings is not None and len(game["opening"]) != openings:
            continue
        score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[game["result"]]
        games.append(
            {
                "first": LEVEL_OF[game["first"]],
                "second": LEVEL_OF[game["second"]],
                "opening": game["opening"],
                "score": score,
            }
        )
    return games


def fit(games: list[dict], levels: list[int]) -> tuple[dict, list[list[float]], list[int]]:
    """Elo by maximum likelihood (Newton's method), the first level fixed at ANCHOR.

    Returns the ratings, the cluster-robust covariance of the free levels' ratings (in
    Elo squared) and the free levels in the covariance's order.
    """
    free = levels[1:]
    index = {level: i for i, level in enumerate(free)}
    # Each game as (a, b, a's score, its cluster: the pair and the opening, both colours
    # alike); a virtual draw per pair, a cluster of its own, keeps sweeps finite.
    observations = [
        (g["first"], g["second"], g["score"],
         (min(g["first"], g["second"]), max(g["first"], g["second"]), g["opening"]))
        for g in games
    ]  # fmt: skip
    pairs = {tuple(sorted((g["first"], g["second"]))) for g in games}
    observations += [(a, b, 0.5, ("virtual", a, b)) for a, b in pairs]
    rating = dict.fromkeys(levels, 0.0)  # logistic units, the anchor at 0

    def direction(a: int, b: int) -> list[float]:
        out = [0.0] * len(free)
        if a in index:
            out[index[a]] += 1.0
        if b in index:
            out[index[b]] -= 1.0
        return out

    hessian: list[list[float]] = []
    for _ in range(100):
        gradient = [0.0] * len(free)
        hessian = [[0.0] * len(free) for _ in free]
        for a, b, score, _cluster in observations:
            expected = 1 / (1 + math.exp(rating[b] - rating[a]))
            d = direction(a, b)
            for i, di in enumerate(d):
                gradient[i] += di * (score - expected)
                for j, dj in enumerate(d):
                    hessian[i][j] += di * dj * expected * (1 - expected)
        step = solve(hessian, gradient)
        for level, i in index.items():
            rating[level] += step[i]
        if max(abs(s) for s in step) < 1e-10:
            break
    # The sandwich: H^-1 (sum over clusters of u u^T) H^-1, u a cluster's summed score.
    clusters: dict[object, list[float]] = defaultdict(lambda: [0.0] * len(free))
    for a, b, score, cluster in observations:
        expected = 1 / (1 + math.exp(rating[b] - rating[a]))
        for i, di in enumerate(direction(a, b)):
            clusters[cluster][i] += di * (score - expected)
    meat = [[sum(u[i] * u[j] for u in clusters.values()) for j in range(len(free))]
            for i in range(len(free))]  # fmt: skip
    bread = invert(hessian)
    covariance = multiply(multiply(bread, meat), bread)
    elo = {level: ANCHOR + SCALE * rating[level] for level in levels}
    covariance_elo = [[SCALE * SCALE * x for x in row] for row in covariance]
    return elo, covariance_elo, free


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix @ x = vector (Gauss-Jordan; the matrix is small and well-posed)."""
    n = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col and rows[col][col]:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [rows[i][n] / rows[i][i] if rows[i][i] else 0.0 for i in range(n)]


def invert(matrix: list[list[float]]) -> list[list[float]]:
    n = len(matrix)
    columns = [solve(matrix, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[columns[j][i] for j in range(n)] for i in range(n)]


def multiply(x: list[list[float]], y: list[list[float]]) -> list[list[float]]:
    return [[sum(x[i][k] * y[k][j] for k in range(len(y))) for j in range(len(y[0]))]
            for i in range(len(x))]  # fmt: skip


def report(games: list[dict], seconds: dict[int, list[tuple[float, int]]]) -> bool:
    """Print the table; True when every step is at least 100 Elo with apart intervals."""
    levels = sorted({g["first"] for g in games} | {g["second"] for g in games})
    elo, covariance, free = fit(games, levels)
    index = {level: i for i, level in enumerate(free)}

    def variance(level: int) -> float:
        return covariance[index[level]][index[level]] if level in index else 0.0

    def half(level: int) -> float:
        return Z95 * math.sqrt(max(variance(level), 0.0))

    print(f"\nlevel  {'spec':<24} {'s/move':>7} {'Elo':>6}  95% interval")
    for level in levels:
        moves = sum(m for _, m in seconds.get(level, [])) or 1
        per_move = sum(s * m for s, m in seconds.get(level, [])) / moves
        timing = f"{per_move:>7.3f}" if seconds.get(level) else f"{'':>7}"
        interval = (
            "(anchor)"
            if level == levels[0]
            else f"{elo[level] - half(level):>5.0f} to {elo[level] + half(level):.0f}"
        )
        print(f"{level:>5}  {LEVELS[level]:<24} {timing} {elo[level]:>6.0f}  {interval}")
    print("\nstep    Elo  95% interval of the step  intervals apart")
    separated = True
    for low, high in pairwise(levels):
        step = elo[high] - elo[low]
        both = variance(low) + variance(high)
        if low in index and high in index:
            both -= 2 * covariance[index[low]][index[high]]
        step_half = Z95 * math.sqrt(max(both, 0.0))
        apart = elo[high] - half(high) > elo[low] + half(low)
        separated &= apart and step >= 100
        print(
            f"{low}->{high:<3} {step:>5.0f}  {step - step_half:>5.0f} to {step + step_half:<5.0f}"
            f"             {'yes' if apart else 'no'}"
        )
    pairs = defaultdict(int)
    for g in games:
        pairs[tuple(sorted((g["first"], g["second"])))] += 1
    print(f"\n{len(games)} games, {min(pairs.values())}-{max(pairs.values())} a pair")
    print("every step at least 100 Elo with intervals apart:", "yes" if separated else "no")
    return separated


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games a pair (both colours)")
    parser.add_argument("--reach", type=int, default=2, help="levels above each it plays")
    parser.add_argument("--openings", type=int, default=2, help="plies of balanced openings")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--keep", type=Path, help="keep the games in this JSON-lines file (and resume from it)"
    )
    parser.add_argument("--refit", type=Path, help="fit the games of this file; play none")
    args = parser.parse_args()
    if args.refit is not None:
        report(read_games(args.refit, args.openings), {})
        return 0
    levels = sorted(LEVELS)
    pairs = [(a, b) for a in levels for b in range(a + 1, a + 1 + args.reach) if b in LEVELS]
    seconds: dict[int, list[tuple[float, int]]] = defaultdict(list)
    with tempfile.TemporaryDirectory() as scratch:
        keep = args.keep or Path(scratch) / "games.jsonl"
        kept = Counter(
            tuple(sorted((g["first"], g["second"]))) for g in read_games(keep, args.openings)
        )
        for a, b in pairs:
            # A kept file resumes: a pair plays only the games it still lacks (even).
            wanted = args.games - kept[(a, b)]
            if wanted <= 0:
                continue
            # A new seed for a resumed pair, or it would replay the games it has.
            seed = args.seed + 7919 * kept[(a, b)]
            run = play(a, b, wanted + wanted % 2, seed, args, keep)
            for pair in run["results"]:
                print(f"{pair['a']} vs {pair['b']}: {pair['a_score']:.1%} of {pair['games']}",
                      flush=True)  # fmt: skip
            for row in run["standings"]:
                seconds[LEVEL_OF[row["engine"]]].append(
                    (row["seconds_per_move"] or 0.0, row["moves"])
                )
        games = read_games(keep, args.openings)
    report(games, seconds)
    print(f"openings of {args.openings} plies, seed {args.seed}, reach {args.reach}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
