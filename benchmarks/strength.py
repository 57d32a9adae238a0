"""Strength of every engine: the share of its moves that keep the game-theoretic result.

The positions and their solved outcomes come from `mcts_strength.py` (random play from a
fixed seed, never a finished game; every column's win/draw/loss from the exact solver,
cached). A move keeps the result when its outcome equals the best column's. Many random
positions leave no choice that matters (every column wins, or every column loses), so
the share is also given over the *decisive* positions only: those where at least one
legal column would throw the result away. Intervals are 95% Wilson score intervals.

Each engine plays every position once from a fresh game (`new_game()`), seeded.

    uv run python benchmarks/strength.py [--positions 200] [--time 0.1] [--json] [SPEC ...]

Default specs: random, greedy, and flat, mcts and negamax at `--time` seconds a move,
and perfect (which should keep every result: a check of the method).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mcts_strength import random_positions, solved_outcomes

from c4tui.engine.players.specs import make_engine


@dataclass
class Strength:
    spec: str
    positions: int
    kept: int
    decisive: int
    kept_decisive: int
    seconds_per_move: float

    @property
    def share(self) -> float:
        return self.kept / self.positions

    @property
    def decisive_share(self) -> float | None:
        return self.kept_decisive / self.decisive if self.decisive else None


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (sane at 0% and 100%)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    return (
        max(0.0, centre - half / (1 + z * z / trials)),
        min(1.0, centre + half / (1 + z * z / trials)),
    )


def measure(spec: str, positions, outcomes: dict, seed: int) -> Strength:
    engine = make_engine(spec, seed=seed)
    kept = decisive = kept_decisive = 0
    seconds = 0.0
    for position in positions:
        columns = outcomes[position.to_moves()]
        legal = [o for o in columns if o is not None]
        best = max(legal)
        engine.new_game()
        start = time.perf_counter()
        move = engine.search(position).move
        seconds += time.perf_counter() - start
        keeps = columns[move] == best
        kept += keeps
        if min(legal) < best:
            decisive += 1
            kept_decisive += keeps
    return Strength(spec, len(positions), kept, decisive, kept_decisive, seconds / len(positions))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="*", metavar="SPEC")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--time", type=float, default=0.1, help="budget of the default specs")
    parser.add_argument("--max-moves", type=int, default=30, help="longest random opening")
    parser.add_argument("--position-seed", type=int, default=2024)
    parser.add_argument("--seed", type=int, default=1, help="engine seed")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/c4tui-mcts-strength.json"))
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args(argv)
    t = f"{args.time:g}"
    specs = args.specs or [
        "random",
        "greedy",
        f"flat:time={t}",
        f"mcts:time={t}",
        f"negamax:time={t}",
        "perfect",
    ]
    positions = random_positions(args.positions, args.position_seed, args.max_moves)
    started = time.perf_counter()
    outcomes = solved_outcomes(positions, args.cache)
    solve_seconds = time.perf_counter() - started
    results = [measure(spec, positions, outcomes, args.seed) for spec in specs]
    if args.json:
        rows = [
            {**asdict(r), "share": r.share, "decisive_share": r.decisive_share} for r in results
        ]
        print(json.dumps({"positions": len(positions), "results": rows}))
        return 0
    print(
        f"{len(positions)} random positions (seed {args.position_seed}, up to "
        f"{args.max_moves} moves), solved in {solve_seconds:.1f} s; "
        f"{results[0].decisive} decisive"
    )
    print(f"{'engine':<24} {'keeps result':>22} {'on decisive':>22} {'s/move':>8}")
    for r in results:
        low, high = wilson(r.kept, r.positions)
        all_text = f"{r.share:6.1%} [{low:.0%}-{high:.0%}]"
        if r.decisive:
            dlow, dhigh = wilson(r.kept_decisive, r.decisive)
            decisive_text = f"{r.decisive_share:6.1%} [{dlow:.0%}-{dhigh:.0%}]"
        else:
            decisive_text = "-"
        print(f"{r.spec:<24} {all_text:>22} {decisive_text:>22} {r.seconds_per_move:8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
