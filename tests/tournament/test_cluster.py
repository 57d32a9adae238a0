"""Games on a Dask distributed cluster (tournament/cluster.py): the same games as a local
run for the same seed, in arena and sprt, and a scheduler that is not there."""

from __future__ import annotations

import json

import pytest

from c4tui.cli import main

distributed = pytest.importorskip("distributed")

SPRT = [
    "sprt",
    "greedy",
    "random",
    "--elo1",
    "200",
    "--openings",
    "book:2",
    "--seed",
    "4",
    "--json",
]


def run_json(capsys, argv: list[str]) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def saved_games(path) -> list[tuple[int, str, str]]:
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    return sorted((line["game"], line["moves"], line["result"]) for line in lines)


def cluster(processes: bool) -> distributed.LocalCluster:
    return distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=processes, dashboard_address=None
    )


def same_games_on(address: str, capsys, tmp_path) -> None:
    local = run_json(capsys, [*SPRT, "--jobs", "1"])
    remote = run_json(capsys, [*SPRT, "--cluster", address])
    assert remote == local and local["end"] == "H1"
    # engines without a clock: a level answers from the solver within 0.5 s, so on a loaded
    # machine its moves can differ from one run to the next wherever it plays
    arena = [
        "arena",
        "greedy",
        "random",
        "negamax:depth=3",
        "--games",
        "6",
        "--seed",
        "5",
        "--json",
    ]
    here, there = tmp_path / "here.jsonl", tmp_path / "there.jsonl"
    run_json(capsys, [*arena, "--jobs", "1", "--save", str(here)])
    run_json(capsys, [*arena, "--cluster", address, "--save", str(there)])
    assert saved_games(here) == saved_games(there) and len(saved_games(here)) == 18


@pytest.mark.slow
def test_a_cluster_of_two_workers_plays_the_same_games(capsys, tmp_path):
    with cluster(processes=False) as workers:
        same_games_on(workers.scheduler_address, capsys, tmp_path)


@pytest.mark.slow
def test_a_cluster_of_two_worker_processes_plays_the_same_games(capsys, tmp_path):
    with cluster(processes=True) as workers:
        same_games_on(workers.scheduler_address, capsys, tmp_path)


def test_a_scheduler_that_is_not_there_is_one_line(capsys):
    assert main([*SPRT, "--cluster", "tcp://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err
    assert "--cluster" in err and len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_a_worker_killed_mid_run_loses_only_its_batch(tmp_path):
    import os
    import signal

    from c4tui.tournament.cluster import ClusterRunner
    from c4tui.tournament.games import play_game
    from c4tui.tournament.schedule import schedule

    tasks = list(schedule(["negamax:depth=3", "greedy"], 24, seed=6, opening_plies=2))
    alone = {game.task.index: game.moves for game in map(play_game, tasks)}
    # the workers' pids from their nannies, not from a second client: two clients in one
    # process let a lost future's event be bound to the other's loop (distributed raised
    # "bound to a different event loop" from the runner's result, one run in two)
    with cluster(processes=True) as workers:
        pids = sorted(nanny.pid for nanny in workers.workers.values())
        played = {}
        with ClusterRunner(tasks, workers.scheduler_address) as runner:
            for game in runner:
                played[game.task.index] = game.moves
                if len(played) == 1:
                    os.kill(pids[0], signal.SIGKILL)  # its batch in flight is played again
    assert played == alone
