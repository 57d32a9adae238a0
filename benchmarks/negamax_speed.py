"""NegaMax speed: nodes per second and the depth reached in a fixed time, on middle games.

Ours is `NegamaxEngine` with a time limit (fresh transposition table per position).
The reference, run in the same process right after it on the same position, is the
seed notebook's plain NegaMax made runnable: depth-limited negamax over `Position`
objects, no pruning, no table, the streak heuristic (weights 1, 8, 128, 99999 for 1 to
4 stones of a window) counted cell by cell, deepened one ply at a time until the time
is up. Absolute rates depend on the machine and its load; compare the ratios.

    uv run python benchmarks/negamax_speed.py [--seconds 1]
"""

from __future__ import annotations

import argparse
import time

from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import Limits
from c4tui.engine.players.negamax import NegamaxEngine

# (moves, width, height, connect): middle games, none with a win in one on the board.
POSITIONS = [
    ("4453", 7, 6, 4),
    ("356442334", 7, 6, 4),
    ("44455345", 7, 6, 4),
    ("4445345643425", 7, 6, 4),
    ("4434355544645", 7, 6, 4),
    ("56455665", 10, 10, 6),
]
STREAK_WEIGHTS = (0, 1, 8, 128, 99999)


class TimeUp(Exception):
    pass


class SeedNegamax:
    """The seed's algorithm, with no speed-ups: the yardstick for ours."""

    def __init__(self, seconds: float) -> None:
        self.deadline = time.perf_counter() + seconds
        self.nodes = 0

    def streaks(self, pos: Position, player: int) -> int:
        """The seed's streak score: every window holding only `player`'s stones, weighted."""
        n = pos.connect
        total = 0
        for col in range(pos.width):
            for row in range(pos.height):
                for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_col, end_row = col + dc * (n - 1), row + dr * (n - 1)
                    if not (0 <= end_col < pos.width and 0 <= end_row < pos.height):
                        continue
                    owners = [pos.cell(col + i * dc, row + i * dr) for i in range(n)]
                    if (1 - player) not in owners:
                        total += STREAK_WEIGHTS[min(owners.count(player), 4)]
        return total

    def negamax(self, pos: Position, depth: int) -> int:
        self.nodes += 1
        if self.nodes % 256 == 0 and time.perf_counter() > self.deadline:
            raise TimeUp
        if pos.winner() is not None:
            return -STREAK_WEIGHTS[4]
        if depth == 0 or pos.is_draw():
            return self.streaks(pos, pos.to_move) - self.streaks(pos, 1 - pos.to_move)
        return max(-self.negamax(pos.play(c), depth - 1) for c in pos.legal_moves())

    def deepen(self, pos: Position) -> int:
        """The last depth fully searched before the time ran out."""
        depth = 0
        try:
            while depth < pos.geometry.cells - pos.moves:
                for col in pos.legal_moves():
                    self.negamax(pos.play(col), depth)
                depth += 1
        except TimeUp:
            pass
        return depth


def measure(seconds: float) -> list[dict]:
    rows = []
    for moves, width, height, connect in POSITIONS:
        pos = Position.from_moves(moves, width, height, connect)
        ours = NegamaxEngine(seed=1).search(pos, Limits(time=seconds)).info
        start = time.perf_counter()
        seed = SeedNegamax(seconds)
        seed_depth = seed.deepen(pos)
        seed_elapsed = time.perf_counter() - start
        rows.append(
            {
                "position": f"{moves} ({width}x{height} c{connect})",
                "depth": ours.depth,
                "nodes": ours.nodes,
                "rate": ours.rate,
                "seed_depth": seed_depth,
                "seed_rate": seed.nodes / seed_elapsed,
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per search")
    args = parser.parse_args()
    rows = measure(args.seconds)
    header = (
        f"{'position':<24} {'depth':>5} {'nodes':>8} {'nodes/s':>8} "
        f"{'seed depth':>10} {'seed nodes/s':>12} {'rate ratio':>10}"
    )
    print(f"NegaMax in {args.seconds:g} s per position: ours against the seed's plain NegaMax")
    print(header)
    print("-" * len(header))
    for row in rows:
        print(
            f"{row['position']:<24} {row['depth']:>5} {row['nodes']:>8} {row['rate']:>8.0f} "
            f"{row['seed_depth']:>10} {row['seed_rate']:>12.0f} "
            f"{row['rate'] / row['seed_rate']:>9.1f}x"
        )
    total_ours = sum(row["rate"] for row in rows) / len(rows)
    total_seed = sum(row["seed_rate"] for row in rows) / len(rows)
    mean_gain = sum(row["depth"] - row["seed_depth"] for row in rows) / len(rows)
    print(
        f"mean rate ratio {total_ours / total_seed:.1f}x; "
        f"ours reaches {mean_gain:+.1f} plies deeper on average"
    )


if __name__ == "__main__":
    main()
