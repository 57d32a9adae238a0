"""The levels' Elo ratings, measured: the ladder played with `c4tui arena`, then fitted.

Each level plays its two nearest levels above it (both colours, from balanced random
openings) in `c4tui arena` runs; the results are fitted by maximum likelihood (the Elo
model, a draw counted as half a win and half a loss, one virtual draw added to each pair
so that a clean sweep stays finite) with level 1 fixed at 1000, and
each rating gets a 95% interval from the curvature of the likelihood. It also prints
each level's seconds a move, as the arena measured them.

    uv run python benchmarks/levels.py [--games 20] [--openings 4] [--seed 1] [--jobs 2]

With 20 games a pair the intervals are about +-100 Elo; adjacent levels should be at
least 100 apart and their intervals should not overlap (more games narrow them).
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from collections import defaultdict

from c4tui.engine.levels import LEVELS

ANCHOR = 1000.0
SCALE = 400 / math.log(10)  # Elo points per unit of the logistic's argument


def play(a: str, b: str, args: argparse.Namespace) -> dict:
    """One arena run of two levels; its JSON."""
    command = [
        sys.executable, "-m", "c4tui", "arena", a, b,
        "--games", str(args.games), "--openings", str(args.openings),
        "--seed", str(args.seed), "--jobs", str(args.jobs), "--json",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def fit(results: list[tuple[int, int, float, int]], levels: list[int]) -> tuple[dict, dict]:
    """Elo by maximum likelihood (Newton's method), level 1 fixed; and 95% half-widths.

    `results`: (level a, level b, a's score as a fraction, games).
    """
    free = [level for level in levels if level != levels[0]]
    index = {level: i for i, level in enumerate(free)}
    rating = dict.fromkeys(levels, 0.0)  # logistic units, level 1 at 0
    for _ in range(100):
        gradient = [0.0] * len(free)
        hessian = [[0.0] * len(free) for _ in free]
        for a, b, score, games in results:
            expected = 1 / (1 + math.exp(rating[b] - rating[a]))
            weight = games * expected * (1 - expected)
            for level, sign in ((a, 1), (b, -1)):
                if level in index:
                    gradient[index[level]] += sign * games * (score - expected)
            for x in (a, b):
                for y in (a, b):
                    if x in index and y in index:
                        hessian[index[x]][index[y]] += weight * (1 if x == y else -1)
        step = solve(hessian, gradient)
        for level, i in index.items():
            rating[level] += step[i]
        if max(abs(s) for s in step) < 1e-9:
            break
    covariance = invert(hessian)
    elo = {level: ANCHOR + SCALE * rating[level] for level in levels}
    half = {levels[0]: 0.0}
    for level, i in index.items():
        half[level] = 1.96 * SCALE * math.sqrt(max(covariance[i][i], 0.0))
    return elo, half


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games a pair (both colours)")
    parser.add_argument("--openings", type=int, default=4, help="plies of balanced openings")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    levels = sorted(LEVELS)
    pairs = [(a, b) for a in levels for b in (a + 1, a + 2) if b in LEVELS]
    results: list[tuple[int, int, float, int]] = []
    seconds: dict[int, list[tuple[float, int]]] = defaultdict(list)
    for a, b in pairs:
        run = play(f"level:{a}", f"level:{b}", args)
        for pair in run["results"]:
            first, second = (int(pair[k].split(":")[1]) for k in ("a", "b"))
            # One virtual drawn game a pair keeps a clean sweep's rating finite.
            games = pair["games"] + 1
            score = (pair["a_score"] * pair["games"] + 0.5) / games
            results.append((first, second, score, games))
            print(
                f"level {first} vs level {second}: {pair['a_score']:.0%} of {pair['games']}",
                flush=True,
            )
        for row in run["standings"]:
            level = int(row["engine"].split(":")[1])
            seconds[level].append((row["seconds_per_move"] or 0.0, row["moves"]))
    elo, half = fit(results, levels)
    print(f"\nlevel  {'spec':<24} {'s/move':>7} {'Elo':>6}  95% interval")
    for level in levels:
        moves = sum(m for _, m in seconds[level]) or 1
        per_move = sum(s * m for s, m in seconds[level]) / moves
        low, high = elo[level] - half[level], elo[level] + half[level]
        print(
            f"{level:>5}  {LEVELS[level]:<24} {per_move:>7.3f} {elo[level]:>6.0f}"
            f"  {low:>5.0f} to {high:.0f}"
        )
    print(f"\n{args.games} games a pair, openings of {args.openings} plies, seed {args.seed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
