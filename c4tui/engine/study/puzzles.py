"""Puzzles: positions where exactly one column keeps the best result, found by the solver.

A position is a puzzle when its best result is a win or a draw and only one column
keeps it: every other column wins no more (turns the win into a draw or a loss, or the
draw into a loss). The positions come from plausible games (moves that do not hand over
a win in one, leaning to the centre, as people play), each solved exactly within a time
limit. Difficulty follows how far the end is with best play (`distance`, the mover's
moves to the end: the N of "win in N", or to the full board for a draw) and how many
wrong columns look as natural as the answer (they hand over nothing in one move):
- easy: distance 1 to 3;
- medium: distance 4 to 8, at least one natural wrong column;
- hard: distance 9 or more, at least two natural wrong columns.
Each puzzle also has a rating on the levels' Elo scale and a theme (win, defend, draw),
both computed from the position and its scores (puzzle_ratings.py).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from c4tui.engine.board.geometry import centre_distance
from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import best_score, keeping_columns, moves_to_end, stones_to_come
from c4tui.engine.players.tactics import safe_columns
from c4tui.engine.study.exact_columns import column_scores
from c4tui.engine.study.puzzle_ratings import Theme, puzzle_rating, puzzle_theme

Difficulty = Literal["easy", "medium", "hard"]
DIFFICULTIES: dict[Difficulty, tuple[int, int, int]] = {
    # name: (shortest distance, longest distance, natural wrong columns at least)
    "easy": (1, 3, 0),
    "medium": (4, 8, 1),
    "hard": (9, 99, 2),
}
SOLVE_SECONDS = 1.0  # a position the solver cannot finish in this is skipped
MAX_TRIES = 20000  # positions looked at before giving up on finding `count` puzzles


@dataclass(frozen=True)
class Puzzle:
    position: Position
    solution: int  # 0-based column
    result: Literal["win", "draw"]
    distance: int
    scores: tuple[int | None, ...]
    natural_wrong: int  # wrong columns that hand over nothing in one move

    @cached_property
    def rating(self) -> int:
        """On the levels' Elo scale: how strong a level finds the answer half the time."""
        return puzzle_rating(self.position, self.scores)

    @cached_property
    def theme(self) -> Theme:
        return puzzle_theme(self.position, self.scores)

    def to_json(self) -> dict[str, object]:
        return {
            "position": self.position.to_moves(),
            "solution": self.solution + 1,
            "result": self.result,
            "distance": self.distance,
            "rating": self.rating,
            "theme": self.theme,
        }


def puzzle_of(position: Position, scores: list[int | None]) -> Puzzle | None:
    """The puzzle this position makes, or None when it makes none."""
    best = best_score(scores)
    if best < 0:
        return None
    keeping = keeping_columns(scores)
    if len(keeping) != 1:
        return None
    solution = keeping[0]
    # A draw ends with the board full: its distance is the mover's stones still to come.
    distance = moves_to_end(position, best) if best > 0 else stones_to_come(position)
    safe = set(safe_columns(position))
    natural = sum(1 for c in safe if c != solution and scores[c] is not None)
    return Puzzle(
        position, solution, "win" if best > 0 else "draw", distance, tuple(scores), natural
    )


def fits(puzzle: Puzzle, difficulty: Difficulty | None) -> bool:
    if difficulty is None:
        return True
    shortest, longest, natural = DIFFICULTIES[difficulty]
    return shortest <= puzzle.distance <= longest and puzzle.natural_wrong >= natural


def plausible_position(
    rng: random.Random, plies: int, start: Position | None = None
) -> Position | None:
    """A position after `plies` moves from `start` (the empty 7x6 board) a person might
    play: no win in one handed over when it can be helped, columns near the centre more
    often."""
    position = start or Position.start()
    for _ in range(plies):
        if position.is_over():
            return None
        columns = safe_columns(position) or list(position.legal_moves())
        weights = [position.width - centre_distance(c, position.width) for c in columns]
        position = position.play(rng.choices(columns, weights)[0])
    return None if position.is_over() else position


def find_puzzles(
    count: int,
    seed: int | None = None,
    difficulty: Difficulty | None = None,
    seconds: float = SOLVE_SECONDS,
    board: tuple[int, int, int] = (7, 6, 4),
    theme: Theme | None = None,
) -> Iterator[Puzzle]:
    """Up to `count` distinct puzzles (a position and its mirror image count as one) on
    the `board` (width, height, connect), of `theme` when given."""
    rng = random.Random(seed)
    start = Position.start(*board)
    # 6 to 32 plies on 7x6: late enough for tactics, early enough to be a game.
    longest = max(6, start.geometry.cells - 10)
    seen: set[int] = set()
    found = 0
    for _ in range(MAX_TRIES):
        if found >= count:
            return
        position = plausible_position(rng, rng.randint(6, longest), start)
        if position is None:
            continue
        key = min(position.key(), position.mirror().key())
        if key in seen:
            continue
        seen.add(key)
        scores = column_scores(position, seconds)
        if scores is None:
            continue
        puzzle = puzzle_of(position, scores)
        if puzzle is not None and fits(puzzle, difficulty) and theme in (None, puzzle.theme):
            found += 1
            yield puzzle
