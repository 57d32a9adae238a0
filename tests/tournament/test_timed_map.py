"""TimedMap (task_map.py): a run's processor time counts its tasks in other processes."""

from __future__ import annotations

import pytest

from c4tui.engine.learned.selfplay import GamesTask, PlaySettings, play_games
from c4tui.tournament.task_map import LocalMap, TimedMap
from tests.engine.learned.nets import random_network


def square(n: int) -> int:
    return n * n


def test_tasks_run_in_this_process_are_not_counted_twice():
    with LocalMap(1) as here:
        timed = TimedMap(here)
        assert list(timed.map(square, range(4))) == [0, 1, 4, 9]
        assert timed.cpu_seconds == 0  # already in this process's own time


@pytest.mark.slow
def test_tasks_in_worker_processes_add_their_processor_time():
    tasks = [GamesTask(random_network(5, 4, 4), PlaySettings(sims=4), seed, 1) for seed in (1, 2)]
    with LocalMap(2) as there:
        timed = TimedMap(there)
        assert len(list(timed.map(play_games, tasks))) == 2
        assert timed.cpu_seconds > 0
