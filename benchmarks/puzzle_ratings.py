"""Puzzle ratings by difficulty and theme: the figures in the README's "Puzzle ratings".

    uv run python benchmarks/puzzle_ratings.py [--count 40] [--seed 1]

For each difficulty, `--count` puzzles from the finder (`c4tui puzzle --difficulty`),
each rated from the levels' exact chances of finding the answer (puzzle_ratings.py):
the ratings' quartiles, the themes, and each level's mean chance.
"""

from __future__ import annotations

import argparse
import statistics

from c4tui.engine.players.levels import LEVELS
from c4tui.engine.study.puzzle_ratings import THEMES, level_chance
from c4tui.engine.study.puzzles import DIFFICULTIES, find_puzzles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        "| difficulty | puzzles | rating: lower quartile | median | upper quartile | "
        + " | ".join(THEMES)
        + " | "
        + " | ".join(f"L{lv}" for lv in LEVELS)
        + " |"
    )
    print("|---|---:|---:|---:|---:|" + "---:|" * (len(THEMES) + len(LEVELS)))
    for difficulty in DIFFICULTIES:
        puzzles = list(find_puzzles(args.count, args.seed, difficulty))  # type: ignore[arg-type]
        ratings = sorted(p.rating for p in puzzles)
        low, median, high = statistics.quantiles(ratings, n=4)
        themes = [sum(p.theme == t for p in puzzles) for t in THEMES]
        chances = [
            statistics.mean(level_chance(lv, p.position, p.scores) for p in puzzles)
            for lv in LEVELS
        ]
        print(
            f"| {difficulty} | {len(puzzles)} | {low:.0f} | {median:.0f} | {high:.0f} | "
            + " | ".join(map(str, themes))
            + " | "
            + " | ".join(f"{c:.0%}" for c in chances)
            + " |"
        )


if __name__ == "__main__":
    main()
