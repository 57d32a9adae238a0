"""ReviewScreen: a finished (or unfinished) game, move by move, judged by the exact solver.

The review runs in a thread worker (engine/review.py, from the last move back) and fills
in as each move is judged; then the same worker finds, for every move that lost, the
solver's refutation and the threat it shows (engine/explain.py). Leaving the screen
stops it at once. Left and right step through the moves, Home and End jump to the ends.
For the move shown: the board before it, with the column played (▼) and the best one
(★); every column's exact result; the verdict, the result after the move, and why a
losing move loses. The move list marks moves as chess programs do: `?!` a weaker move
that keeps the result, `?` a mistake (win to draw, draw to loss), `??` a blunder (win
to loss). Moves are numbered by round with the mover's disc everywhere (review_words.py).
The graph (review_graph.py) is the game's exact value after every ply, from ●'s side.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Footer, Header, Static

from c4tui.app.messages import WorkFailed
from c4tui.app.screens.review_words import (
    MARKS,
    WORDS,
    after_words,
    best_words,
    line_words,
    move_name,
)
from c4tui.app.widgets.board import Board, BoardView
from c4tui.app.widgets.review_graph import ReviewGraph
from c4tui.engine.board.notation import move_number
from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import describe_score
from c4tui.engine.gil import CourteousStop, UiActivity
from c4tui.engine.study.explain import Reason, refutation, why_it_loses
from c4tui.engine.study.learn import lessons
from c4tui.engine.study.review import (
    GIVE_UP_SECONDS,
    MoveReview,
    positions_of,
    review_game,
    tally,
    turning_point,
)
from c4tui.match.sides import GLYPHS
from c4tui.records.lessons import Learned


def void(_: object) -> None:
    """Drop a value a callback's caller does not take (post_message's bool)."""


def exact_value(review: MoveReview, max_score: int) -> float:
    """The game's exact value after the move, ●'s side, in [-1, 1] for the graph: a draw
    in the middle, a sure win high, higher the sooner it comes."""
    score = review.first_player_score
    if score == 0:
        return 0.0
    return (1 if score > 0 else -1) * (0.4 + 0.6 * abs(score) / max_score)


class Reviewed(Message):
    """One move judged (they arrive last move first)."""

    def __init__(self, review: MoveReview) -> None:
        super().__init__()
        self.review = review


class GaveUp(Message):
    """A move (1-based ply) not judged: its position was not solved within the budget."""

    def __init__(self, ply: int) -> None:
        super().__init__()
        self.ply = ply


class Explained(Message):
    """The refutation of a losing move (0-based ply) and the reason it shows, if any."""

    def __init__(self, ply: int, line: tuple[int, ...], reason: Reason | None) -> None:
        super().__init__()
        self.ply = ply
        self.line = line
        self.reason = reason


class ReviewFailed(WorkFailed):
    """The review of a move could not be made."""


class ReviewList(Static):
    """The review's move list, drawn at its height: drawn again whenever that changes
    (the words above it take lines or give them back), so the move shown stays in it."""

    def __init__(self, text: Callable[[int], Text], *, id: str) -> None:
        super().__init__(id=id)
        self.text = text

    def draw(self) -> None:
        self.update(self.text(self.size.height))

    def on_resize(self) -> None:
        self.draw()


class ReviewScreen(ModalScreen[None]):
    """Step through a game with the solver's verdict on every move."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "Back"),
        Binding("right", "step(1)", "Forward"),
        Binding("home", "jump(0)", "First"),
        Binding("end", "jump(-1)", "Last"),
        Binding("l", "learn", "Learn from mistakes"),
        Binding("escape,q,v", "close", "Close"),
    ]

    def __init__(
        self,
        game: Position,
        activity: UiActivity | None = None,
        on_done: Callable[[list[MoveReview]], None] | None = None,
        *,
        board_style: str = "modern",
        learners: set[int] | None = None,
        learned: Learned | None = None,
    ) -> None:
        """`on_done(reviews)` is called once every move is judged; `learners` (0 ●, 1 ○,
        default both) are the sides whose mistakes `l` walks through, their progress kept
        in `learned`."""
        super().__init__()
        self.learners = learners or {0, 1}
        self.learned = learned
        self.board_style = board_style
        self.on_done = on_done
        self.game = game
        self.moves = positions_of(game)
        self.reviews: list[MoveReview | None] = [None] * len(self.moves)
        self.given_up: set[int] = set()  # 0-based plies not solved within GIVE_UP_SECONDS
        self.index = max(0, len(self.moves) - 1)
        self.stop = CourteousStop(activity) if activity is not None else threading.Event()
        self.failed: str | None = None
        self.explained: dict[int, tuple[tuple[int, ...], Reason | None]] = {}

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="review-main"):
            yield Board(id="review-board")
            with Vertical(id="review-side"):
                yield Static(id="review-move")
                yield Static(id="review-scores")
                yield ReviewList(self._list_text, id="review-list")
                yield Static(id="review-graph-label")
                yield ReviewGraph(id="review-graph")
                yield Static(id="review-summary")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#review-board").border_title = "Review"
        self.sub_title = f"Review of {self.game.to_moves() or 'an empty game'}"
        if self.moves:
            self.run_review()
        self.show()

    def on_unmount(self) -> None:
        self.stop.set()  # leaving the screen ends the review at once

    @work(thread=True, exclusive=True, group="review", exit_on_error=False)
    def run_review(self) -> None:
        try:
            reviews = review_game(
                self.game,
                on_move=lambda r: void(self.post_message(Reviewed(r))),
                stop=self.stop,
                # Every search the app starts has a budget the screen says (a 9x7 game
                # could otherwise solve for hours): the command line's, per move.
                seconds=GIVE_UP_SECONDS,
                on_gave_up=lambda ply: void(self.post_message(GaveUp(ply))),
                moves=self.moves,  # replayed once, for the review and the screen
            )
            for review in reviews:  # why each losing move loses, once every move is judged
                if review.verdict in ("mistake", "blunder") and review.score < 0:
                    before, column = self.moves[review.ply - 1]
                    line = refutation(before.play(column), stop=self.stop)
                    if self.stop.is_set():
                        return
                    reason = why_it_loses(before, column, line)
                    self.post_message(Explained(review.ply - 1, line, reason))
        except Exception as error:  # SearchStopped when closed; anything else is reported
            if not self.stop.is_set():
                self.post_message(ReviewFailed.of(error))

    def on_reviewed(self, message: Reviewed) -> None:
        self.reviews[message.review.ply - 1] = message.review
        self._settled()

    def on_gave_up(self, message: GaveUp) -> None:
        self.given_up.add(message.ply - 1)
        self._settled()

    @property
    def done(self) -> int:
        """Moves settled: judged, or given up."""
        return sum(r is not None for r in self.reviews) + len(self.given_up)

    def judged(self) -> list[MoveReview]:
        return [r for r in self.reviews if r is not None]

    def _settled(self) -> None:
        if self.on_done is not None and self.done == len(self.reviews):
            self.on_done(self.judged())
        self.show()

    def on_explained(self, message: Explained) -> None:
        self.explained[message.ply] = (message.line, message.reason)
        if message.ply == self.index:
            self.show()

    def on_review_failed(self, message: ReviewFailed) -> None:
        self.failed = message.error
        self.show()

    def action_step(self, step: int) -> None:
        self.index = max(0, min(len(self.moves) - 1, self.index + step))
        self.show()

    def action_jump(self, where: int) -> None:
        self.index = max(0, len(self.moves) - 1) if where < 0 else 0
        self.show()

    def action_learn(self) -> None:
        """Learn from the mistakes of the learning side(s), once every move is judged."""
        from c4tui.app.screens.learn import LearnScreen

        if self.done < len(self.reviews):
            self.notify("The review is still solving: learn once it is done.", timeout=3)
            return
        found = lessons(self.moves, self.judged(), self.learners)
        if not found:
            sides = " and ".join(GLYPHS[p] for p in sorted(self.learners))
            self.notify(f"No mistakes of {sides} in this game: nothing to learn.", timeout=4)
            return
        style = self.board_style
        self.app.push_screen(LearnScreen(self.game, found, self.learned, board_style=style))

    def action_close(self) -> None:
        self.stop.set()
        self.dismiss()

    # ---- drawing --------------------------------------------------------------------

    def show(self) -> None:
        done = self.done
        if not self.moves:
            self.query_one("#review-move", Static).update("No moves to review yet.")
            return
        position, column = self.moves[self.index]
        review = self.reviews[self.index]
        board = self.query_one(Board)
        board.view = BoardView(
            position=position,
            cursor=column,
            hint=review.best[0] if review is not None and review.verdict != "best" else None,
            style=self.board_style,
        )
        self.query_one("#review-move", Static).update(self._move_text(position, column, review))
        self.query_one("#review-scores", Static).update(self._scores_text(position, review))
        self.query_one(ReviewList).draw()
        max_score = position.geometry.max_score
        values = [None if r is None else exact_value(r, max_score) for r in self.reviews]
        turn = turning_point(self.judged()) if done == len(self.reviews) else None
        shown_turn = None if turn is None else turn.ply - 1
        self.query_one(ReviewGraph).show(values, self.index, shown_turn)
        label = "● high, ○ low · ▲ shown · ◆ turned"
        if done < len(self.reviews):
            # Short: the side panel is some 44 columns at 120.
            label = f"Judged {done} of {len(self.reviews)} · up to {GIVE_UP_SECONDS:g} s each…"
        elif self.given_up:
            skipped = f"{len(self.given_up)} of {len(self.reviews)}"
            label = f"{skipped} not judged: over {GIVE_UP_SECONDS:g} s"
        if self.failed:
            label = f"The review failed: {self.failed}"
        self.query_one("#review-graph-label", Static).update(label)
        self.query_one("#review-summary", Static).update(self._summary_text(done))

    def _move_text(self, position: Position, column: int, review: MoveReview | None) -> Text:
        last = move_number(len(self.moves) - 1)
        text = Text(f"Move {move_name(self.index)} of {last}: played {column + 1}")
        if review is None:
            if self.index in self.given_up:
                text.append("  (not judged)", "dim")
            else:
                text.append("  (solving…)", "dim")
            return text
        mark = MARKS[review.verdict]
        text.append(f"{mark}  {WORDS[review.verdict]}", "bold")
        text.append(f"\nAfter it: {after_words(position, review)}")
        if review.verdict != "best":
            text.append(f"; {best_words(position, review)}")
        if self.index in self.explained:
            line, reason = self.explained[self.index]
            if line:
                text.append(f"\nRefutation: {line_words(position.moves + 1, line)}", "italic")
            if reason is not None:
                text.append(f"\n{reason.words(GLYPHS)}", "bold")
                if reason.against_both(GLYPHS):
                    text.append(f" {reason.against_both(GLYPHS)}")
        return text

    def _scores_text(self, position: Position, review: MoveReview | None) -> Text:
        text = Text("Every column, for the side to move:\n")
        if review is None:
            return text
        per_row = max(1, self.query_one("#review-scores").size.width // 18)
        for col, score in enumerate(review.scores):
            words = "full" if score is None else describe_score(position, score)
            style = "bold" if col in review.best else ""
            marker = "▼" if col == review.column else " "
            text.append(f"{marker}{col + 1}: {words:<12}  ", style)
            if col % per_row == per_row - 1:
                text.append("\n")
        text.rstrip()
        return text

    def _list_text(self, room: int) -> Text:
        """The moves by rounds, marked; a window of `room` rounds around the move shown."""
        rounds = (len(self.moves) + 1) // 2
        room = max(1, room or rounds)
        first = max(0, min(self.index // 2 - room // 2, rounds - room))
        text = Text()
        for index in range(2 * first, min(len(self.moves), 2 * (first + room))):
            position, column = self.moves[index]
            review = self.reviews[index]
            mark = MARKS[review.verdict] if review is not None else "…"
            if index in self.given_up:
                mark = " -"  # not judged
            entry = f"{GLYPHS[position.to_move]}{column + 1}{mark}"
            style = "reverse" if index == self.index else ""
            if review is not None and review.verdict in ("mistake", "blunder"):
                style += " bold"
            if index % 2 == 0:
                text.append(f"{move_number(index):>3}. ")
            text.append(f"{entry:<6}", style.strip())
            text.append("\n" if index % 2 else " ")
        text.rstrip()
        return text

    def _summary_text(self, done: int) -> str:
        if done < len(self.reviews):
            return ""
        reviews = self.judged()
        lines = []
        for player in (1, 2):
            counts = tally(reviews, player)
            parts = " · ".join(f"{counts[v]} {v}" for v in counts if counts[v])
            lines.append(f"{GLYPHS[player - 1]}: {parts or 'no moves'}")
        turn = turning_point(reviews)
        if turn is None:
            lines.append("No move changed the result: it went as perfect play says.")
        else:
            lines.append(
                f"The game turned at move {move_name(turn.ply - 1)} "
                f"({turn.column + 1}{MARKS[turn.verdict]}, ◆ on the graph)."
            )
        return "\n".join(lines)
