"""The learned engine against perfect play: mistakes on Pascal Pons's six test sets.

For each test set (`Test_L1_R1` ... `Test_L3_R1`, read where they lie, never copied)
the exact solver gives every column's score; each engine plays each position once, as
`c4tui move POSITION --engine SPEC` does. Two shares of mistakes are printed:
- "result": the move gives up the position's result (a win or a draw);
- "score": the move's exact score is below the best column's (a slower win counts).
And the time of one network evaluation on one core (process time, BLAS on one thread).

    OPENBLAS_NUM_THREADS=1 uv run python benchmarks/learned_engine.py \
        --sets ../shared/testsets/pons [--positions 1000] [SPEC ...]

Default specs: `alphazero:sims=0` and `alphazero:sims=64` (the shipped network; add
`,net=FILE` for another). The sets' column scores are cached in a JSON file (`--cache`).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before NumPy loads: one core

import argparse
import json
import sys
import time
from pathlib import Path

from c4tui.engine.board.position import Position
from c4tui.engine.players.specs import make_engine
from c4tui.engine.solver import analyze

SETS = {
    "Test_L3_R1": "End-Easy",
    "Test_L2_R1": "Middle-Easy",
    "Test_L2_R2": "Middle-Medium",
    "Test_L1_R1": "Beginning-Easy",
    "Test_L1_R2": "Beginning-Medium",
    "Test_L1_R3": "Beginning-Hard",
}


def column_scores(
    sets: Path, name: str, count: int, cache: Path
) -> list[tuple[str, list[int | None]]]:
    """The first `count` positions of a set with every column's exact score."""
    known: dict[str, list[int | None]] = json.loads(cache.read_text()) if cache.exists() else {}
    lines = (sets / name).read_text().split("\n")
    moves = [line.split()[0] for line in lines if line.strip()][:count]
    fresh = False
    for text in moves:
        if text not in known:
            known[text] = analyze(Position.from_moves(text))
            fresh = True
    if fresh:
        cache.write_text(json.dumps(known))
    return [(text, known[text]) for text in moves]


def mistakes(
    spec: str, positions: list[tuple[str, list[int | None]]]
) -> tuple[float, float, float]:
    """(share losing the result, share below the best score, seconds a move)."""
    engine = make_engine(spec, seed=1)
    lost = below = 0
    started = time.process_time()
    for text, scores in positions:
        engine.new_game()
        move = engine.search(Position.from_moves(text)).move
        best = max(s for s in scores if s is not None)
        got = scores[move]
        assert got is not None
        lost += (got > 0) - (got < 0) < (best > 0) - (best < 0)
        below += got < best
    count = len(positions)
    return lost / count, below / count, (time.process_time() - started) / count


def evaluation_time(spec: str) -> tuple[float, int]:
    """Seconds of process time one network evaluation takes, and the parameters."""
    engine = make_engine(spec)
    position = Position.from_moves("4453")
    network = engine.network_for(position)  # type: ignore[attr-defined]
    network.evaluate(position)
    count = 3000
    started = time.process_time()
    for _ in range(count):
        network.evaluate(position)
    return (time.process_time() - started) / count, network.parameters


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("specs", nargs="*", default=["alphazero:sims=0", "alphazero:sims=64"])
    parser.add_argument("--sets", type=Path, required=True, help="the folder of Pons's test sets")
    parser.add_argument("--positions", type=int, default=1000, help="per set (default all 1000)")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/c4tui-pons-columns.json"))
    args = parser.parse_args()
    seconds, parameters = evaluation_time(args.specs[0])
    print(
        f"one network evaluation: {seconds * 1e6:.0f} µs of process time "
        f"({parameters:,} parameters)"
    )
    print(f"{'test set':<18}" + "".join(f"{spec:>28}" for spec in args.specs))
    print(f"{'':<18}" + "".join(f"{'result / score / s a move':>28}" for _ in args.specs))
    for name, title in SETS.items():
        positions = column_scores(args.sets, name, args.positions, args.cache)
        row = f"{title:<18}"
        for spec in args.specs:
            lost, below, each = mistakes(spec, positions)
            row += f"{lost:>13.1%} / {below:>5.1%} / {each:.3f}"
        print(row, flush=True)
    print(
        f"({args.positions} positions a set, {os.cpu_count()} cores, {time.strftime('%Y-%m-%d')})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
