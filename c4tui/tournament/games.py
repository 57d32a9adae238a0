"""One headless game between two engines: its task, its play, and its record.

Every game is a pure function of its `GameTask`: the two spec strings, the opening and
the seeds of both engines, derived from the tournament seed and the game's index (see
`schedule.py`). So a tournament gives the same games whether it runs in one process or
in eight (engines on a time budget aside: how far they search depends on the machine's
load). `workers.py` runs many games; `standings.py` tallies their records.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from c4tui.engine.board.gamefile import Ending, GameRecord, now_stamp, result_text
from c4tui.engine.board.notation import format_moves
from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import Engine, Forfeit, SearchInfo
from c4tui.engine.players.specs import make_engine
from c4tui.tournament.time_control import MoveLimits


@dataclass(frozen=True)
class GameTask:
    """Everything one game needs, small enough to send to a worker process."""

    index: int  # position in the tournament's schedule; seeds derive from it
    first: int  # index of the engine that moves first, into the tournament's specs
    second: int
    first_spec: str
    second_spec: str
    opening: tuple[int, ...] = ()  # 0-based columns played before the engines take over
    first_seed: int = 0
    second_seed: int = 0
    # The exact solver ends the game once this many cells or fewer are empty (0: never);
    # see `adjudicated_winner`.
    adjudicate: int = 0
    limits: MoveLimits | None = None  # the run's clock, move time or nodes; None: the specs'
    board: tuple[int, int, int] = (7, 6, 4)  # width, height, connect


@dataclass
class MoveTally:
    """What one engine spent on its moves: sums, so tallies of many games add up."""

    moves: int = 0
    seconds: float = 0.0
    iterations: int = 0
    iteration_moves: int = 0  # moves that reported iterations
    nodes: int = 0
    node_moves: int = 0
    depth: int = 0
    depth_moves: int = 0

    def add_move(self, seconds: float, info: SearchInfo) -> None:
        self.moves += 1
        self.seconds += seconds
        iterations, nodes, depth = info.iterations, info.nodes, info.depth
        if iterations is not None:
            self.iterations += iterations
            self.iteration_moves += 1
        if nodes is not None:
            self.nodes += nodes
            self.node_moves += 1
        if depth is not None:
            self.depth += depth
            self.depth_moves += 1

    def merge(self, other: MoveTally) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def per_move(self) -> dict[str, float | None]:
        """Means per move; None for a figure the engine never reported."""

        def mean(total: float, count: int) -> float | None:
            return total / count if count else None

        return {
            "seconds_per_move": mean(self.seconds, self.moves),
            "iterations_per_move": mean(self.iterations, self.iteration_moves),
            "nodes_per_move": mean(self.nodes, self.node_moves),
            "depth": mean(self.depth, self.depth_moves),
        }


@dataclass
class PlayedGame:
    """How one game went: its moves, who won, and what each side spent."""

    task: GameTask
    moves: tuple[int, ...]  # every column played, the opening included
    winner: int | None  # engine index into the tournament's specs, None for a draw
    termination: str  # "line", "full board", "adjudicated", "illegal move" or "forfeit"
    first_tally: MoveTally = field(default_factory=MoveTally)
    second_tally: MoveTally = field(default_factory=MoveTally)
    # Why the loser forfeited: an outside engine's crash, hang, junk or overrun.
    reason: str = ""

    @property
    def first_won(self) -> bool:
        return self.winner is not None and self.winner == self.task.first

    def to_json(self) -> dict[str, Any]:
        """The line `--save` writes: columns 1-based, as move strings."""
        task = self.task
        colour = None if self.winner is None else (0 if self.winner == task.first else 1)
        return {
            "game": task.index + 1,
            "first": task.first_spec,
            "second": task.second_spec,
            "opening": _moves_text(task.opening),
            "moves": _moves_text(self.moves),
            "result": result_text(colour),
            "winner": None if colour is None else (task.first_spec, task.second_spec)[colour],
            "termination": self.termination,
            **({"reason": self.reason} if self.reason else {}),
            "seeds": [task.first_seed, task.second_seed],
        }

    def to_game_record(self, date: str | None = None) -> GameRecord:
        """The game in the game file format: the specs as players, the opening as the
        moves it was set up with, and an ending when it did not end on the board."""
        task = self.task
        colour = None if self.winner is None else (0 if self.winner == task.first else 1)
        how = {"adjudicated": "adjudicated", "illegal move": "forfeit", "forfeit": "forfeit"}
        ended = None
        if self.termination in how:
            kind = "time" if self.reason.startswith("lost on time") else how[self.termination]
            ended = Ending(kind, colour)
        return GameRecord(
            _moves_text(self.moves),
            players=(task.first_spec, task.second_spec),
            date=date or now_stamp(),
            ended=ended,
            start=_moves_text(task.opening),
        )


def _moves_text(moves: Iterable[int]) -> str:
    return format_moves(tuple(moves))


class GameAborted(Exception):
    """The stop event was set while the game was still going."""


class EngineError(RuntimeError):
    """An engine raised instead of moving; the message names it, the game and the position."""


def play_game(task: GameTask, stop: threading.Event | None = None) -> PlayedGame:
    """Play one game to its end; raises GameAborted as soon as `stop` is set."""
    engines = (
        make_engine(task.first_spec, seed=task.first_seed),
        make_engine(task.second_spec, seed=task.second_seed),
    )
    try:
        played = _play(task, engines, stop)
    finally:
        for engine in engines:
            engine.close()  # an outside engine's process ends with its game
    return charged_for_leftovers(played, engines)


def charged_for_leftovers(played: PlayedGame, engines: tuple[Engine, Engine]) -> PlayedGame:
    """The game lost by an engine that left processes of its own running after it (out
    of its process group's reach, they may hold its output open and hang whoever waits
    for its end), as any other breach of the rules loses it; a loss it had already
    stands as it was."""
    task = played.task
    for engine, opponent in zip(engines, (task.second, task.first), strict=True):
        if engine.left_running and played.winner != opponent:
            reason = engine.left_running
            return replace(played, winner=opponent, termination="forfeit", reason=reason)
    return played


def _play(
    task: GameTask, engines: tuple[Engine, Engine], stop: threading.Event | None
) -> PlayedGame:
    indices = (task.first, task.second)
    tallies = (MoveTally(), MoveTally())
    control = task.limits or MoveLimits()
    clocks = control.clocks()
    for engine in engines:
        engine.new_game()
    position = Position.start(*task.board)
    for col in task.opening:
        position = position.play(col)
    while not position.is_over():
        side = position.to_move
        if task.adjudicate and empty_cells(position) <= task.adjudicate:
            colour = adjudicated_winner(position)
            winner = None if colour is None else indices[colour]
            return PlayedGame(task, position.path, winner, "adjudicated", *tallies)
        start = time.perf_counter()
        try:
            limits = control.limits(engines[side], clocks, side)
            result = engines[side].search(position, limits, stop=stop)
        except Forfeit as forfeit:
            if stop is not None and stop.is_set():
                raise GameAborted from None
            tallies[side].add_move(time.perf_counter() - start, SearchInfo(engine=""))
            forfeited_to = indices[1 - side]
            return PlayedGame(task, position.path, forfeited_to, "forfeit", *tallies, str(forfeit))
        except Exception as error:
            spec = (task.first_spec, task.second_spec)[side]
            raise EngineError(
                f"{spec} failed in position {position.to_moves()!r} "
                f"(game {task.index + 1}): {type(error).__name__}: {error}"
            ) from error
        seconds = time.perf_counter() - start
        if stop is not None and stop.is_set():
            raise GameAborted
        tallies[side].add_move(seconds, result.info)
        if clocks is not None:
            if seconds > clocks[side]:
                reason = f"lost on time ({seconds:.3f} s spent, {clocks[side]:.3f} s left)"
                return PlayedGame(
                    task, position.path, indices[1 - side], "forfeit", *tallies, reason
                )
            clocks[side] += control.increment - seconds
        if not position.can_play(result.move):
            # An engine that breaks the rules forfeits, as in any tournament.
            return PlayedGame(task, position.path, indices[1 - side], "illegal move", *tallies)
        position = position.play(result.move)
    colour = position.winner()
    winner = None if colour is None else indices[colour]
    termination = "line" if colour is not None else "full board"
    return PlayedGame(task, position.path, winner, termination, *tallies)


def empty_cells(position: Position) -> int:
    return position.width * position.height - position.moves


def adjudicated_winner(position: Position) -> int | None:
    """The colour that wins `position` with perfect play (None: a draw).

    Adjudication ends a game at a fixed number of empty cells, not when a search happens
    to finish in time, so the same task gives the same game on any machine. With few
    cells left the solver answers in a millisecond or less (on 7x6 with 20 empty, the
    slowest of a sample took about 25 ms; benchmarks in docs/engine-testing.md).
    """
    from c4tui.engine.solver import solve  # loaded only by runs that adjudicate

    score = solve(position)
    if score == 0:
        return None
    return position.to_move if score > 0 else 1 - position.to_move
