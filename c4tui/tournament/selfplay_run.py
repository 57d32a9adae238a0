"""A run of `c4tui train selfplay`: AlphaZero from nothing, generation after generation.

Each generation:
1. the best network so far plays `games` self-play games (`learned/selfplay.py`), in
   the run's workers (local processes or a Dask cluster: `task_map.py`);
2. the replay window (the newest `window` generations' positions) trains the run's one
   network `steps` batches further (`learned/learner.py`: JAX, the `train` extra);
3. the trained network is measured alone, no search, on positions drawn from random
   play and labelled by the exact solver (`learned/accuracy.py`): its mistakes;
4. the gate (`gate.py`, the sequential test of `c4tui sprt`) plays it against the best
   network: it becomes the best only when the test accepts that it is stronger.

The run lives in its directory: `run.json` (settings and every generation's figures,
rewritten after each), `learner.npz` (the weights and the optimiser's state),
`replay.npz` (the window), `best.npz` (the best network, in the engine's format: play
it with `alphazero:net=DIR/best.npz`), `gen-N.npz` (each generation's network) and
`positions.npz` (the labelled positions). A run stopped anywhere resumes from its last
whole generation; every generation's seeds derive from the run's seed and its number,
so a resumed run plays the games an unbroken one would have.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from c4tui.engine.learned import accuracy
from c4tui.engine.learned.labels import MAX_LABELLED_BYTES, Labelled, label_batch
from c4tui.engine.learned.network import MAX_NETWORK_BYTES, STORED, load, save
from c4tui.engine.learned.selfplay import (
    GamesTask,
    LearnerSettings,
    PlaySettings,
    Samples,
    play_games,
)
from c4tui.engine.regular_files import NoSuchFile, read_arrays, write_whole
from c4tui.files import atomic_write, parse_json, read_text
from c4tui.tournament.gate import GateSettings, run_gate
from c4tui.tournament.schedule import derive_seed
from c4tui.tournament.sprt_run import SprtState
from c4tui.tournament.task_map import TaskMap, TimedMap

FILE_FORMAT = "c4tui-selfplay 1"
GAMES_PER_TASK = 10
NO_GATE = "none"  # a generation's verdict when the run has no gate
LEARNER_BYTES = 4 * MAX_NETWORK_BYTES  # the weights, AdamW's two moments, their average
RUN_JSON_BYTES = 64 << 20  # a generation's row is about 500 bytes


class RunError(Exception):
    """The run directory cannot be used (says why)."""


@dataclass(frozen=True)
class RunSettings:
    """Everything that decides a run's games and networks; resume needs the same."""

    board: tuple[int, int, int]
    seed: int = 0
    generations: int = 30
    games: int = 200  # self-play games a generation
    window: int = 4  # generations of positions trained on
    steps: int = 300  # training batches a generation
    positions: int = 100_000  # positions the networks are measured on
    play: PlaySettings = field(default_factory=PlaySettings)
    net: LearnerSettings = field(default_factory=LearnerSettings)
    gate: GateSettings = field(default_factory=GateSettings)

    @staticmethod
    def from_json(data: dict[str, Any]) -> RunSettings:
        gate = dict(data["gate"])
        gate["opening_plies"] = tuple(gate["opening_plies"])
        return RunSettings(
            board=(int(data["board"][0]), int(data["board"][1]), int(data["board"][2])),
            seed=data["seed"],
            generations=data["generations"],
            games=data["games"],
            window=data["window"],
            steps=data["steps"],
            positions=data["positions"],
            play=PlaySettings(**data["play"]),
            # A run begun before networks read the spots (format 1) goes on reading three.
            net=LearnerSettings(**({"planes": STORED} | data["net"])),
            gate=GateSettings(**gate),
        )


def defaults(board: tuple[int, int, int]) -> RunSettings:
    """The settings a run on that board starts from (docs/learned-engine.md: measured
    on 5x4, 6x5 and 7x6; the larger boards get fewer games, dearer labels)."""
    cells = board[0] * board[1]
    # Moves drawn in proportion to the visits for the first half of the board: with only
    # the first few so drawn, the games kept to a narrow path, and the network missed a
    # win in one in 46% of the won positions of random play (5x4, generation 6). Games
    # open with up to three quarters of the board played at random: self-play from the
    # empty board met 1.8% of the positions random play reaches (5x4, generation 3).
    # On every board, the three levers measured on 5x4 first: the solver's proofs of the
    # leaves of a dozen empty cells (0.1 ms each, on 7x6 too), half of the moves after
    # the opening played at random (`PlaySettings.explore`; 5x4: 2.73% at 8.6
    # CPU-minutes against 4.45% at 8.1 without), and the weights' moving average over
    # five generations' steps (`LearnerSettings.average`). On 7x6 together they took a
    # run to 13.1% at 29.0 CPU-minutes, where the rules alone were at 19.8% at 27.9
    # (2,000 measuring positions; docs/learned-engine.md, "The levers on every board").
    play = PlaySettings(
        sampled_plies=cells // 2,
        opening_plies=cells * 3 // 4,
        search_value=0.5,
        solver=True,
        explore=0.5,
    )
    if cells <= 20:
        # The gate stays on, as on every board: a generation plays self-play only once it
        # beat the best. (`--gate-games 0` turns it off, as AlphaZero did; the 5x4 curves
        # in docs/learned-engine.md were measured so: a gate turned down generations
        # 10-14 of a run as the trained network's mistakes fell from 24.3% to 23.1%.)
        # More games, a longer window and a larger network: on 5x4, 3.82% at 12.6
        # CPU-minutes against 10% by the rules alone with the smaller network and
        # shorter window; the same network trained on the solver's labels of 200,000
        # positions errs on 0.57% of them, 128 wide and 2 blocks on 2.01%.
        net = LearnerSettings(hidden=256, blocks=3, average=5000)
        return RunSettings(board, games=1000, window=12, steps=1000, play=play, net=net)
    if cells <= 30:  # 6x5 positions are dear to solve: 1,000 took 2.5 CPU-minutes
        net = LearnerSettings(hidden=192, average=2000)
        return RunSettings(board, games=200, steps=400, positions=1_000, play=play, net=net)
    net = LearnerSettings(hidden=256, blocks=3, average=2500)
    return RunSettings(board, games=200, steps=500, positions=1_000, play=play, net=net)


@dataclass
class Generation:
    """One generation's figures: a row of run.json and of the screen's table."""

    number: int
    games: int  # self-play games so far, all generations
    results: tuple[int, int, int]  # this generation's first-player wins, draws, losses
    policy_loss: float
    value_loss: float
    mistakes: int  # the trained network's, of `positions`
    positions: int
    verdict: str  # the gate's: H1 (kept), H0, games-most; "first" for generation 0
    gate_games: int
    gate_wdl: tuple[int, int, int]  # the new network's wins, draws, losses
    elo: float | None
    best: int  # the best network's generation after this one
    best_mistakes: int
    seconds: float  # the run's wall-clock time so far
    cpu_seconds: float = 0.0  # the run's processor time so far: its process and its tasks'

    def perfect(self) -> str | None:
        """The file of this generation's network that makes no mistake on the positions
        (the best's, or this generation's own), or None. Not only the best's: on 5x4 the
        gate's games between any two networks past the first few generations are even
        (a run's gate turned down 14 generations in a row, every pair even, while the
        trained network's mistakes fell from 8.2% to 3.8%), so the gate decides which
        network plays self-play, and the run ends with the first network without fault."""
        if self.verdict == "first":
            return None
        if self.best_mistakes == 0:
            return "best.npz"
        return f"gen-{self.number}.npz" if self.mistakes == 0 else None


@dataclass
class Report:
    """What the run is doing, for the screen or the progress lines."""

    phase: str  # "label", "selfplay", "train", "measure", "gate", "generation", "done"
    generation: int
    done: int = 0
    total: int = 0
    gate: SprtState | None = None
    row: Generation | None = None
    losses: dict[str, float] | None = None


class SelfPlayRun:
    """A run in its directory: `start` or `resume`, then `run` generations."""

    def __init__(self, directory: Path, settings: RunSettings, pool: TaskMap) -> None:
        from c4tui.engine.learned.learner import Learner

        self.directory = directory
        self.settings = settings
        self.pool = TimedMap(pool)
        self.learner = Learner(settings.board, settings.net, settings.seed)
        self.history: list[Generation] = []
        self.replay: list[Samples] = []
        self.positions: Labelled | None = None
        self.elapsed = 0.0  # wall-clock seconds of the generations before this process's
        self.cpu_before = 0.0  # processor seconds of the generations before this process's

    # ---- the directory ----------------------------------------------------------------

    def path(self, name: str) -> Path:
        return self.directory / name

    def to_play(self) -> tuple[Path, float]:
        """The network with the fewest mistakes so far, newest first (the gate's best may
        not be: see Generation.perfect), and its share of mistakes."""
        row = min(self.history[1:] or self.history, key=lambda r: (r.mistakes, -r.number))
        return self.path(f"gen-{row.number}.npz"), row.mistakes / max(row.positions, 1)

    def start(self) -> None:
        check_directory(self.directory, resume=False)
        self.directory.mkdir(parents=True, exist_ok=True)

    def resume(self) -> None:
        try:
            data = parse_json(read_text(self.path("run.json"), limit=RUN_JSON_BYTES))
            if not isinstance(data, dict) or data.get("format") != FILE_FORMAT:
                raise ValueError(f"not a {FILE_FORMAT!r} file")
            saved = RunSettings.from_json(data["settings"])
            rows = [Generation(**row) for row in data["history"]]
            self.learner.restore(read_arrays(self.path("learner.npz"), limit=LEARNER_BYTES))
            arrays = read_arrays(self.path("replay.npz"), limit=MAX_LABELLED_BYTES)
            self.replay = split(arrays, [int(n) for n in arrays["sizes"]])
        except FileNotFoundError as error:
            missing = error.path if isinstance(error, NoSuchFile) else error.filename
            raise RunError(f"{self.directory}: no run to resume ({missing})") from None
        except (ValueError, KeyError, TypeError, OSError) as error:
            raise RunError(f"{self.directory}: not a self-play run ({error})") from None
        if replace(saved, generations=self.settings.generations) != self.settings:
            raise RunError(f"{self.directory} holds a run with other settings")
        self.history = [fix_tuples(row) for row in rows]
        self.elapsed = self.history[-1].seconds if self.history else 0.0
        self.cpu_before = self.history[-1].cpu_seconds if self.history else 0.0

    def save(self) -> None:
        data = {
            "format": FILE_FORMAT,
            "settings": asdict(self.settings),
            "history": [asdict(row) for row in self.history],
        }
        state = self.learner.state_arrays()
        write_whole(self.path("learner.npz"), lambda out: np.savez(out, **state))  # type: ignore[arg-type]
        window = Samples.join(self.replay, self.settings.board[0], cells(self.settings))
        replay = {
            "planes": window.planes,
            "policy": window.policy,
            "value": window.value,
            "sizes": np.array([len(s) for s in self.replay], dtype=np.int64),
        }
        write_whole(self.path("replay.npz"), lambda out: np.savez(out, **replay))  # type: ignore[arg-type]
        # run.json last: it names the generation the other files hold.
        atomic_write(self.path("run.json"), json.dumps(data, indent=1) + "\n")

    # ---- generations -------------------------------------------------------------------

    def run(self, report: Callable[[Report], None], stop: threading.Event) -> None:
        """Generations until the settings' count, or `stop` (between phases)."""
        started = time.perf_counter() - self.elapsed
        self.positions = self.labelled_positions(report)
        if not self.history:
            self.first_generation(started)
            report(Report("generation", 0, row=self.history[-1]))
        while len(self.history) <= self.settings.generations and not stop.is_set():
            row = self.generation(len(self.history), report, stop, started)
            if row is None:
                return
            report(Report("generation", row.number, row=row))
        report(Report("done", len(self.history) - 1))

    def first_generation(self, started: float) -> None:
        """Generation 0: the untrained network, the first best."""
        network = self.learner.network({"generation": 0})
        save(self.path("gen-0.npz"), network)
        save(self.path("best.npz"), network)
        wrong = self.mistakes_of(self.path("gen-0.npz"))
        positions = len(self.positions or ())
        zero = (0, 0, 0)
        self.history.append(
            Generation(
                0,
                0,
                zero,
                0.0,
                0.0,
                wrong,
                positions,
                "first",
                0,
                zero,
                None,
                0,
                wrong,
                time.perf_counter() - started,
                self.cpu_seconds(),
            )
        )
        self.save()

    def generation(
        self, number: int, report: Callable[[Report], None], stop: threading.Event, started: float
    ) -> Generation | None:
        s = self.settings
        best = load(self.path("best.npz"))
        tasks = [
            GamesTask(best, s.play, derive_seed(s.seed, number, "selfplay", k), count)
            for k, count in enumerate(shares(s.games, GAMES_PER_TASK))
        ]
        parts = []
        for part in self.pool.map(play_games, tasks):
            parts.append(part)
            report(Report("selfplay", number, sum(len(p.results) for p in parts), s.games))
            if stop.is_set():
                return None
        played = Samples.join(parts, s.board[0], cells(s))
        self.replay = [*self.replay, played][-s.window :]
        window = Samples.join(self.replay, s.board[0], cells(s))
        report(Report("train", number, 0, s.steps))
        losses = self.learner.train(window, s.steps, derive_seed(s.seed, number, "train"))
        report(Report("train", number, s.steps, s.steps, losses=losses))
        candidate = self.path(f"gen-{number}.npz")
        save(candidate, self.learner.network({"generation": number}))
        report(Report("measure", number))
        wrong = self.mistakes_of(candidate)

        gate = self.gate(number, candidate, report, stop)
        if gate is not None and stop.is_set() and gate.end is None:
            return None
        previous = self.history[-1]
        # Without a gate (gate.games_most 0), every generation's network is the best.
        kept = gate is None or gate.end == "H1"
        if kept:
            save(self.path("best.npz"), load(candidate))
        trinomial = gate.trinomial if gate is not None else (0, 0, 0)
        wins, draws, losses_ = (int(n) for n in reversed(trinomial))
        row = Generation(
            number=number,
            games=previous.games + len(played.results),
            results=outcomes(played.results),
            policy_loss=losses["policy"],
            value_loss=losses["value"],
            mistakes=wrong,
            positions=len(self.positions or ()),
            verdict=NO_GATE if gate is None else (gate.end or "stopped"),
            gate_games=gate.games if gate is not None else 0,
            gate_wdl=(wins, draws, losses_),
            elo=gate.elo().elo if gate is not None and gate.games else None,
            best=number if kept else previous.best,
            best_mistakes=wrong if kept else previous.best_mistakes,
            seconds=time.perf_counter() - started,
            cpu_seconds=self.cpu_seconds(),
        )
        self.history.append(row)
        self.save()
        return row

    def gate(
        self, number: int, candidate: Path, report: Callable[[Report], None], stop: threading.Event
    ) -> SprtState | None:
        """The gate's test of the candidate against the best; None when there is none."""
        s = self.settings
        if s.gate.games_most == 0:
            return None

        def on_pair(state: SprtState) -> None:
            report(Report("gate", number, state.games, s.gate.games_most, gate=state))

        return run_gate(
            candidate,
            self.path("best.npz"),
            s.board,
            s.gate,
            derive_seed(s.seed, number, "gate"),
            self.pool,
            on_pair=on_pair,
            stop=stop,
        )

    # ---- the solver's positions ------------------------------------------------------

    def labelled_positions(self, report: Callable[[Report], None]) -> Labelled:
        """The run's measuring positions: made once (in the run's workers), then read."""
        path = self.path("positions.npz")
        if path.exists():
            return Labelled.load(path)
        s = self.settings
        work = accuracy.sample_batches(s.board, s.positions, derive_seed(s.seed, "positions"))
        parts = []
        for part in self.pool.map(label_batch, work):
            parts.append(part)
            report(Report("label", 0, len(parts), len(work)))
        data = accuracy.distinct(Labelled.join(parts), s.positions, s.seed)
        data.save(path)
        return data

    def cpu_seconds(self) -> float:
        """The run's processor time so far: this process (JAX's threads included), its
        tasks in the workers, and the generations before a resume."""
        return self.cpu_before + time.process_time() + self.pool.cpu_seconds

    def mistakes_of(self, network_file: Path) -> int:
        assert self.positions is not None
        return accuracy.mistakes(load(network_file), self.positions)


def check_directory(directory: Path, *, resume: bool) -> None:
    """RunError unless the directory suits: a new run's holds none, a resumed one's does."""
    if directory.exists() and not directory.is_dir():
        raise RunError(f"{directory} is not a directory: --run names the run's folder")
    held = (directory / "run.json").exists()
    if held and not resume:
        raise RunError(f"{directory} holds a run: give --resume, or another --run")
    if resume and not held:
        raise RunError(f"{directory}: no run to resume (no run.json)")


def cells(settings: RunSettings) -> int:
    return settings.board[0] * settings.board[1]


def shares(total: int, size: int) -> list[int]:
    """`total` cut into tasks of `size` (the last one smaller)."""
    return [min(size, total - start) for start in range(0, total, size)]


def outcomes(results: np.ndarray[Any, Any]) -> tuple[int, int, int]:
    """First-player wins, draws and losses of a generation's games."""
    return (int((results == 1).sum()), int((results == 0).sum()), int((results == -1).sum()))


def split(arrays: Any, sizes: list[int]) -> list[Samples]:
    """The replay file's generations back as one Samples each."""
    parts, start = [], 0
    for size in sizes:
        end = start + size
        parts.append(
            Samples(
                arrays["planes"][start:end],
                arrays["policy"][start:end],
                arrays["value"][start:end],
                np.zeros(0, np.int8),
            )
        )
        start = end
    return parts


def fix_tuples(row: Generation) -> Generation:
    """JSON gives lists where the row holds tuples."""
    return replace(row, results=tuple(row.results), gate_wdl=tuple(row.gate_wdl))  # type: ignore[arg-type]
