"""One run of `c4tui sprt`: its settings, its pairs of games, its running test, its file.

Pair k is games 2k (NEW moves first) and 2k + 1 (OLD first) from the suite's opening for
k, every seed derived from the run's seed and the game's index: so a pair is the same
pair wherever and whenever it is played. Pairs count toward the test in their order,
not in the order they finish (`PairsInOrder`): the test stops at the same pair for the
same seed, whatever the number of workers, and a run killed and resumed from its file
reaches the same verdict as one left alone. Games in flight past the deciding pair are
dropped.

The file (`--state`) is JSON, rewritten whole after every counted pair (atomic_write):
a kill leaves the state of the last counted pair or the one before, never half a file.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from c4tui.files import DamagedFile, UnreadableFile, atomic_write, read_json
from c4tui.tournament import sprt
from c4tui.tournament.games import GameTask, PlayedGame
from c4tui.tournament.schedule import derive_seed
from c4tui.tournament.time_control import MoveLimits

NEW, OLD = 0, 1  # the engines' indices into the run's specs
FILE_FORMAT = "c4tui-sprt 1"
End = Literal["H1", "H0", "games-most"]


class Openings(Protocol):
    """Where pair k starts: an opening suite, or the self-play gate's random plies."""

    def opening(self, index: int) -> tuple[int, ...]: ...


class StateError(Exception):
    """The state file cannot be read, or it is not a run of these settings (says why)."""


@dataclass(frozen=True)
class Settings:
    """What decides a run's games and its test; a resumed run must be given the same."""

    new: str
    old: str
    elo0: float
    elo1: float
    alpha: float
    beta: float
    model: sprt.Model
    seed: int
    openings: str  # a suite's name or a file's (its openings are read again on resume)
    adjudicate: int  # empty cells at which the solver ends a game; 0: never
    games_most: int
    limits: MoveLimits | None = None


@dataclass
class SprtState:
    """The pairs counted so far and what the test says of them."""

    settings: Settings
    pentanomial: list[int] = field(default_factory=lambda: [0] * 5)  # NEW's pair points x2
    trinomial: list[int] = field(default_factory=lambda: [0] * 3)  # NEW's losses, draws, wins
    adjudicated: int = 0
    forfeits: int = 0
    end: End | None = None

    @property
    def pairs(self) -> int:
        return sum(self.pentanomial)

    @property
    def games(self) -> int:
        return 2 * self.pairs

    def llr(self) -> float:
        s = self.settings
        return sprt.llr(self.pentanomial, s.elo0, s.elo1, s.model)

    def bounds(self) -> tuple[float, float]:
        return sprt.bounds(self.settings.alpha, self.settings.beta)

    def elo(self) -> sprt.EloInterval:
        return sprt.elo_interval(self.pentanomial, self.settings.model)

    def add_pair(self, first: PlayedGame, second: PlayedGame) -> None:
        """Count pair (NEW first, OLD first), and end the test when it can."""
        points = 0.0
        for game in (first, second):
            score = 0.5 if game.winner is None else 1.0 if game.winner == NEW else 0.0
            self.trinomial[int(score * 2)] += 1
            points += score
            self.adjudicated += game.termination == "adjudicated"
            self.forfeits += game.termination == "forfeit"
        self.pentanomial[sprt.pair_outcome(points)] += 1
        s = self.settings
        decided = sprt.verdict(self.llr(), s.alpha, s.beta)
        if decided is not None:
            self.end = decided
        elif self.games >= s.games_most:
            self.end = "games-most"

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FILE_FORMAT,
            "settings": asdict(self.settings),
            "pentanomial": self.pentanomial,
            "trinomial": self.trinomial,
            "adjudicated": self.adjudicated,
            "forfeits": self.forfeits,
            "end": self.end,
        }

    @classmethod
    def from_json(cls, data: object) -> SprtState:
        """The state in a file's JSON; StateError unless it is one this module wrote."""
        try:
            if not isinstance(data, dict) or data.get("format") != FILE_FORMAT:
                raise TypeError(f"not a {FILE_FORMAT!r} file")
            fields = dict(data["settings"])
            if fields.get("limits") is not None:
                fields["limits"] = MoveLimits(**fields["limits"])
            settings = Settings(**fields)
            state = cls(
                settings,
                [int(n) for n in data["pentanomial"]],
                [int(n) for n in data["trinomial"]],
                int(data["adjudicated"]),
                int(data["forfeits"]),
                data["end"],
            )
            if len(state.pentanomial) != 5 or len(state.trinomial) != 3:
                raise TypeError("counts of the wrong length")
            if state.end not in (None, "H1", "H0", "games-most"):
                raise TypeError(f"no end {state.end!r}")
            if sum(state.trinomial) != state.games or min(state.pentanomial + state.trinomial) < 0:
                raise TypeError("counts that do not add up")
        except (TypeError, KeyError, ValueError) as error:
            raise StateError(f"not the state of an sprt run: {error}") from None
        return state


def load_state(path: Path) -> SprtState | None:
    """The run saved at `path`; None when there is no file yet."""
    try:
        data = read_json(path)
    except FileNotFoundError:
        return None
    except UnreadableFile as error:  # it names the path itself
        raise StateError(str(error)) from None
    except DamagedFile as error:
        raise StateError(f"{path}: {error}") from None
    try:
        return SprtState.from_json(data)
    except StateError as error:
        raise StateError(f"{path}: {error}") from None


def save_state(path: Path, state: SprtState) -> None:
    atomic_write(path, _json_text(state.to_json()))


def _json_text(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1) + "\n"


def pair_tasks(
    state: SprtState, suite: Openings, board: tuple[int, int, int] = (7, 6, 4)
) -> Iterator[GameTask]:
    """The games of the pairs not counted yet, until the test ends (read between pairs)."""
    s = state.settings
    specs = (s.new, s.old)
    pair = state.pairs
    while state.end is None and 2 * pair < s.games_most:
        opening = suite.opening(pair)
        for index in (2 * pair, 2 * pair + 1):
            first, second = (NEW, OLD) if index % 2 == 0 else (OLD, NEW)
            yield GameTask(
                index=index,
                first=first,
                second=second,
                first_spec=specs[first],
                second_spec=specs[second],
                opening=opening,
                first_seed=derive_seed(s.seed, index, "first"),
                second_seed=derive_seed(s.seed, index, "second"),
                adjudicate=s.adjudicate,
                limits=s.limits,
                board=board,
            )
        pair += 1


class PairsInOrder:
    """Finished games in, whole pairs out in pair order (see the module docstring)."""

    def __init__(self, next_pair: int) -> None:
        self.next_pair = next_pair
        self.waiting: dict[int, PlayedGame] = {}

    def add(self, game: PlayedGame) -> Iterator[tuple[PlayedGame, PlayedGame]]:
        """The pairs `game` completes, with any later ones that were waiting for it."""
        self.waiting[game.task.index] = game
        while 2 * self.next_pair in self.waiting and 2 * self.next_pair + 1 in self.waiting:
            first = self.waiting.pop(2 * self.next_pair)
            second = self.waiting.pop(2 * self.next_pair + 1)
            self.next_pair += 1
            yield first, second
