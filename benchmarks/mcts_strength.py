"""MCTS strength: how often an engine's move keeps the game-theoretic result.

Positions come from random play on 7x6 (a random number of uniformly random moves, from
a fixed seed, never a finished game). The exact solver gives every column's outcome;
a move *keeps the result* when its outcome (win, draw or loss) equals the best
column's. The engine plays each position once, as `c4tui move - --engine SPEC --seed 1`
does: one engine object for all positions, in order.

    uv run python benchmarks/mcts_strength.py [--positions 200] [SPEC ...]

Default specs: `mcts:time=0.15` and the greedy player as a baseline; `--seed-time 0.15`
adds the MCTS of seed notebook 001 (see `mcts_speed.py`) on the same positions. Solved positions
are cached in a JSON file (`--cache`), as solving early positions takes a while.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from mcts_speed import SEED_NOTEBOOK, load_seed_mcts

from c4tui.engine.board.position import Position
from c4tui.engine.players.specs import make_engine
from c4tui.engine.solver import analyze


def random_positions(count: int, seed: int, max_moves: int) -> list[Position]:
    """Positions after 0..max_moves random moves, never finished, all different."""
    rng = random.Random(seed)
    seen: set[Position] = set()
    positions = []
    while len(positions) < count:
        length = rng.randint(0, max_moves)
        position = Position.start()
        for _ in range(length):
            after = position.play(rng.choice(position.legal_moves()))
            if after.is_over():
                break
            position = after
        if position not in seen:
            seen.add(position)
            positions.append(position)
    return positions


def outcome(score: int | None) -> int | None:
    return None if score is None else (score > 0) - (score < 0)


def solved_outcomes(positions: list[Position], cache: Path) -> dict[str, list[int | None]]:
    """The outcome (1, 0, -1, None when full) of every column of every position."""
    known = json.loads(cache.read_text()) if cache.exists() else {}
    for position in positions:
        moves = position.to_moves()
        if moves not in known:
            known[moves] = [outcome(s) for s in analyze(position, weak=True)]
    cache.write_text(json.dumps(known))
    return known


def kept_share(
    choose: Callable[[Position], int],
    positions: list[Position],
    outcomes: dict,
    misses: list[str] | None = None,
) -> float:
    """The share of positions where `choose`'s column has the best outcome; the
    positions it missed are appended to `misses` (with the column played)."""
    kept = 0
    for position in positions:
        columns = outcomes[position.to_moves()]
        best = max(o for o in columns if o is not None)
        column = choose(position)
        kept += columns[column] == best
        if misses is not None and columns[column] != best:
            misses.append(f"{position.to_moves()} played {column + 1} outcomes {columns}")
    return kept / len(positions)


def engine_chooser(spec: str, seed: int) -> Callable[[Position], int]:
    """One engine for every position, in order, as `c4tui move -` uses it."""
    engine = make_engine(spec, seed=seed)
    return lambda position: engine.search(position).move


def seed_chooser(seconds: float) -> Callable[[Position], int]:
    """The seed notebook 001's MCTS policy, run on its own board class."""
    notebook = load_seed_mcts()
    policy = notebook["mcts_policy"](seconds)

    def choose(position: Position) -> int:
        board = notebook["Board"](position.width, position.height)
        for col in position.path:
            board.play(col)
        return policy(board)

    return choose


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="*", default=["mcts:time=0.15", "greedy"])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--max-moves", type=int, default=30, help="longest random opening")
    parser.add_argument("--position-seed", type=int, default=2024)
    parser.add_argument("--seed", type=int, default=1, help="engine seed")
    parser.add_argument(
        "--seed-time", type=float, help="also run the seed notebook's MCTS, seconds a move"
    )
    parser.add_argument("--cache", type=Path, default=Path("/tmp/c4tui-mcts-strength.json"))
    parser.add_argument(
        "--misses", action="store_true", help="list the positions each engine missed"
    )
    args = parser.parse_args(argv)
    positions = random_positions(args.positions, args.position_seed, args.max_moves)
    started = time.perf_counter()
    outcomes = solved_outcomes(positions, args.cache)
    print(f"{len(positions)} positions solved in {time.perf_counter() - started:.1f} s")
    bests = [max(o for o in outcomes[p.to_moves()] if o is not None) for p in positions]
    print(f"side to move wins {bests.count(1)}, draws {bests.count(0)}, loses {bests.count(-1)}")
    players = [(spec, engine_chooser(spec, args.seed)) for spec in args.specs]
    if args.seed_time is not None and SEED_NOTEBOOK.exists():
        players.append((f"seed notebook 001, {args.seed_time:g} s", seed_chooser(args.seed_time)))
    for name, choose in players:
        started, cpu = time.perf_counter(), time.process_time()
        misses: list[str] = []
        share = kept_share(choose, positions, outcomes, misses)
        print(
            f"{name:<28} keeps the result in {share:6.1%}  ({time.perf_counter() - started:.0f} s,"
            f" CPU {time.process_time() - cpu:.0f} s, load {os.getloadavg()[0]:.1f})"
        )
        if args.misses:
            print("".join(f"  missed: {line}\n" for line in misses), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
