"""Game pairs per second of `c4tui sprt`'s games, with and without solver adjudication.

Plays the same pairs (the sprt run's tasks for a seed) with the solver adjudicating at
`--adjudicate` empty cells and with every game played out, in one process (wall and CPU
seconds: on a machine others are using, CPU seconds say more) and in `--jobs` worker
processes (wall seconds). Prints pairs per second and what adjudication saved.

    nice uv run python benchmarks/pair_throughput.py [--new level:5] [--old level:4]
        [--pairs 100] [--adjudicate 20] [--jobs 2] [--seed 1] [--local-cluster]
"""

from __future__ import annotations

import argparse
import os
import time

from c4tui.tournament.cluster import ClusterRunner
from c4tui.tournament.games import play_game
from c4tui.tournament.openings import DEFAULT_SUITE, OpeningSuite, load_openings
from c4tui.tournament.sprt_run import Settings, SprtState, pair_tasks
from c4tui.tournament.workers import GameRunner

WARM_PAIRS = 5


def tasks(args: argparse.Namespace, adjudicate: int) -> list:
    settings = Settings(
        args.new, args.old, 0.0, 5.0, 0.05, 0.05, "logistic", args.seed,
        DEFAULT_SUITE, adjudicate, 2 * args.pairs,
    )  # fmt: skip
    suite = OpeningSuite(load_openings(settings.openings), settings.seed)
    return list(pair_tasks(SprtState(settings), suite))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--new", default="level:5")
    parser.add_argument("--old", default="level:4")
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--adjudicate", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--local-cluster",
        action="store_true",
        help="also on a local Dask cluster of --jobs worker processes (c4tui[cluster])",
    )
    args = parser.parse_args()
    print(
        f"{args.new} vs {args.old}, {args.pairs} pairs from {DEFAULT_SUITE}, seed {args.seed}; "
        f"load average {os.getloadavg()[0]:.1f} at the start"
    )
    print(
        f"{'adjudicate':>10} {'jobs':>4} {'wall s':>7} {'CPU s':>7} {'pairs/s':>8} "
        f"{'pairs/CPU s':>11} {'plies':>7}"
    )
    # Untimed first: the book's pages, the solver's table and the engines' code warm up,
    # so the first row timed does not pay for the second.
    for adjudicate in (args.adjudicate, 0):
        for task in tasks(args, adjudicate)[: 2 * WARM_PAIRS]:
            play_game(task)
    for adjudicate in (args.adjudicate, 0):
        games = tasks(args, adjudicate)
        wall, cpu = time.perf_counter(), time.process_time()
        played = [play_game(task) for task in games]
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        plies = sum(len(game.moves) for game in played)
        print(
            f"{adjudicate or 'off':>10} {1:>4} {wall:>7.1f} {cpu:>7.1f} "
            f"{args.pairs / wall:>8.2f} {args.pairs / cpu:>11.2f} {plies:>7,}"
        )
        wall = time.perf_counter()
        with GameRunner(games, args.jobs) as runner:
            pooled = list(runner)
        wall = time.perf_counter() - wall
        # Engines on a clock (the levels' solver has 0.5 s a move) may play otherwise
        # when the machine is loaded: count the games that came out differently.
        alike = {g.task.index: g.moves for g in played}
        other = sum(alike[g.task.index] != g.moves for g in pooled)
        print(
            f"{adjudicate or 'off':>10} {args.jobs:>4} {wall:>7.1f} {'':>7} "
            f"{args.pairs / wall:>8.2f}   ({other} of {len(pooled)} games played otherwise "
            "than in one process)"
        )
        if args.local_cluster:
            on_cluster(args, games, played, adjudicate)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


def on_cluster(args: argparse.Namespace, games: list, played: list, adjudicate: int) -> None:
    """The same games on a local Dask cluster of --jobs worker processes, timed from the
    first batch sent (the cluster's start is not counted)."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=args.jobs, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        wall = time.perf_counter()
        with ClusterRunner(games, cluster.scheduler_address) as runner:
            pooled = list(runner)
        wall = time.perf_counter() - wall
    alike = {g.task.index: g.moves for g in played}
    other = sum(alike[g.task.index] != g.moves for g in pooled)
    print(
        f"{adjudicate or 'off':>10} {'dask ' + str(args.jobs):>4} {wall:>7.1f} {'':>7} "
        f"{args.pairs / wall:>8.2f}   ({other} of {len(pooled)} games played otherwise)"
    )


if __name__ == "__main__":
    main()
