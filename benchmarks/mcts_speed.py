"""MCTS speed: iterations per second from the empty 7x6 board, ours against seed notebook 001.

The reference is the MCTS of the seed notebook `001_ca91c0b1853e3317.txt` (in
`../shared/seeds/`), run as it is: its code cells are taken from the text, the cells that
only define things (imports, classes, functions) are executed, and its own iteration
(`find_leaf_node`, `simulate`, `update_rewards`) is repeated from the empty board for a
fixed time. Ours is `MctsEngine` with a time limit, from a fresh tree. The runs
alternate, so that a machine shared with other work slows both alike, and the ratio of
the totals is what to compare (absolute rates vary with the machine's load).

    uv run python benchmarks/mcts_speed.py [--seconds 3] [--rounds 3]

`seed_mcts_rate(seconds)` and `our_mcts_rate(seconds)` can be imported by other
benchmarks; `seed_mcts_rate` raises FileNotFoundError when the notebook is absent.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
import time
from pathlib import Path

from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import Limits
from c4tui.engine.players.mcts import MctsEngine

SEED_NOTEBOOK = (
    Path(__file__).resolve().parents[2] / "shared" / "seeds" / "001_ca91c0b1853e3317.txt"
)
CELL_START = re.compile(r"^In \[\d*\]:\s*$", re.MULTILINE)


def code_cells(text: str) -> list[str]:
    """The code of each `In [n]:` cell: the longest run of lines after it that parses.

    The text export has no end marker for a cell, so the prose that follows one is cut
    off by dropping lines from the end until what is left is valid Python.
    """
    cells = []
    starts = [m.end() for m in CELL_START.finditer(text)]
    ends = [m.start() for m in CELL_START.finditer(text)][1:]
    ends.append(len(text))
    for start, end in zip(starts, ends, strict=True):
        lines = text[start:end].strip("\n").splitlines()
        while lines:
            source = "\n".join(lines)
            try:
                ast.parse(source)
            except SyntaxError:
                lines.pop()
                continue
            cells.append(source)
            break
    return cells


def _defines_only(source: str) -> bool:
    """True for a cell that only imports and defines, so running it costs nothing."""
    allowed = (ast.Import, ast.ImportFrom, ast.ClassDef, ast.FunctionDef)
    return all(isinstance(node, allowed) for node in ast.parse(source).body)


def load_seed_mcts(path: Path = SEED_NOTEBOOK) -> dict:
    """The namespace of the notebook's definitions (Board, MonteCarloNode, ...)."""
    namespace: dict = {"__name__": "seed_notebook_001"}
    for source in code_cells(path.read_text(encoding="utf-8")):
        if _defines_only(source):
            exec(compile(source, f"{path.name}", "exec"), namespace)
    return namespace


def seed_mcts_rate(seconds: float, path: Path = SEED_NOTEBOOK) -> float:
    """Iterations per second of the seed notebook's MCTS from the empty 7x6 board."""
    seed = load_seed_mcts(path)
    root = seed["MonteCarloNode"](seed["Board"](7, 6), None)
    iterations = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        # The notebook's own loop body (mcts_policy): select and expand, play out, back up.
        node = root.find_leaf_node()
        reward = node.simulate()
        node.update_rewards(reward)
        iterations += 1
    return iterations / (time.perf_counter() - start)


def our_mcts_rate(seconds: float, seed: int = 1) -> float:
    """Iterations per second of MctsEngine from the empty 7x6 board, fresh tree."""
    engine = MctsEngine(seed=seed)
    info = engine.search(Position.start(), Limits(time=seconds)).info
    return info.iterations / info.elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per run (default 3)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs of each")
    args = parser.parse_args(argv)
    if not SEED_NOTEBOOK.exists():
        print(f"skipped: seed notebook not found at {SEED_NOTEBOOK}")
        return 0
    seed_rates, our_rates = [], []
    for round_number in range(1, args.rounds + 1):
        seed_rates.append(seed_mcts_rate(args.seconds))
        our_rates.append(our_mcts_rate(args.seconds, seed=round_number))
        print(
            f"round {round_number}: seed {seed_rates[-1]:8,.0f} it/s   "
            f"ours {our_rates[-1]:8,.0f} it/s   ratio {our_rates[-1] / seed_rates[-1]:5.1f}x",
            flush=True,
        )
    seed_mean = sum(seed_rates) / len(seed_rates)
    our_mean = sum(our_rates) / len(our_rates)
    print(
        f"mean:    seed {seed_mean:8,.0f} it/s   ours {our_mean:8,.0f} it/s   "
        f"ratio {our_mean / seed_mean:5.1f}x  (empty 7x6 board, {args.seconds:g} s runs)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
