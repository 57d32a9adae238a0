"""The contract between engines and their callers: limits, live statistics, results.

Every opponent is an `Engine`: `search(position, limits, on_info=..., stop=...)` returns
a `SearchResult`. While it works, an engine hands immutable `SearchInfo` snapshots to
`on_info` at natural checkpoints; it does not throttle them (the app does).

Conventions, the same everywhere:
- columns are 0-based here; people see them 1-based;
- `ColumnStat.value` is the mean result in [-1, 1] for the side to move at the root
  (1 = always wins); `win_rate(value)` is the share of wins it stands for;
- `ColumnStat.score` is a NegaMax heuristic score or, when `proven` is set or
  `SearchInfo.exact` is true, the exact solver score (see `scores.py`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Protocol

from c4tui.engine.board.scores import Proven

if TYPE_CHECKING:
    from c4tui.engine.board.position import Position


@dataclass(frozen=True)
class GameClock:
    """A game's clocks as a move is asked, in seconds: the mover's time left, its
    opponent's, and what every move adds back to the clock of the side that made it."""

    own: float
    opponent: float
    increment: float = 0.0


@dataclass(frozen=True)
class Limits:
    """When to stop: at the first limit reached (or when the stop event is set).

    `iterations` counts what the engine counts: MCTS iterations, flat playouts.
    `nodes` is a count for an outside program (c4e's `go nodes`); c4tui's own engines
    are handed theirs as `iterations`. `clock`, in a game on a clock, is passed on to
    outside programs, which share out their time themselves; `time` is then what an
    engine of ours spends on this move.
    """

    time: float | None = None
    iterations: int | None = None
    depth: int | None = None
    nodes: int | None = None
    clock: GameClock | None = None

    def __post_init__(self) -> None:
        for name in ("time", "iterations", "depth", "nodes"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ValueError(f"limit {name} must be positive, not {value}")

    def is_unbounded(self) -> bool:
        return (
            self.time is None
            and self.iterations is None
            and self.depth is None
            and self.nodes is None
            and self.clock is None
        )


def win_rate(value: float) -> float:
    """A value in [-1, 1] as the win rate in [0, 1] it stands for (draws count half)."""
    return (value + 1) / 2


class Figures(Enum):
    """Which ColumnStat figures an engine fills, so a table knows its columns."""

    MCTS = "mcts"  # visits, value (win rate) and uct
    FLAT = "flat"  # visits (playouts) and value
    NEGAMAX = "negamax"  # a heuristic score to a depth
    EXACT = "exact"  # the solver's exact scores
    PUCT = "puct"  # a network's prior, visits and value (the learned engine)
    CHANCES = "chances"  # a score (exact or heuristic) and the chance it gave the column
    PLAIN = "plain"  # none: it plays by rule or at random


@dataclass(frozen=True)
class Reading:
    """How an engine's SearchInfo reads, so whoever shows it asks the engine, not its name."""

    # Which ColumnStat figures it fills; None: it varies, so read the figures themselves
    # (greedy scores only the forced columns).
    figures: Figures | None = None
    counts: str = "iterations"  # what SearchInfo.iterations counts
    keeps_tree: bool = False  # visits may exceed this search's iterations (a reused tree)
    solver: bool = False  # an exact player: a column it did not prove, it ran out of time
    # It picks among the legal columns by chance: `best` is the column it picked, not
    # one it judged best, and it has no principal variation.
    at_random: bool = False


@dataclass(frozen=True, slots=True)
class ColumnStat:
    """What a search knows about one root column. Engines fill what they have."""

    visits: int | None = None
    value: float | None = None
    uct: float | None = None
    score: int | None = None
    proven: Proven | None = None
    # The depth `score` was searched to (NegaMax): while a deeper iteration runs, the
    # columns it has done already show its depth and the others still the last one's.
    depth: int | None = None
    # `proven` comes from the opening book, not from this search: such a column was
    # never searched (no win rate of its own), only ruled out.
    by_book: bool = False
    # The chance in [0, 1] an engine that picks by chance gave this column (human-like).
    chance: float | None = None
    # The network's prior in [0, 1] for this column (the learned engine): its own
    # choice before any search; the priors of a position sum to 1.
    prior: float | None = None


@dataclass(frozen=True, slots=True)
class SearchInfo:
    """A snapshot of a running (or finished) search."""

    engine: str
    elapsed: float = 0.0
    nodes: int | None = None
    iterations: int | None = None
    depth: int | None = None
    rate: float | None = None  # nodes or iterations per second
    columns: tuple[ColumnStat | None, ...] = ()  # one per board column, None when full
    best: int | None = None
    pv: tuple[int, ...] = ()
    exact: bool = False
    # True when the move played was the `noise=` handicap's random choice, not `best`.
    handicap: bool = False
    # The network's own value of the root position in [-1, 1], side to move's view
    # (the learned engine), before any search.
    net_value: float | None = None


@dataclass(frozen=True, slots=True)
class SearchResult:
    move: int
    info: SearchInfo = field(default_factory=lambda: SearchInfo(engine=""))


InfoCallback = Callable[[SearchInfo], None]


class GameOverError(ValueError):
    """A search was asked for a move in a finished game: there is none to make."""

    def __init__(self, position: Position) -> None:
        super().__init__(f"the game {position.to_moves()!r} is over: there is no move to make")
        self.position = position


@dataclass(frozen=True)
class Bundle:
    """What an engine needs to play as a standalone agent (`c4tui connectx`), beside the
    c4tui modules that imports reach from its own module: `modules` it loads by name,
    and `files`: (setting, path) pairs, each file carried along and the spec's setting
    pointed at the carried copy (a learned engine's network, say)."""

    modules: tuple[str, ...] = ()
    files: tuple[tuple[str, str], ...] = ()


class Forfeit(RuntimeError):
    """An outside engine failed in a way that loses the game: it crashed, hung, printed
    junk, answered an illegal column or overran its time. The message is the reason,
    worded for the loser's line in a table ("crashed (exit status 1)")."""


class Engine(Protocol):
    """One opponent. Keeps its own state between moves; `new_game()` resets it, and
    `close()` ends what it holds (an outside engine's process); it may play again after.
    """

    @property
    def name(self) -> str:  # "mcts", "perfect": read only (an engine class may fix it)
        ...

    spec: str  # the spec string it was made from, e.g. "mcts:time=2"
    limits: Limits  # the budget from the spec, used when search() gets no limits
    # Set by close() when it had to kill processes the engine left running out of its
    # reach (an outside engine's): the reason its game is lost; "" after a clean end.
    left_running: str

    def search(
        self,
        position: Position,
        limits: Limits | None = None,
        *,
        on_info: InfoCallback | None = None,
        stop: threading.Event | None = None,
    ) -> SearchResult: ...

    def new_game(self) -> None: ...

    def close(self) -> None: ...
