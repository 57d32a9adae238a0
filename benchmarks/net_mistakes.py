"""A network alone (its top prior, no search) on files of labelled positions: the share of
positions where its choice gives up the result, by the exact solver's labels.

    uv run python benchmarks/net_mistakes.py NET.npz DATA.npz [DATA.npz ...]

DATA files are `c4tui train label`'s (or a self-play run's `positions.npz`). Used to
tell a network's fit (on the positions it was trained on) from its generalisation (on
positions it never saw), and the self-play run's networks from a supervised one on the
same measuring positions (docs/learned-engine.md).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before NumPy loads: one core

import argparse
import sys
from pathlib import Path

from c4tui.engine.learned.accuracy import mistakes
from c4tui.engine.learned.labels import Labelled
from c4tui.engine.learned.network import load


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("network", type=Path)
    parser.add_argument("data", type=Path, nargs="+")
    args = parser.parse_args()
    network = load(args.network)
    print(f"{args.network}: {network.parameters:,} parameters, {network.planes} planes")
    for path in args.data:
        data = Labelled.load(path)
        wrong = mistakes(network, data)
        print(f"{path}: {wrong:,} of {len(data):,} positions ({wrong / max(len(data), 1):.2%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
