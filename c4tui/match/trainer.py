"""The puzzle trainer: one position at a time, your column judged at once, a streak kept.

Puzzles come first from your own reviewed games (the position before each move the
review marked a mistake or a blunder: find a column that keeps the result), then from
`c4tui puzzle`'s finder (exactly one column keeps it). A column is right when it keeps
the best result class (a win stays a win, a draw a draw). The streak, the best streak
and the queue of your games' puzzles live in <data dir>/trainer.json, written
atomically; a damaged file starts afresh.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

from c4tui.engine.position import Position
from c4tui.engine.puzzles import Puzzle, find_puzzles, puzzle_of
from c4tui.engine.review import MoveReview
from c4tui.engine.scores import describe_score, keeping_columns
from c4tui.files import atomic_write

FILE_NAME = "trainer.json"
QUEUE_KEPT = 200


@dataclass(frozen=True)
class Answer:
    right: bool
    text: str  # what to tell the person, with the answer's exact result


class Trainer:
    """Puzzles to solve, and the streak."""

    def __init__(self, directory: Path, seed: int | None = None) -> None:
        self.path = directory / FILE_NAME
        self.rng = random.Random(seed)
        self.streak = self.best = 0
        self.queue: list[dict] = []  # {"moves": "...", "scores": [...]}, oldest first
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            self.streak, self.best = int(data["streak"]), int(data["best"])
            self.queue = [dict(item) for item in data.get("queue", [])]
        except (OSError, ValueError, TypeError, KeyError):
            pass

    def _save(self) -> None:
        data = {"streak": self.streak, "best": self.best, "queue": self.queue[-QUEUE_KEPT:]}
        atomic_write(self.path, json.dumps(data) + "\n")

    def add_mistakes(self, reviews: list[MoveReview], game: Position) -> int:
        """Queue the positions before your game's mistakes and blunders; how many were new."""
        known = {item["moves"] for item in self.queue}
        added = 0
        for review in reviews:
            moves = game.to_moves()[: review.ply - 1]
            if review.verdict in ("mistake", "blunder") and moves not in known:
                self.queue.append({"moves": moves, "scores": list(review.scores)})
                known.add(moves)
                added += 1
        if added:
            self._save()
        return added

    def next_puzzle(self) -> Puzzle:
        """The oldest puzzle from your games, else a fresh one from the finder."""
        while self.queue:
            item = self.queue.pop(0)
            self._save()
            position = Position.from_moves(item["moves"])
            puzzle = puzzle_of(position, item["scores"]) or _keep_any(position, item["scores"])
            if puzzle is not None:
                return puzzle
        return next(find_puzzles(1, seed=self.rng.randrange(2**32)))

    def answer(self, puzzle: Puzzle, column: int) -> Answer:
        """Judge a column, count it in the streak, and say why."""
        keepers = keeping_columns(puzzle.scores)
        played = puzzle.scores[column]
        right = column in keepers
        self.streak = self.streak + 1 if right else 0
        self.best = max(self.best, self.streak)
        self._save()
        position = puzzle.position
        answer = ", ".join(str(c + 1) for c in keepers)
        if played is None:
            return Answer(False, f"Column {column + 1} is full. The answer: {answer}.")
        said = describe_score(position, played)
        if right:
            return Answer(True, f"Right: {column + 1} keeps the {puzzle.result} ({said}).")
        kept = describe_score(position, max(s for s in puzzle.scores if s is not None))
        return Answer(False, f"Not {column + 1}: it gives {said}. The answer: {answer} ({kept}).")


def _keep_any(position: Position, scores: list[int | None]) -> Puzzle | None:
    """A puzzle where any of several columns keeps the result (from a reviewed game)."""
    best = max(s for s in scores if s is not None)
    if best < 0:
        return None
    solution = scores.index(best)
    result = "win" if best > 0 else "draw"
    return Puzzle(position, solution, result, 0, tuple(scores), 0)
