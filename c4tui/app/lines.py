"""The game's lines in the app: step through the move list, jump, promote, delete.

A part of the app: keys and palette commands that hand the match its intents
(jump to a move, promote or delete the line on the board) and a click in the move list
(`MoveChosen`). ↑ and ↓ go one move back or forward along the line on the board, Home
and End to its start and end, PageUp and PageDown to the previous or next line at this
move (the main move and its variations); so any move is a few keys, or a click, away.
A move played from a position jumped to starts a variation when it differs from the one
the game has. Deleting a variation asks first: it cannot be brought back.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from textual.app import SystemCommand

from c4tui.app.keys import keyed_command
from c4tui.app.part_host import Host
from c4tui.engine.board.game import Node
from c4tui.engine.board.notation import move_name


class GameLines:
    """Moving about the game's tree, for the app it is given."""

    def __init__(self, app: Host) -> None:
        self._app = app

    def commands(self) -> Iterable[SystemCommand]:
        yield keyed_command(
            "Promote line",
            "Make the line on the board the main line",
            "part('lines', 'promote')",
            self.promote,
        )
        yield keyed_command(
            "Delete variation",
            "Remove the variation on the board, from where it branches",
            "part('lines', 'delete_variation')",
            self.delete_variation,
        )

    def jump_to(self, path: tuple[int, ...]) -> None:
        self._app.cancel_search()
        if self._app.match.jump(path):
            self._app.cursor = max(
                0, min(self._app.cursor, self._app.match.game.position.width - 1)
            )
        self._app.update()

    def step(self, step: int) -> None:
        """One move back (the parent) or forward (along the line last walked)."""
        node = self._app.match.game.node
        target = node.parent if step < 0 else node.next_in_line()
        if target is None:
            self._app.notify("No more moves this way.", timeout=2)
            return
        self.jump_to(target.position.path)

    def sibling(self, step: int) -> None:
        """The move played instead of this one: the previous or next line at this move."""
        node = self._app.match.game.node
        if node.parent is None or len(node.parent.children) < 2:
            self._app.notify("No other line at this move.", timeout=2)
            return
        siblings = node.parent.children
        other = siblings[(siblings.index(node) + step) % len(siblings)]
        self.jump_to(other.position.path)

    def to_end(self, end: int) -> None:
        node = self._app.match.game.node
        if end:
            while node.next_in_line() is not None:
                node = node.next_in_line()  # type: ignore[assignment]  # not None: the loop just asked
        else:
            node = self._app.match.game.root
        self.jump_to(node.position.path)

    def promote(self) -> None:
        self._app.match.promote()
        self._app.update()

    def delete_variation(self) -> None:
        """Asks first: a deleted variation cannot be brought back."""
        from c4tui.app.screens.answer import AnswerScreen

        branch = self._app.match.game.variation_start()
        if branch is None:  # the main line: the match says it cannot be deleted
            self._delete(True)
            return
        moves = sum(1 for _ in _moves_from(branch))
        question = (
            f"Delete the variation from move {move_name(branch.position.moves - 1)} "
            f"({moves} {'move' if moves == 1 else 'moves'})? It cannot be undone."
        )
        self._app.push_screen(AnswerScreen(question), self._delete)

    def _delete(self, yes: bool | None) -> None:
        if not yes:
            return
        self._app.cancel_search()
        self._app.match.delete_variation()
        self._app.update()


def _moves_from(first: Node) -> Iterator[Node]:
    """Every move of the variation that starts at `first`, its own branches included."""
    yield first
    for child in first.children:
        yield from _moves_from(child)
