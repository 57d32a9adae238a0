"""The tallies of a round robin: each pair's results, the standings, and an Elo estimate.

Elo (see `elo_estimate`): each engine's score against the field, turned into the rating
difference to its average opponent under the logistic Elo model, with a 95% interval
from the standard error of the per-game score (after a clean sweep, a one-sided bound
from the exact binomial interval).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any

from c4tui.tournament.games import MoveTally, PlayedGame


def result_for(engine: int, winner: int | None) -> int:
    """A game's result for `engine` (an index into the specs), given its winner (None:
    a draw): 1 won, 0 drawn, -1 lost."""
    return 0 if winner is None else 1 if winner == engine else -1


@dataclass
class PairResult:
    """The games between engines a and b (indices into the specs), from a's side."""

    a: int
    b: int
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0
    first_mover_wins: int = 0  # whoever moved first, to show the first-move advantage
    second_mover_wins: int = 0

    @property
    def games(self) -> int:
        return self.a_wins + self.b_wins + self.draws

    def count(self, winner: int | None) -> None:
        """Count a game between a and b won by `winner` (None: drawn)."""
        result = result_for(self.a, winner)
        self.a_wins += result > 0
        self.draws += result == 0
        self.b_wins += result < 0

    def from_winners_side(self) -> PairResult:
        """The same games told from the side that scored more ("a beat b 19-1").

        An even score keeps the order the engines were given in.
        """
        if self.b_wins <= self.a_wins:
            return self
        return replace(self, a=self.b, b=self.a, a_wins=self.b_wins, b_wins=self.a_wins)

    @property
    def a_score(self) -> float | None:
        return (self.a_wins + self.draws / 2) / self.games if self.games else None


@dataclass
class Standing:
    """One engine's games against the whole field, and what its moves cost."""

    engine: int
    wins: int = 0
    draws: int = 0
    losses: int = 0
    tally: MoveTally = field(default_factory=MoveTally)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def count(self, winner: int | None) -> None:
        """Count a game of this engine's won by `winner` (None: drawn)."""
        result = result_for(self.engine, winner)
        self.wins += result > 0
        self.draws += result == 0
        self.losses += result < 0

    @property
    def score(self) -> float | None:
        return (self.wins + self.draws / 2) / self.games if self.games else None


@dataclass(frozen=True)
class Elo:
    """Rating difference to the average opponent, with its 95% interval.

    `rating` is None when the engine won or lost every game (the difference is
    unbounded); `low`/`high` are None when that side of the interval is unbounded.
    """

    rating: float | None
    low: float | None
    high: float | None

    @property
    def margin(self) -> float | None:
        if self.low is None or self.high is None:
            return None
        return (self.high - self.low) / 2


def elo_of_score(score: float) -> float | None:
    """The logistic Elo difference that expects this score; None at 0% or 100%."""
    if not 0 < score < 1:
        return None
    return -400 * math.log10(1 / score - 1)


def elo_estimate(wins: int, draws: int, losses: int) -> Elo:
    """Elo from a score, with a 95% interval from the per-game standard error.

    Each game scores 1, 1/2 or 0; the interval is score +- 1.96 standard errors of the
    mean game score, each end turned into Elo (so the interval is not symmetric). An
    end beyond 0% or 100% is unbounded (None).
    """
    games = wins + draws + losses
    if games == 0:
        return Elo(None, None, None)
    score = (wins + draws / 2) / games
    if score in (0, 1):
        # Every game won (or lost): the normal interval collapses to a point, so bound
        # the score by the exact binomial one (2.5% chance of so clean a sweep).
        bound = 0.025 ** (1 / games)
        if score == 1:
            return Elo(None, elo_of_score(bound), None)
        return Elo(None, None, elo_of_score(1 - bound))
    variance = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / games
    error = 1.96 * math.sqrt(variance / games)
    return Elo(elo_of_score(score), elo_of_score(score - error), elo_of_score(score + error))


@dataclass
class Crosstable:
    """The running results of a tournament, fed one finished game at a time."""

    specs: Sequence[str]
    # Which engines meet (every two by default; a gauntlet's first against the others).
    pairings: Sequence[tuple[int, int]] | None = None
    pairs: dict[tuple[int, int], PairResult] = field(default_factory=dict)
    standings: list[Standing] = field(default_factory=list)

    def __post_init__(self) -> None:
        meeting = self.pairings or list(combinations(range(len(self.specs)), 2))
        self.pairs = {(a, b): PairResult(a, b) for a, b in meeting}
        self.standings = [Standing(i) for i in range(len(self.specs))]

    @property
    def games(self) -> int:
        return sum(pair.games for pair in self.pairs.values())

    def add(self, record: PlayedGame) -> None:
        task = record.task
        a, b = sorted((task.first, task.second))
        pair = self.pairs[(a, b)]
        pair.count(record.winner)
        if record.winner is not None:
            if record.first_won:
                pair.first_mover_wins += 1
            else:
                pair.second_mover_wins += 1
        for engine, tally in ((task.first, record.first_tally), (task.second, record.second_tally)):
            standing = self.standings[engine]
            standing.tally.merge(tally)
            standing.count(record.winner)

    def ranked(self) -> list[Standing]:
        """Standings, best score first (engines without games last, in spec order)."""
        return sorted(self.standings, key=lambda s: (s.score is None, -(s.score or 0), s.engine))

    def to_json(self) -> dict[str, Any]:
        """Plain figures for `--json`, with the spec strings exactly as given."""
        results = []
        for pair in self.pairs.values():
            pair = pair.from_winners_side()
            results.append(
                {
                    "a": self.specs[pair.a],
                    "b": self.specs[pair.b],
                    "a_wins": pair.a_wins,
                    "b_wins": pair.b_wins,
                    "draws": pair.draws,
                    "games": pair.games,
                    "a_score": _round(pair.a_score, 4),
                    "first_mover_wins": pair.first_mover_wins,
                    "second_mover_wins": pair.second_mover_wins,
                }
            )
        standings = []
        for rank, standing in enumerate(self.ranked(), start=1):
            elo = elo_estimate(standing.wins, standing.draws, standing.losses)
            per_move = standing.tally.per_move()
            standings.append(
                {
                    "rank": rank,
                    "engine": self.specs[standing.engine],
                    "games": standing.games,
                    "wins": standing.wins,
                    "draws": standing.draws,
                    "losses": standing.losses,
                    "score": _round(standing.score, 4),
                    "elo": _round(elo.rating, 1),
                    "elo_low": _round(elo.low, 1),
                    "elo_high": _round(elo.high, 1),
                    "moves": standing.tally.moves,
                    "seconds_per_move": _round(per_move["seconds_per_move"], 5),
                    "iterations_per_move": _round(per_move["iterations_per_move"], 1),
                    "nodes_per_move": _round(per_move["nodes_per_move"], 1),
                    "depth": _round(per_move["depth"], 2),
                }
            )
        return {"results": results, "standings": standings}


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)
