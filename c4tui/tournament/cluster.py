"""Playing a run's games on a Dask distributed cluster, the same games as in one process.

`--cluster ADDRESS` (arena, rate, sprt) hands the run's games to the scheduler at
ADDRESS in batches of `BATCH_PAIRS` pairs, each batch one task that a worker plays
through with `play` (workers need c4tui installed, and the outside engines the specs
name at the same paths: an engine runs where its worker runs). Records come back
batch by batch as they finish, into the same loop as GameRunner's; more batches are
sent as they come back, `BATCHES_PER_WORKER` per worker in flight. A worker lost with
its batch loses only that batch: the scheduler plays it again elsewhere, and since a
game is a pure function of its task the records are the ones it would have given.

Why Dask distributed rather than Ray: it is pure Python (about 20 MB installed with
its dependencies, an optional extra: `pip install c4tui[cluster]`), a scheduler and
a worker are one command each (`dask scheduler`, `dask worker ADDRESS`), it re-runs
the tasks of a lost worker by itself, and `wait` on futures streams results as they
finish: all this runner needs. Ray brings a native core many times that size and a
runtime of its own to run, for features (actors, object store) a batch of games does
not use.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Any, Generic, TypeVar

from c4tui.tournament.games import GameAborted, GameTask, play_game
from c4tui.tournament.workers import Play, Record

BATCH_PAIRS = 4  # a task's games: enough to outweigh a task's cost, few to lose
BATCHES_PER_WORKER = 2
WAKE_SECONDS = 0.2  # how often a wait for batches looks at the stop flag
CONNECT_SECONDS = 30

Task = TypeVar("Task")
Result = TypeVar("Result")


class ClusterError(Exception):
    """The cluster cannot be reached or used; the message says which and why."""


def play_batch(play: Play[Any] | None, tasks: list[GameTask]) -> list[Any]:
    """A worker's task: play the batch's games in turn (module level: sent by name)."""
    records = []
    for task in tasks:
        try:
            records.append((play or play_game)(task, None))
        except GameAborted:
            continue
    return records


def connect(address: str) -> Any:
    """A Dask client of the scheduler at `address`; ClusterError says why not."""
    try:
        from distributed import Client
    except ImportError:
        hint = "pip install 'c4tui[cluster]'"
        raise ClusterError(f"--cluster needs Dask distributed: {hint}") from None
    try:
        return Client(address, timeout=CONNECT_SECONDS)  # type: ignore[no-untyped-call]  # distributed has no types
    except (OSError, TimeoutError, ValueError) as error:
        raise ClusterError(f"cannot reach the scheduler at {address}: {error}") from None


class ClusterMap:
    """Any pure tasks on the cluster, in order: what self-play and solver labelling
    send (a task is a function's argument; a lost worker's tasks run again elsewhere)."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.workers = 0
        self._client: Any = None

    def __enter__(self) -> ClusterMap:
        self._client = connect(self.address)
        self.workers = max(1, len(self._client.scheduler_info().get("workers", {})))
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    @property
    def client(self) -> Any:
        """The Dask client, once entered."""
        return self._client

    def map(self, function: Callable[[Task], Result], tasks: Iterable[Task]) -> Iterator[Result]:
        """Each task's result, in the tasks' order, as soon as it and those before are in."""
        futures = self._client.map(function, list(tasks), pure=False)
        try:
            for future in futures:
                yield future.result()
        finally:
            for future in futures:
                future.cancel()


class ClusterRunner(Generic[Record]):
    """GameRunner's face over a Dask cluster: enter, iterate records, `stop()`."""

    def __init__(
        self,
        tasks: Iterable[GameTask],
        address: str,
        play: Play[Record] | None = None,
        batch_games: int = 2 * BATCH_PAIRS,
    ) -> None:
        self.tasks = iter(tasks)
        self.address = address
        self.play = play
        self.batch_games = batch_games
        self.interrupted = False
        self.workers = 0
        self._stop = threading.Event()
        self._cluster = ClusterMap(address)

    def __enter__(self) -> ClusterRunner[Record]:
        self.workers = self._cluster.__enter__().workers
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._cluster.__exit__(*exc_info)

    def stop(self) -> None:
        """Stop the run: no new batch is sent, the waiting ones are cancelled."""
        self._stop.set()

    def _submit(self, running: set[Any]) -> None:
        room = self.workers * BATCHES_PER_WORKER - len(running)
        for _ in range(max(room, 0)):
            batch = list(islice(self.tasks, self.batch_games))
            if not batch:
                return
            running.add(self._cluster.client.submit(play_batch, self.play, batch, pure=False))

    def __iter__(self) -> Iterator[Record]:
        from distributed import wait

        running: set[Any] = set()
        try:
            self._submit(running)
            while running and not self._stop.is_set():
                try:
                    done, _ = wait(  # type: ignore[no-untyped-call]  # distributed has no types
                        list(running), timeout=WAKE_SECONDS, return_when="FIRST_COMPLETED"
                    )
                except TimeoutError:
                    continue  # nothing finished yet: look at the stop flag again
                for future in done:
                    running.discard(future)
                    yield from future.result()
                if not self._stop.is_set():
                    self._submit(running)
        except KeyboardInterrupt:
            self._stop.set()
        if self._stop.is_set():
            self.interrupted = True
            for future in running:
                future.cancel()
