"""Pure tasks run in worker processes here, or on a Dask cluster: one face for both.

A self-play run sends its games, its solver labelling and its gate's games through a
`TaskMap`: `map(function, tasks)` gives each task's result in the tasks' order, so a
run's results do not depend on the number of workers nor on where they run. Locally
the workers are spawned processes (not forked: the run's process holds JAX's threads);
with `cluster` the tasks go to that Dask scheduler (`cluster.ClusterMap`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from multiprocessing import get_context
from typing import Protocol, TypeVar

from c4tui.tournament.cluster import ClusterMap

Task = TypeVar("Task")
Result = TypeVar("Result")


class TaskMap(Protocol):
    workers: int

    def map(
        self, function: Callable[[Task], Result], tasks: Iterable[Task]
    ) -> Iterator[Result]: ...


class LocalMap:
    """`workers` spawned processes (1: in this process, nothing spawned)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> LocalMap:
        if self.workers > 1:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=get_context("spawn"))
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def map(self, function: Callable[[Task], Result], tasks: Iterable[Task]) -> Iterator[Result]:
        if self._pool is None:
            return map(function, tasks)
        return self._pool.map(function, tasks)


class TimedMap:
    """A TaskMap that also counts the processor time its tasks took in other processes
    (`cpu_seconds`): a run's CPU is its own process's and this, wherever the tasks ran."""

    def __init__(self, pool: TaskMap) -> None:
        self.pool = pool
        self.workers = pool.workers
        self.cpu_seconds = 0.0

    def map(self, function: Callable[[Task], Result], tasks: Iterable[Task]) -> Iterator[Result]:
        here = os.getpid()
        for result, seconds, pid in self.pool.map(partial(timed, function), tasks):
            if pid != here:  # a task run in this process is in its own process time
                self.cpu_seconds += seconds
            yield result


def timed(function: Callable[[Task], Result], task: Task) -> tuple[Result, float, int]:
    """The task's result, the processor time it took, and the process it ran in."""
    start = time.process_time()
    result = function(task)
    return result, time.process_time() - start, os.getpid()


def open_map(workers: int, cluster: str | None) -> LocalMap | ClusterMap:
    """The run's workers: the cluster's when given an address, else local processes."""
    return ClusterMap(cluster) if cluster else LocalMap(workers)
