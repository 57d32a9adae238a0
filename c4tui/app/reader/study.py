"""The study tools in lines: the review, learning from your mistakes, exact scores, puzzles.

The same engine as the study screens (review.py, learn.py, the puzzle trainer), said in
the review's own words (screens/review_words.py): each move that was not the best, with
its verdict and the better columns; then each of your mistakes to play again, and
puzzles near your rating, as questions answered with a column number; and every
column's exact score on the board now (the normal mode's scores overlay). The solver works
in a thread; its answer comes back as lines.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from c4tui.app.reader import words
from c4tui.app.screens.puzzle import task_words
from c4tui.app.screens.review_words import WORDS, after_words, best_words, move_name
from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import describe_score
from c4tui.engine.study.learn import Lesson, lessons
from c4tui.engine.study.review import GIVE_UP_SECONDS, positions_of, review_game, tally
from c4tui.engine.turns import column_refusal
from c4tui.match.exact_scores import solve_columns
from c4tui.match.sides import GLYPHS


@dataclass(frozen=True)
class Question:
    """A position to find a column in, and what a column earns."""

    position: Position
    judge: Callable[[int], tuple[bool, str]]  # a column: right or not, and the line said
    then: str  # what to type next once it is answered


def review_lines(game: Position, reviews: list[Any]) -> list[str]:
    """The review: a tally for each side, then each move that was not the best."""
    lines = [f"review of {game.moves} moves"]
    for player in (1, 2):
        counts = tally(reviews, player)
        said = ", ".join(f"{n} {_counted(verdict, n)}" for verdict, n in counts.items())
        lines.append(f"{GLYPHS[player - 1]}: {said}")
    before = positions_of(game)  # the position before each move, in order
    for review in reviews:
        if review.verdict == "best":
            continue
        position = before[review.ply - 1][0]
        lines.append(
            f"move {move_name(review.ply - 1)}, column {review.column + 1}: "
            f"{WORDS[review.verdict]}; {best_words(position, review)}; "
            f"after it {after_words(position, review)}"
        )
    if len(lines) == 3:
        lines.append("every move was the best")
    return lines


class ReaderStudy:
    """Review, lessons and puzzles for one game screen's lines (module docstring)."""

    def __init__(self, say: Callable[[str], None], app: Any) -> None:
        self._say = say
        self._app = app
        self.question: Question | None = None
        self._lessons: list[Lesson] = []
        self._next: Callable[[], None] | None = None

    # ---- review and lessons ---------------------------------------------------------

    def review(self, game: Position | None = None, people: set[int] | None = None) -> None:
        """Review `game` (the game on the board when None) in lines; the mistakes of
        `people` (0 ●, 1 ○) become lessons."""
        match = self._app.match
        game = match.game.main_position if game is None else game
        if not game.moves:
            self._say("no moves to review yet")
            return
        if people is None:
            # Your mistakes: the sides this screen moves for (your seat in a room, none
            # when watching), through the view both kinds of match give.
            people = set(match.view().movers)
        self._say(f"reviewing {game.moves} moves with the solver")

        def work() -> None:
            reviews = review_game(game, seconds=GIVE_UP_SECONDS, stop=threading.Event())
            self._app.call_from_thread(self._reviewed, game, reviews, people)

        self._app.run_worker(work, thread=True, group="reader-study", exclusive=True)

    def _reviewed(self, game: Position, reviews: list[Any], people: set[int]) -> None:
        for line in review_lines(game, reviews):
            self._say(line)
        self._lessons = lessons(positions_of(game), reviews, people)
        if self._lessons:
            self._say(f"{len(self._lessons)} of your mistakes to play again: type learn")

    def learn(self) -> None:
        if not self._lessons:
            self._say("no mistakes of yours to learn from: review a game first (review)")
            return
        self._lesson(0)

    def _lesson(self, index: int) -> None:
        lesson = self._lessons[index]
        total = len(self._lessons)
        more = index + 1 < total
        self._next = (lambda: self._lesson(index + 1)) if more else None
        played = lesson.played + 1
        self._ask(
            f"lesson {index + 1} of {total}: move {move_name(lesson.ply)}, "
            f"{lesson.verdict} in column {played}; find a column that keeps the result",
            lesson.position,
            lambda column: _lesson_answer(lesson, column),
            "next: the next lesson" if more else "that was the last lesson",
        )

    # ---- exact scores ---------------------------------------------------------------

    def scores(self) -> None:
        """Every column's exact score on the board now, once (the normal mode's `o`
        shows them under the board from then on)."""
        position = self._app.match.position
        if position.is_over():
            self._say("the game is over: no column to score")
            return
        self._say(f"solving every column for {GLYPHS[position.to_move]}")

        def work() -> None:
            scores = solve_columns(position, threading.Event())
            if scores is not None:
                self._app.call_from_thread(self._say, words.exact_scores_line(position, scores))

        self._app.run_worker(work, thread=True, group="reader-study", exclusive=True)

    # ---- puzzles ----------------------------------------------------------------------

    def puzzle(self) -> None:
        trainer = getattr(self._app, "study", None)
        if trainer is None:
            self._say("puzzles are for a game of your own, not on a server")
            return
        trainer = trainer.trainer()
        g = self._app.match.position.geometry
        board = (g.width, g.height, g.connect)
        self._say("finding a puzzle near your rating")

        def work() -> None:
            try:
                found = trainer.next_puzzle(None, board)
            except Exception as error:  # said as a line, never a hang
                self._app.call_from_thread(self._say, f"no puzzle: {error}")
                return
            self._app.call_from_thread(self._puzzle_ready, trainer, found)

        self._app.run_worker(work, thread=True, group="reader-study", exclusive=True)

    def _puzzle_ready(self, trainer: Any, puzzle: Any) -> None:
        self._next = self.puzzle
        rating = trainer.rating

        def judge(column: int) -> tuple[bool, str]:
            answer = trainer.answer(puzzle, column)
            return answer.right, answer.text

        self._say(f"puzzle rated {puzzle.rating} ({puzzle.theme}); yours {rating.r:.0f}")
        self._ask(task_words(puzzle), puzzle.position, judge, "next: another puzzle")

    # ---- questions ----------------------------------------------------------------------

    def _ask(
        self, task: str, position: Position, judge: Callable[[int], tuple[bool, str]], then: str
    ) -> None:
        self.question = Question(position, judge, then)
        self._say(task)
        for line in words.board_lines(position):
            self._say(line)
        self._say(f"type a column, 1 to {position.width}; stop: back to the game")

    def answer(self, column: int) -> None:
        """A column typed while a question is asked."""
        question = self.question
        assert question is not None
        if not 0 <= column < question.position.width:
            self._say(str(column_refusal(question.position, column)))
            return
        right, line = question.judge(column)
        self._say(line)
        if right:
            self.question = None
            self._say(question.then)

    def next(self) -> None:
        if self._next is None:
            self._say("nothing next: review, learn or puzzle")
            return
        self.question = None
        self._next()

    def stop(self) -> None:
        self.question, self._next = None, None
        self._say("back to the game")


def _lesson_answer(lesson: Lesson, column: int) -> tuple[bool, str]:
    score = lesson.scores[column]
    if score is None:
        return False, f"column {column + 1} is full"
    said = describe_score(lesson.position, score)
    if lesson.passes(column):
        return True, f"right: column {column + 1} keeps it ({said})"
    return False, f"not column {column + 1}: it gives {said}; try again"


def _counted(verdict: str, count: int) -> str:
    """ "1 mistake", "2 mistakes"; "best" and "ok" stay as they are."""
    return verdict + "s" * (count != 1 and verdict in ("mistake", "blunder"))
