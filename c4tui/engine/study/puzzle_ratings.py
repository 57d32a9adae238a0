"""Puzzle ratings on the levels' Elo scale, and puzzle themes computed from the position.

A puzzle's rating: each calibrated level (levels.py, with its measured Elo) finds the
answer with a chance that follows from its own rule of choice, computed exactly from
the puzzle's column scores (human.py's `choice_weights`; the perfect player, level 8,
always finds it). Treat the puzzle as a player whom level L "beats" with that chance:
its rating R is the one where the levels' expected scores against it, 1 / (1 + 10 ^
((R - R_L) / 400)), add up to their chances (the maximum-likelihood rating against
opponents of known rating), found by bisection and kept within 400 of the levels'
range. A puzzle every level finds is rated low; one only the strong levels find, high.

Themes: `defend` when the answer blocks the opponent's threat that is playable now;
else `win` ("win in N") when the puzzle's result is a win; else `draw` (the only move
that draws).
"""

from __future__ import annotations

from typing import Literal

from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import best_score, keeping_columns
from c4tui.engine.players.human import exact_weights, level_care
from c4tui.engine.players.levels import LEVELS, RATINGS
from c4tui.engine.players.tactics import threatened_columns, winning_columns

Theme = Literal["win", "defend", "draw"]
THEMES: tuple[Theme, ...] = ("win", "defend", "draw")
LOWEST, HIGHEST = min(RATINGS.values()) - 400, max(RATINGS.values()) + 400


def level_chance(level: int, position: Position, scores: tuple[int | None, ...]) -> float:
    """The chance that `level` plays a column keeping the best result class."""
    settings = level_care(level)
    if settings is None:
        return 1.0  # the perfect player
    weights = exact_weights(position, scores, *settings)
    keeping = keeping_columns(scores)
    return sum(weights[c] for c in keeping) / sum(weights.values())


def rating_from_chances(chances: dict[int, float]) -> int:
    """The rating whose expected results against the levels add up to their chances."""

    def surplus(rating: float) -> float:  # rises with the rating: the levels expect less
        return sum(
            chance - 1 / (1 + 10 ** ((rating - RATINGS[level]) / 400))
            for level, chance in chances.items()
        )

    low, high = float(LOWEST), float(HIGHEST)
    if surplus(low) >= 0:
        return LOWEST
    if surplus(high) <= 0:
        return HIGHEST
    for _ in range(40):
        middle = (low + high) / 2
        low, high = (low, middle) if surplus(middle) > 0 else (middle, high)
    return round((low + high) / 2)


def puzzle_rating(position: Position, scores: tuple[int | None, ...]) -> int:
    return rating_from_chances({lv: level_chance(lv, position, scores) for lv in LEVELS})


def puzzle_theme(position: Position, scores: tuple[int | None, ...]) -> Theme:
    keeping = keeping_columns(scores)
    threats = set(threatened_columns(position))
    if threats and not winning_columns(position) and set(keeping) <= threats:
        return "defend"
    best = best_score(scores)
    return "win" if best > 0 else "draw"
