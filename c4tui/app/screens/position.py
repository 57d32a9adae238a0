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


def check_moves(text: str, g: Geometry) -> str | None:
    """None when `text` (moves or a gamesolver.org link) plays on this board, else what is
    wrong (which character, why)."""
    try:
        moves = moves_of(text)
        position = Position.from_moves(moves, g.width, g.height, g.connect)
    except LinkError as error:
        return str(error)
    except NotationError as error:
        return f"character {error.index} ({moves[error.index - 1]!r}): {error.reason}"
    if position.is_over():
        return "the game is over after these moves: nothing left to play"
    return None


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
        error.update(problem or "")
        event.input.set_class(problem is not None, "-invalid")

    @on(Input.Submitted)
    def submit(self, event: Input.Submitted) -> None:
        if check_moves(event.value, self.geometry) is None:
            self.dismiss(moves_of(event.value))

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
