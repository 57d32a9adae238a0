"""LearnScreen: "learn from your mistakes", one mistake of a reviewed game at a time.

The lessons (engine/learn.py) come from the review: the position before each mistake
or blunder of the learning side, in order. Play a column as in the game (digits, arrows
and Enter, a click): a column that keeps the best result passes; a wrong one is answered
on the board by its refutation, the solver's best replies played out (found in a
worker), with the threat it shows when that is the reason. Then r tries again, a shows
the answer, n goes to the next mistake. Lessons passed are kept with the game
(records/lessons.py).
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from c4tui.app.keys import BOARD_KEYS, cursor_moved, cursor_start
from c4tui.app.messages import ColumnClicked, WorkFailed
from c4tui.app.screens.review_words import line_words, move_name
from c4tui.app.widgets.board import Board, BoardView
from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import best_score, describe_score
from c4tui.engine.study.explain import Reason, refutation, why_it_loses
from c4tui.engine.study.learn import Lesson
from c4tui.match.exact_scores import ColumnScores, Solve
from c4tui.match.sides import GLYPHS
from c4tui.records.lessons import Learned

SHOWN_PLIES = 6  # moves of the refutation played out on the board


class Refuted(Message):
    def __init__(self, column: int, line: tuple[int, ...], reason: Reason | None) -> None:
        super().__init__()
        self.column, self.line, self.reason = column, line, reason


class RefuteFailed(WorkFailed):
    """The refutation of a tried column could not be found."""


class LearnScreen(ModalScreen[None]):
    """Walk through the lessons of one game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *BOARD_KEYS,
        Binding("r", "retry", "Try again"),
        Binding("a", "answer", "Answer"),
        Binding("n", "next", "Next"),
        Binding("escape,q", "dismiss_none", "Close"),
    ]

    def __init__(
        self,
        game: Position,
        lessons: list[Lesson],
        learned: Learned | None = None,
        *,
        board_style: str = "modern",
    ) -> None:
        super().__init__()
        self.game, self.lessons, self.learned = game, lessons, learned
        self.board_style = board_style
        self.index = 0
        self.cursor = cursor_start(game.width)
        self.state = "asking"  # asking, right, refuting, refuted, answer
        self.tried: int | None = None
        self.line: tuple[int, ...] = ()
        self.reason: Reason | None = None
        self.error: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="learn-body"):
            yield Static(id="learn-task")
            yield Board(id="learn-board")
            yield Static(id="learn-verdict")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#learn-body").border_title = "Learn from your mistakes"
        passed = self.learned.passed(self.game) if self.learned else set()
        self.index = next((i for i, s in enumerate(self.lessons) if s.ply not in passed), 0)
        self.show()

    @property
    def lesson(self) -> Lesson:
        return self.lessons[self.index]

    # ---- keys -----------------------------------------------------------------------

    def action_cursor(self, step: int) -> None:
        self.cursor = cursor_moved(self.cursor, step, self.game.width)
        self.show()

    def action_drop_at_cursor(self) -> None:
        if self.state == "asking":
            self.action_drop(self.cursor)
        elif self.state in ("right", "answer"):
            self.action_next()

    def on_column_clicked(self, message: ColumnClicked) -> None:
        self.action_drop(message.column)

    def action_drop(self, col: int) -> None:
        position = self.lesson.position
        if self.state != "asking" or not position.can_play(col):
            if self.state == "asking":
                self.app.bell()
            return
        self.cursor, self.tried = col, col
        if self.lesson.passes(col):
            self.state = "right"
            self._mark_passed()
        else:
            self.state, self.line, self.reason = "refuting", (), None
            self.refute(position, col)
        self.show()

    def action_retry(self) -> None:
        if self.state in ("refuting", "refuted", "answer"):
            self.workers.cancel_group(self, "learn")
            self.state, self.tried = "asking", None
            self.show()

    def action_answer(self) -> None:
        self.workers.cancel_group(self, "learn")
        self.state = "answer"
        self.show()

    def action_next(self) -> None:
        self.workers.cancel_group(self, "learn")
        if self.index + 1 >= len(self.lessons):
            self.notify("That was the last of this game's mistakes.", timeout=4)
            self.dismiss(None)
            return
        self.index += 1
        self.state, self.tried = "asking", None
        self.show()

    def action_dismiss_none(self) -> None:
        self.workers.cancel_group(self, "learn")
        self.dismiss(None)

    def _mark_passed(self) -> None:
        if self.learned is None:
            return
        try:
            self.learned.mark(self.game, self.lesson.ply)
        except OSError as error:
            self.notify(f"Could not keep your progress: {error}", severity="error")

    # ---- the refutation -------------------------------------------------------------

    @work(thread=True, exclusive=True, group="learn", exit_on_error=False)
    def refute(self, position: Position, column: int) -> None:
        try:
            line = refutation(position.play(column))
            reason = why_it_loses(position, column, line) if line else None
        except Exception as error:  # a notice, never a screen that waits forever
            self.post_message(RefuteFailed.of(error))
            return
        self.post_message(Refuted(column, line, reason))

    def on_refuted(self, message: Refuted) -> None:
        if self.state != "refuting" or message.column != self.tried:
            return  # stale: the person moved on
        self.state, self.line, self.reason = "refuted", message.line, message.reason
        self.show()

    def on_refute_failed(self, message: RefuteFailed) -> None:
        self.notify(f"No refutation: {message.error}", severity="error")
        self.state = "refuted"
        self.show()

    # ---- drawing --------------------------------------------------------------------

    def show(self) -> None:
        lesson = self.lesson
        before = lesson.position
        mover = GLYPHS[before.to_move]
        count = f"{self.index + 1} of {len(self.lessons)}"
        self.query_one("#learn-task", Static).update(
            f"Mistake {count}: move {move_name(lesson.ply)}, where the game played "
            f"{lesson.played + 1} ({lesson.verdict}). {mover} to move: find a better column."
        )
        shown, scores, hint = before, None, None
        if self.state == "refuted" and self.tried is not None:
            shown = before.play(self.tried)
            for col in self.line[: self._shown_plies() - 1]:
                shown = shown.play(col) if not shown.is_over() else shown
        if self.state in ("right", "answer"):
            scores = ColumnScores(Solve.SOLVED, tuple(lesson.scores))
            hint = lesson.answers[0]
        self.query_one(Board).view = BoardView(
            position=shown,
            cursor=self.cursor if self.state == "asking" else None,
            hint=hint,
            winning=shown.winning_cells(),
            scores=scores,
            style=self.board_style,
        )
        self.query_one("#learn-verdict", Static).update(self._verdict(before))

    def _shown_plies(self) -> int:
        """The moves shown of the refutation (the tried column's first): SHOWN_PLIES, or
        for a double threat as many as reach it, the block and the win on the other."""
        if self.reason is not None and self.reason.kind == "double":
            return max(SHOWN_PLIES, self.reason.made_at + 3)
        return SHOWN_PLIES

    def _verdict(self, before: Position) -> Text:
        lesson = self.lesson
        best = best_score(lesson.scores)
        answers = ", ".join(str(c + 1) for c in lesson.answers)
        if self.state == "asking":
            return Text("← → Enter, or a digit: your column")
        if self.state == "answer" or self.tried is None:
            return Text(f"The answer: {answers} ({describe_score(before, best)}).  n: next", "bold")
        tried = self.tried
        said = describe_score(before, lesson.scores[tried])  # type: ignore[arg-type]  # a tried column is playable: it has a score
        if self.state == "right":
            return Text(f"Right: {tried + 1} keeps it ({said}).  n: next", "bold green")
        text = Text(f"Not {tried + 1}: it gives {said}.", "bold red")
        if self.state == "refuting":
            text.append("  Finding the refutation…")
            return text
        if self.line:
            shown = self.line[: self._shown_plies() - 1]
            text.append(f"\nOn the board: {line_words(before.moves + 1, shown)}")
        if self.reason is not None:
            text.append(f"\n{self.reason.words(GLYPHS)}")
            if self.reason.against_both(GLYPHS):
                text.append(f"\n{self.reason.against_both(GLYPHS)}")
        text.append("\nr: try again · a: the answer · n: next")
        return text
