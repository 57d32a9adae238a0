"""Self-play's and labelling's tasks on a Dask cluster (task_map.py, cluster.ClusterMap):
the same results, in the same order, as in local processes."""

from __future__ import annotations

import numpy as np
import pytest

from c4tui.cli import main
from c4tui.engine.learned.accuracy import sample_batches
from c4tui.engine.learned.labels import label_batch
from c4tui.engine.learned.selfplay import GamesTask, PlaySettings, play_games
from c4tui.tournament.task_map import LocalMap, open_map
from tests.engine.learned.nets import random_network

distributed = pytest.importorskip("distributed")


@pytest.mark.slow
def test_a_cluster_plays_and_labels_what_local_processes_do():
    net = random_network(5, 4, 4)
    games = [GamesTask(net, PlaySettings(sims=4), seed, 2) for seed in range(4)]
    labels = sample_batches((5, 4, 4), 30, 9)
    with LocalMap(2) as here:
        local_games = list(here.map(play_games, games))
        local_labels = list(here.map(label_batch, labels))
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        open_map(1, cluster.scheduler_address) as there,
    ):
        assert there.workers == 2
        remote_games = list(there.map(play_games, games))
        remote_labels = list(there.map(label_batch, labels))
    for one, two in zip(local_games, remote_games, strict=True):
        assert np.array_equal(one.planes, two.planes) and np.array_equal(one.policy, two.policy)
    for one, two in zip(local_labels, remote_labels, strict=True):
        assert np.array_equal(one.scores, two.scores)


@pytest.mark.slow  # the client tries for CONNECT_SECONDS before it gives up
def test_selfplay_with_a_scheduler_that_is_not_there_is_one_line(tmp_path, capsys):
    argv = ["train", "selfplay", "--board", "5x4", "--run", str(tmp_path / "r"), "--no-screen"]
    assert main([*argv, "--cluster", "tcp://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err
    assert "--cluster: cannot reach the scheduler" in err and err.count("\n") == 1
