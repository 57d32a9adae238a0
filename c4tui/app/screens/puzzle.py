"""PuzzleScreen: find the column that keeps the result; told at once, with every score.

The trainer (c4tui/records/trainer.py) hands out the puzzles, judges the answer and keeps
the streak and your Glicko-2 rating, shown with each puzzle's rating and theme. A column
is chosen as in the game (digits, arrows and Enter, a click); the board then shows every
column's exact result under it. n (or Enter again) brings the next puzzle, f cycles the
theme asked for (any, win, defend, draw); puzzles are found in a worker, so the keys
never wait, and a worker's failure is a notice, never a screen waiting forever.
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
from c4tui.app.widgets.board import Board, BoardView
from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import keeping_columns
from c4tui.engine.study.puzzle_ratings import THEMES, Theme
from c4tui.engine.study.puzzles import Puzzle
from c4tui.match.exact_scores import ColumnScores, Solve
from c4tui.match.sides import GLYPHS
from c4tui.records.trainer import Answer, Trainer


def task_words(puzzle: Puzzle) -> str:
    """What to find: "● to move and win: which column keeps it?", "○ to move and draw
    (every other column loses): ...", or, from a reviewed game where several columns
    keep the result, "● to move and draw: 2 columns keep it; find one"."""
    mover = GLYPHS[puzzle.position.to_move]
    keepers = len(keeping_columns(puzzle.scores))
    if keepers > 1:
        return f"{mover} to move and {puzzle.result}: {keepers} columns keep it; find one."
    goal = "win" if puzzle.result == "win" else "draw (every other column loses)"
    return f"{mover} to move and {goal}: which column keeps it?"


def board_words(position: Position) -> str:
    """ " · 9x7, connect 5" when the puzzle is not on the usual 7x6 board."""
    g = position.geometry
    if (g.width, g.height, g.connect) == (7, 6, 4):
        return ""
    return f" · {g.width}x{g.height}, connect {g.connect}"


class PuzzleReady(Message):
    def __init__(self, puzzle: Puzzle) -> None:
        super().__init__()
        self.puzzle = puzzle


class PuzzleFailed(WorkFailed):
    """The next puzzle could not be found."""


class PuzzleScreen(ModalScreen[None]):
    """One puzzle after another, with a streak."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *BOARD_KEYS,
        Binding("n", "next", "Next"),
        Binding("f", "theme", "Theme"),
        Binding("escape,q", "close", "Close"),
    ]

    def __init__(
        self,
        trainer: Trainer,
        *,
        board_style: str = "modern",
        board: tuple[int, int, int] = (7, 6, 4),
    ) -> None:
        """`board`: the puzzles' width, height and connect (the board played)."""
        super().__init__()
        self.trainer = trainer
        self.board = board
        self.board_style = board_style
        self.puzzle: Puzzle | None = None
        self.answered: int | None = None
        self.cursor = 3
        self.answer: Answer | None = None  # the trainer's word on the column played
        self.theme: Theme | None = None
        self.failed: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="puzzle-body"):
            yield Static(id="puzzle-task")
            yield Board(id="puzzle-board")
            yield Static(id="puzzle-verdict")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#puzzle-body").border_title = "Puzzles"
        self.action_next()

    @work(thread=True, exclusive=True, group="puzzle", exit_on_error=False)
    def find(self) -> None:
        try:
            puzzle = self.trainer.next_puzzle(self.theme, self.board)
        except Exception as error:  # a notice and a word on the screen, never a hang
            self.post_message(PuzzleFailed.of(error))
            return
        self.post_message(PuzzleReady(puzzle))

    def on_puzzle_failed(self, message: PuzzleFailed) -> None:
        self.failed = message.error
        self.notify(f"No puzzle: {message.error}", title="Puzzles", severity="error")
        self.show()
        self.tell_notices()

    def action_theme(self) -> None:
        """Ask for the next theme: any, then each of THEMES in turn."""
        cycle: list[Theme | None] = [None, *THEMES]
        self.theme = cycle[(cycle.index(self.theme) + 1) % len(cycle)]
        self.notify(f"Puzzles: {self.theme or 'any theme'}.", timeout=2)
        self.action_next()

    def on_puzzle_ready(self, message: PuzzleReady) -> None:
        self.puzzle, self.answered, self.answer = message.puzzle, None, None
        self.cursor = cursor_start(message.puzzle.position.width)
        self.show()
        self.tell_notices()

    def action_next(self) -> None:
        self.puzzle, self.failed = None, None
        self.show()
        self.find()

    def action_cursor(self, step: int) -> None:
        if self.puzzle is not None:
            self.cursor = cursor_moved(self.cursor, step, self.puzzle.position.width)
            self.show()

    def action_drop_at_cursor(self) -> None:
        if self.answered is not None:
            self.action_next()
        else:
            self.action_drop(self.cursor)

    def action_drop(self, col: int) -> None:
        puzzle = self.puzzle
        if puzzle is None or self.answered is not None or col >= puzzle.position.width:
            return
        if not puzzle.position.can_play(col):
            self.app.bell()  # a full column is no answer
            return
        self.cursor = col
        self.answered = col
        self.answer = self.trainer.answer(puzzle, col)
        self.show()
        self.tell_notices()

    def tell_notices(self) -> None:
        """The trainer's word on its file (a damaged puzzle left out, a disk that refuses)."""
        for text in self.trainer.take_notices():
            self.notify(text, title="Puzzles", severity="warning", timeout=10)

    def on_column_clicked(self, message: ColumnClicked) -> None:
        self.action_drop(message.column)

    def action_close(self) -> None:
        self.dismiss()

    def show(self) -> None:
        rating = self.trainer.rating
        streak = (
            f"your rating {rating.r:.0f} ±{2 * rating.rd:.0f} · "
            f"streak {self.trainer.streak} · best {self.trainer.best}"
        )
        task = self.query_one("#puzzle-task", Static)
        board = self.query_one(Board)
        puzzle = self.puzzle
        if puzzle is None:
            if self.failed:
                task.update(f"No puzzle: {self.failed}. n tries again.   ({streak})")
            else:
                kind = f"{self.theme} puzzle" if self.theme else "puzzle"
                task.update(f"Finding a {kind} near your rating…   ({streak})")
            return
        position = puzzle.position
        task.update(
            f"{task_words(puzzle)}\n"
            f"Puzzle {puzzle.rating} ({puzzle.theme}) · {streak}\n"
            f"Position {position.to_moves() or '(the empty board)'}{board_words(position)}"
        )
        scores = None
        if self.answered is not None:
            scores = ColumnScores(Solve.SOLVED, tuple(puzzle.scores))
        board.view = BoardView(
            position=position,
            cursor=self.cursor if self.answered is None else None,
            hint=None if self.answered is None else puzzle.solution,
            scores=scores,
            style=self.board_style,
        )
        verdict = self.query_one("#puzzle-verdict", Static)
        if self.answer is None:
            verdict.update(f"← → Enter, or 1-{min(position.width, 9)}: your column")
        else:
            style = "bold green" if self.answer.right else "bold red"
            verdict.update(Text(self.answer.text + "   n: next puzzle", style=style))
