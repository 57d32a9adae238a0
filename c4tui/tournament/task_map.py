"""Pure tasks run in worker processes here, or on a Dask cluster: one face for both.

A self-play run sends its games, its solver labelling and its gate's games through a
`TaskMap`: `map(function, tasks)` gives each task's result in the tasks' order, so a
run's results do not depend on the number of workers nor on where they run. Locally
the workers are spawned processes (not forked: the run's process holds JAX's threads);
with `cluster` the tasks go to that Dask scheduler (`cluster.ClusterMap`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
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


def open_map(workers: int, cluster: str | None) -> LocalMap | ClusterMap:
    """The run's workers: the cluster's when given an address, else local processes."""
    return ClusterMap(cluster) if cluster else LocalMap(workers)
