"""PositionScreen: type or paste a move string or a gamesolver.org link; checked as you type."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Static

from c4tui.engine.board.geometry import Geometry
from c4tui.engine.board.notation import LinkError, NotationError, moves_of
from c4tui.engine.board.position import Position

# A finished game opens at its end, as `c4tui --position` opens it: to look at or review.
FINISHED_NOTE = "The game is over after these moves: Enter opens it at its end, to review (v)."


def check_moves(text: str, g: Geometry) -> str | None:
    """None when `text` (moves or a gamesolver.org link) plays on this board, else what is
    wrong (which character, why)."""
    try:
        moves = moves_of(text)
        Position.from_moves(moves, g.width, g.height, g.connect)
    except LinkError as error:
        return str(error)
    except NotationError as error:
        return f"character {error.index} ({moves[error.index - 1]!r}): {error.reason}"
    return None


def is_finished(text: str, g: Geometry) -> bool:
    """Whether `text`, already checked, is a game that is over."""
    return Position.from_moves(moves_of(text), g.width, g.height, g.connect).is_over()


class PositionScreen(ModalScreen[str | None]):
    """Returns the checked move string (a link's), or None when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss_none", "Cancel")]

    def __init__(self, geometry: Geometry) -> None:
        super().__init__()
        self.geometry = geometry

    def compose(self) -> ComposeResult:
        g = self.geometry
        with Vertical(id="position-body"):
            yield Static(
                f"Moves in gamesolver.org notation: one column a move, 1 to {g.width} "
                "from the left (4453 = centre, centre, 5th, 3rd). Enter plays from there.",
                id="position-help",
            )
            yield Input(placeholder="e.g. 4453", id="position-input")
            yield Static("", id="position-error")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#position-body").border_title = "Play from a position"
        self.query_one(Input).focus()

    @on(Input.Changed)
    def check(self, event: Input.Changed) -> None:
        problem = check_moves(event.value, self.geometry)
        error = self.query_one("#position-error", Static)
        finished = problem is None and is_finished(event.value, self.geometry)
        error.update(problem or (FINISHED_NOTE if finished else ""))
        event.input.set_class(problem is not None, "-invalid")

    @on(Input.Submitted)
    def submit(self, event: Input.Submitted) -> None:
        if check_moves(event.value, self.geometry) is None:
            self.dismiss(moves_of(event.value))

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
