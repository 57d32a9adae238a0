"""A player that errs the way people do: often slightly, rarely badly.

It rates every column, then picks one at random, weighted by how much each costs
against the best: weight = exp(-cost / care). Costs are on one scale: with the exact
solver (7x6 with its opening book answers most positions in milliseconds; a time limit
keeps every move quick), a column worth one result class less (a win turned into a
draw, a draw into a loss) costs 100 more, and within a class a slower win or a quicker
loss costs a little; where the solver runs out of time, a shallow NegaMax search's
heuristic scores stand in. `care` is the one parameter of its strength: at care=1
it never loses a result class but often wins a move slower than it could; at care=50
it often plays a weaker column that keeps the result and now and then one that loses a
class; at care=1000 its choice is close to uniform.

Among the columns that lose, a person who errs plays one that loses slowly: the
refutation of a slow loss is long and hard to find, while a quick one is a blunder
that anyone sees. So within the loss class each stone quicker costs LOSS_STEP (about
half a class), not one: after 1. ●4 (every reply loses) level 7 answers ○4, the slowest
loss, about half the time and the edge columns almost never. The class as a whole keeps
the chance the plain costs give it, so a level drops a result class as often as its
care says; only which losing column it plays changes.

Handing over a win in one (a threat left open, a stone under the opponent's winning
spot) is the mistake people notice most, and the one a player soon learns to avoid: so
whatever the care, while some column does not hand one over, the columns that do get
at most `slip` of the chance between them (default 0.02, one move in fifty; slip=1
drops the guard, as level 1 does). A cap on the chance rather than an extra cost, so
that it means the same at every care and however many columns hand a win over.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cache
from typing import ClassVar

from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import proven_of, result_class
from c4tui.engine.players.base import BaseEngine, Clock
from c4tui.engine.players.contract import (
    ColumnStat,
    Figures,
    InfoCallback,
    Limits,
    Reading,
    SearchInfo,
)
from c4tui.engine.players.options import Option
from c4tui.engine.players.tactics import hands_over_a_win
from c4tui.engine.study.exact_columns import column_scores

CLASS_STEP = 100  # the cost of one result class, in the same units as a score
HEURISTIC_CAP = 250  # heuristic scores are unbounded: anything past this is "decided"
SOLVE_SECONDS = 0.5  # per move, before the shallow search stands in
FALLBACK_DEPTH = 4
SLIP = 0.02  # the most chance of handing over a win in one, by default
LOSS_STEP = 40.0  # the cost of losing one stone quicker, among the losing columns


def exact_utility(score: int) -> float:
    """An exact score on the cost scale: the result class first, then its speed."""
    return CLASS_STEP * result_class(score) + score


def losing_scores(scores: Sequence[int | None]) -> dict[int, int]:
    """The exact scores of the columns that lose, by column."""
    return {col: s for col, s in enumerate(scores) if s is not None and s < 0}


def choice_weights(
    utility: dict[int, float],
    care: float,
    slip: float,
    losing: set[int],
    losses: Mapping[int, int] | None = None,
) -> dict[int, float]:
    """How likely the engine picks each column (weights, not yet summing to 1): exp of
    minus the column's cost against the best over `care`; the loss class's share spread
    again over its columns, slow losses first (`losses`: the exact scores of the columns
    that lose, see the module docstring); then the columns in `losing` (they hand over a
    win in one) scaled down to `slip` of the chance between them.
    The one reference of the engine's choice: puzzle ratings read it too."""
    best = max(utility.values())
    weights = {col: math.exp(-(best - value) / care) for col, value in utility.items()}
    if losses and len(losses) > 1:
        share = sum(weights[col] for col in losses)
        slowest = max(losses.values())
        slow = {col: math.exp(-LOSS_STEP * (slowest - s) / care) for col, s in losses.items()}
        whole = sum(slow.values())
        for col in losses:
            weights[col] = share * slow[col] / whole
    if not losing or len(losing) == len(weights):
        return weights  # none does, or every column does: nothing to prefer
    lost = sum(weights[col] for col in losing)
    kept = sum(weights.values()) - lost
    if slip < 1 and lost > slip * (lost + kept):
        factor = slip * kept / ((1 - slip) * lost)
        for col in losing:
            weights[col] *= factor
    return weights


def exact_weights(
    position: Position, scores: Sequence[int | None], care: float, slip: float
) -> dict[int, float]:
    """`choice_weights` where every column's exact score is known: how a level with that
    `care` and `slip` picks among the columns of `position` (its moves, puzzle ratings
    and the levels' games that train the learned engine all read it here)."""
    utility = {col: float(exact_utility(s)) for col, s in enumerate(scores) if s is not None}
    handing = set(hands_over_a_win(position))
    return choice_weights(utility, care, slip, handing, losing_scores(scores))


@cache
def level_care(level: int) -> tuple[float, float] | None:
    """(care, slip) of a calibrated level (levels.py) that is this engine; None for the
    perfect player. Puzzle ratings and the levels' labelled games choose by it."""
    from c4tui.engine.players.levels import LEVELS
    from c4tui.engine.players.specs import make_engine

    engine = make_engine(LEVELS[level])
    return (engine.care, engine.slip) if isinstance(engine, HumanEngine) else None


class HumanEngine(BaseEngine):
    name = "human"
    TITLE = "Human-like"
    READING = Reading(figures=Figures.CHANCES)
    OPTIONS: ClassVar[dict[str, Option]] = {
        "care": Option(float, 0, 100000, exclusive_minimum=True, help="size of its mistakes"),
        "slip": Option(float, 0, 1, help="most chance of handing over a win in one"),
        "time": Option(float, 0, 60, exclusive_minimum=True, help="seconds for the solver"),
    }

    def __init__(
        self,
        *,
        seed: int | None = None,
        care: float = 20.0,
        slip: float = SLIP,
        time: float | None = None,
        limits: Limits | None = None,
    ) -> None:
        super().__init__(seed=seed, limits=limits, time=time)
        self.care = care
        self.slip = slip

    def budget(self, limits: Limits) -> Limits:
        # The time is the solver's: without one it has SOLVE_SECONDS.
        return limits if limits.time is not None else replace(limits, time=SOLVE_SECONDS)

    def think(
        self, position: Position, limits: Limits, clock: Clock, on_info: InfoCallback | None
    ) -> SearchInfo:
        scores = column_scores(position, limits.time, clock.stop)
        exact = scores is not None
        if scores is None:
            scores = self._heuristic_scores(position)
        utility = {
            col: exact_utility(score) if exact else max(-HEURISTIC_CAP, min(HEURISTIC_CAP, score))
            for col, score in enumerate(scores)
            if score is not None
        }
        best_value = max(utility.values())
        weights = (
            exact_weights(position, scores, self.care, self.slip)
            if exact
            else choice_weights(utility, self.care, self.slip, set(hands_over_a_win(position)))
        )
        total = sum(weights.values())
        columns = sorted(weights)
        move = self.rng.choices(columns, [weights[c] for c in columns])[0]
        stats = tuple(
            None
            if (score := scores[col]) is None
            else ColumnStat(
                score=score,
                proven=proven_of(score) if exact else None,
                # The chance it gave this column: it picks by chance, it counts nothing.
                chance=weights[col] / total,
            )
            for col in range(position.width)
        )
        return SearchInfo(
            engine=self.name,
            elapsed=clock.elapsed(),
            columns=stats,
            best=move,
            pv=(move,),
            exact=exact,
            # A weaker column chosen on purpose: the thinking panel says so.
            handicap=utility[move] < best_value,
        )

    def _heuristic_scores(self, position: Position) -> list[int | None]:
        from c4tui.engine.players.negamax import NegamaxEngine

        engine = NegamaxEngine(depth=FALLBACK_DEPTH, seed=self.seed)
        info = engine.search(position).info
        return [None if stat is None else stat.score for stat in info.columns]
