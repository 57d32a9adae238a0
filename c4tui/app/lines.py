"""The game's lines in the app: step through the move list, jump, promote, delete.

A part of ConnectFourApp: keys and palette commands that hand the match its intents
(jump to a move, promote or delete the line on the board) and a click in the move list
(`MoveChosen`). ↑ and ↓ go one move back or forward along the line on the board, Home
and End to its start and end, PageUp and PageDown to the previous or next line at this
move (the main move and its variations); so any move is a few keys, or a click, away.
A move played from a position jumped to starts a variation when it differs from the one
the game has.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from textual.app import SystemCommand
from textual.binding import Binding

from c4tui.app.widgets.history import MoveChosen

if TYPE_CHECKING:
    from c4tui.app.app import ConnectFourApp

    _Base = ConnectFourApp
else:
    _Base = object


class GameLines(_Base):
    """Moving about the game's tree (mixed into the app)."""

    LINE_BINDINGS = (
        Binding("up", "line_step(-1)", "Back a move", show=False),
        Binding("down", "line_step(1)", "Forward a move", show=False),
        Binding("home", "line_end(0)", "Line start", show=False),
        Binding("end", "line_end(1)", "Line end", show=False),
        Binding("pageup", "sibling(-1)", "Previous line", show=False),
        Binding("pagedown", "sibling(1)", "Next line", show=False),
        Binding("P", "promote", "Promote line", show=False),
        Binding("X", "delete_variation", "Delete variation", show=False),
    )

    def line_commands(self) -> Iterable[SystemCommand]:
        yield SystemCommand(
            "Promote line",
            "Make the line on the board the main line (P)",
            self.action_promote,
        )
        yield SystemCommand(
            "Delete variation",
            "Remove the variation on the board, from where it branches (X)",
            self.action_delete_variation,
        )

    def jump_to(self, path: tuple[int, ...]) -> None:
        self.cancel_search()
        if self.match.jump(path):
            self.cursor = max(0, min(self.cursor, self.game.position.width - 1))
        self.update()

    def action_line_step(self, step: int) -> None:
        """One move back (the parent) or forward (along the line last walked)."""
        node = self.game.node
        target = node.parent if step < 0 else node.next_in_line()
        if target is None:
            self.notify("No more moves this way.", timeout=2)
            return
        self.jump_to(target.position.path)

    def action_sibling(self, step: int) -> None:
        """The move played instead of this one: the previous or next line at this move."""
        node = self.game.node
        if node.parent is None or len(node.parent.children) < 2:
            self.notify("No other line at this move.", timeout=2)
            return
        siblings = node.parent.children
        other = siblings[(siblings.index(node) + step) % len(siblings)]
        self.jump_to(other.position.path)

    def action_line_end(self, end: int) -> None:
        node = self.game.node
        if end:
            while node.next_in_line() is not None:
                node = node.next_in_line()  # type: ignore[assignment]
        else:
            node = self.game.root
        self.jump_to(node.position.path)

    def action_promote(self) -> None:
        self.match.promote()
        self.update()

    def action_delete_variation(self) -> None:
        self.cancel_search()
        self.match.delete_variation()
        self.update()

    def on_move_chosen(self, message: MoveChosen) -> None:
        self.jump_to(message.path)
