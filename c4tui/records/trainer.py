"""The puzzle trainer: one position at a time, your column judged at once, a streak and a
rating kept.

Puzzles come first from your own reviewed games (the position before each move the
review marked a mistake or a blunder, the empty board left out: find a column that
keeps the result; there, several columns may keep it, and the puzzle says how many),
then from `c4tui puzzle`'s finder (exactly one column keeps it). Puzzles follow the
board played: on 9x7 connect 5 they are 9x7 connect 5 positions, from your games on
that board or the finder's. A column is right when it keeps
the best result class (a win stays a win, a draw a draw). Your puzzle rating is a
Glicko-2 rating (glicko.py): each answer is a game against the puzzle's rating
(puzzle_ratings.py), won when right; fresh puzzles are chosen near it, of a theme when
asked. The rating, the streak, the best streak and the queue of your games' puzzles
live in <data dir>/trainer.json, written
atomically. A damaged file, or a damaged puzzle in it, never stops the trainer: what
could not be read is left out, the file is kept aside (see aside.py) before it is
first written again, and `take_notices` says so; so does a file that cannot be written.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import best_score, describe_score, keeping_columns
from c4tui.engine.study.glicko import Rating, update
from c4tui.engine.study.puzzle_ratings import Theme
from c4tui.engine.study.puzzles import Puzzle, find_puzzles, puzzle_of
from c4tui.engine.study.review import MoveReview
from c4tui.files import NoSuchFile, atomic_write, read_json
from c4tui.records.aside import set_aside

FILE_NAME = "trainer.json"
QUEUE_KEPT = 200
PUZZLE_DEVIATION = 60.0  # a puzzle's rating is computed, not played in: fairly sure
CANDIDATES = 4  # fresh puzzles found to pick the one nearest your rating
DEFAULT_BOARD = (7, 6, 4)


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
        self.rating = Rating()
        # {"moves": "...", "scores": [...], "board": [w, h, connect]}, oldest first
        self.queue: list[dict[str, Any]] = []
        self.damage: str | None = None  # what in the file on disk could not be read
        self._notices: list[str] = []
        try:
            data = read_json(self.path)
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
            streak, best = data["streak"], data["best"]
            if not all(type(n) is int and n >= 0 for n in (streak, best)):
                raise ValueError(f"streak {streak!r:.20} and best {best!r:.20} are no counts")
            self.streak, self.best = streak, best
            if "rating" in data:
                self.rating = _rating_of(data["rating"])
            queue = data.get("queue", [])
            if not isinstance(queue, list):
                raise ValueError("the queue is not a list")
            self.queue = [item for item in queue if is_queue_item(item)]
            if len(self.queue) < len(queue):
                self._damaged(f"{len(queue) - len(self.queue)} puzzle(s) left out")
        except NoSuchFile:
            pass
        except (OSError, ValueError, TypeError, KeyError) as error:
            self._damaged(str(error) or type(error).__name__)

    def _damaged(self, why: str) -> None:
        self.damage = why if self.damage is None else f"{self.damage}; {why}"

    def take_notices(self) -> list[str]:
        """What to tell the person since the last call (damage left out, writes refused)."""
        notices, self._notices = self._notices, []
        return notices

    def _save(self) -> None:
        rating = {"r": self.rating.r, "rd": self.rating.rd, "sigma": self.rating.sigma}
        data = {
            "streak": self.streak,
            "best": self.best,
            "rating": rating,
            "queue": self.queue[-QUEUE_KEPT:],
        }
        try:
            if self.damage is not None and (self.path.exists() or self.path.is_symlink()):
                aside = set_aside(self.path)
                self._notices.append(
                    f"The puzzle file was damaged ({self.damage}); kept as {aside}."
                )
            self.damage = None
            atomic_write(self.path, json.dumps(data) + "\n")
        except OSError as error:
            said = error.strerror or str(error)  # not the temporary file's name
            self._notices.append(
                f"Could not keep the puzzles and the streak in {self.path}: {said}"
            )

    def add_mistakes(self, reviews: list[MoveReview], game: Position) -> int:
        """Queue the positions before your game's mistakes and blunders; how many were new."""
        board = [game.width, game.height, game.connect]
        known = {item["moves"] for item in self.queue if _board_of(item) == board}
        added = 0
        for review in reviews:
            moves = game.to_moves()[: review.ply - 1]
            # The empty board is no puzzle: the first move is the opening's, and its
            # position line would be blank.
            if review.verdict in ("mistake", "blunder") and moves and moves not in known:
                self.queue.append({"moves": moves, "scores": list(review.scores), "board": board})
                known.add(moves)
                added += 1
        if added:
            self._save()
        return added

    def next_puzzle(
        self, theme: Theme | None = None, board: tuple[int, int, int] = DEFAULT_BOARD
    ) -> Puzzle:
        """The oldest puzzle from your games on `board` (width, height, connect; of
        `theme`, when given), else a fresh one from the finder on that board, the nearest
        your rating of a few; damaged puzzles in the queue are left out, with a notice."""
        puzzle, left_out, taken, waiting = None, [], bool(self.queue), []
        for item in self.queue:
            if puzzle is not None:
                waiting.append(item)
                continue
            try:
                found = _queued_puzzle(item)
            except (ValueError, TypeError, KeyError, IndexError) as error:
                left_out.append(str(error))
                continue
            if _board_of(item) != list(board):
                waiting.append(item)  # of another board: it waits for a game on that one
            elif found is not None and theme not in (None, found.theme):
                waiting.append(item)  # another theme: it waits for its turn
            else:
                puzzle = found
        self.queue = waiting
        if left_out:
            self._damaged(f"{len(left_out)} puzzle(s) left out, the first: {left_out[0]}")
        if taken:
            self._save()
        if puzzle is not None:
            return puzzle
        seed = self.rng.randrange(2**32)
        fresh = list(find_puzzles(CANDIDATES, seed=seed, theme=theme, board=board))
        if not fresh:
            raise LookupError("no puzzle found within the finder's reach")
        return min(fresh, key=lambda p: abs(p.rating - self.rating.r))

    def answer(self, puzzle: Puzzle, column: int) -> Answer:
        """Judge a column, count it in the streak, and say why."""
        keepers = keeping_columns(puzzle.scores)
        played = puzzle.scores[column]
        right = column in keepers
        self.streak = self.streak + 1 if right else 0
        self.best = max(self.best, self.streak)
        opponent = Rating(puzzle.rating, PUZZLE_DEVIATION)
        self.rating = update(self.rating, [(opponent, 1.0 if right else 0.0)])
        self._save()
        position = puzzle.position
        answer = ", ".join(str(c + 1) for c in keepers)
        if played is None:
            return Answer(False, f"Column {column + 1} is full. The answer: {answer}.")
        said = describe_score(position, played)
        if right:
            others = [str(c + 1) for c in keepers if c != column]
            also = f"; so {'does' if len(others) == 1 else 'do'} {', '.join(others)}" * bool(others)
            return Answer(True, f"Right: {column + 1} keeps the {puzzle.result} ({said}){also}.")
        kept = describe_score(position, best_score(puzzle.scores))
        return Answer(False, f"Not {column + 1}: it gives {said}. The answer: {answer} ({kept}).")


def is_queue_item(item: object) -> bool:
    """Whether `item` has the shape add_mistakes writes: the moves a string, the scores
    a list, the board (when there) three whole numbers. Its moves and scores are checked
    against each other when it becomes a puzzle (_queued_puzzle)."""
    if not isinstance(item, dict):
        return False
    board = item.get("board", list(DEFAULT_BOARD))
    return (
        isinstance(item.get("moves"), str)
        and isinstance(item.get("scores"), list)
        and isinstance(board, list)
        and len(board) == 3
        and all(type(n) is int for n in board)
    )


def _rating_of(data: object) -> Rating:
    """The rating kept in the file; ValueError when it is not three sane numbers."""
    if not isinstance(data, dict):
        raise ValueError("the rating is not an object")
    r, rd, sigma = (data.get(key) for key in ("r", "rd", "sigma"))
    numbers = all(type(n) in (int, float) for n in (r, rd, sigma))
    if not numbers or not (0 < r < 5000 and 0 < rd <= 1000 and 0 < sigma < 1):  # type: ignore[operator]  # r, rd and sigma are numbers: checked just above
        raise ValueError(f"rating {r!r:.20} ± {rd!r:.20} is no rating")
    return Rating(float(r), float(rd), float(sigma))  # type: ignore[arg-type]  # numbers: checked above


def _board_of(item: dict[str, Any]) -> list[int]:
    """A queued puzzle's board, [width, height, connect] ([7, 6, 4] when none is written;
    the queue holds only items of add_mistakes' shape: is_queue_item)."""
    board: list[int] = item.get("board", list(DEFAULT_BOARD))
    return board


def _queued_puzzle(item: dict[str, Any]) -> Puzzle | None:
    """The puzzle of a queued position (None when it makes none); ValueError and its
    kin when the entry is not what add_mistakes writes."""
    width, height, connect = _board_of(item)
    moves, scores = item.get("moves"), item.get("scores")
    if not isinstance(moves, str) or not isinstance(scores, list):
        raise ValueError(f"moves {moves!r:.30} and scores {scores!r:.40} expected")
    position = Position.from_moves(moves, width, height, connect)
    bound = position.geometry.max_score  # no score is further from zero
    if position.is_over() or len(scores) != position.width:
        raise ValueError(f"no puzzle at {moves!r:.30} with {len(scores)} scores")
    for col, score in enumerate(scores):
        playable = position.can_play(col)
        if (score is None) == playable or not (score is None or type(score) is int):
            raise ValueError(f"column {col + 1}'s score {score!r:.20} does not fit {moves!r:.30}")
        if score is not None and abs(score) > bound:
            raise ValueError(f"column {col + 1}'s score {score} is out of range")
    return puzzle_of(position, scores) or _keep_any(position, scores)


def _keep_any(position: Position, scores: list[int | None]) -> Puzzle | None:
    """A puzzle where any of several columns keeps the result (from a reviewed game)."""
    best = best_score(scores)
    if best < 0:
        return None
    solution = scores.index(best)
    result: Literal["win", "draw"] = "win" if best > 0 else "draw"
    return Puzzle(position, solution, result, 0, tuple(scores), 0)
