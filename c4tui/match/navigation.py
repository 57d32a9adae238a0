"""Moving through a match's game: undo and redo by turns, jumps between its lines,
promoting and deleting variations. A part of the match (controller.py), which owns the
game and hands its intents here.

Against an engine, undo and redo go from one of the person's turns to the next; when
two people or two engines play, a move at a time. After going back, an engine to move
waits for `m` (the match is paused), so the person can look before it plays again.
"""

from __future__ import annotations

from typing import Protocol

from c4tui.engine.board.game import Game
from c4tui.match import part


class Owner(part.Owner, Protocol):
    """What navigation asks of its match."""

    game: Game

    def is_ai(self, player: int) -> bool: ...
    def interrupt(self) -> None: ...
    def forget_search(self) -> None: ...
    def moved(self, *, paused: bool) -> None: ...
    def save(self) -> None: ...
    def let_engine_play(self) -> None: ...


class Navigation:
    """Undo, redo and the game's lines, for the match it is given."""

    def __init__(self, match: Owner) -> None:
        self._match = match

    def _between_turns(self) -> bool:
        """Whether undo or redo goes on past this position: an engine's turn in a game
        against an engine."""
        match = self._match
        return not match.sides.watching and match.is_ai(match.position.to_move)

    def _engine_waits(self) -> bool:
        position = self._match.position
        return self._match.is_ai(position.to_move) and not position.is_over()

    def undo(self) -> bool:
        """Take back the last move and the engine replies before it; after it, an engine
        to move waits for `m`."""
        match, game = self._match, self._match.game
        match.interrupt()
        if not game.can_undo():
            match.notify("Nothing to undo.", timeout=2)
            return False
        match.forget_search()
        game.undo()
        while self._between_turns() and game.can_undo():
            game.undo()
        match.moved(paused=match.is_ai(match.position.to_move))
        return True

    def redo(self) -> bool:
        """Play undone moves again, up to the person's next turn."""
        match, game = self._match, self._match.game
        match.interrupt()
        if not game.can_redo():
            match.notify("Nothing to redo.", timeout=2)
            return False
        match.forget_search()
        game.redo()
        while self._between_turns() and game.can_redo():
            game.redo()
        # Redone to an engine's turn with nothing left to redo (only the person's move
        # had been undone): the engine answers, as after any move of theirs. Two engines
        # watched are stepped through a move at a time: they stay paused.
        match.moved(paused=match.sides.watching)
        match.let_engine_play()
        return True

    def jump(self, path: tuple[int, ...]) -> bool:
        """Show the move with this path (any line); an engine to move then waits for `m`,
        as after undo, and a move played from there starts a variation."""
        match = self._match
        if match.game.find(path) is None:
            return False
        match.interrupt()
        match.forget_search()
        match.game.jump(path)
        match.moved(paused=self._engine_waits())
        return True

    def promote(self) -> bool:
        """The line on the board becomes the main line."""
        match = self._match
        if not match.game.promote():
            match.notify("This is the main line already.", timeout=2)
            return False
        match.notify("This line is now the main line.", timeout=2)
        match.save()
        return True

    def delete_variation(self) -> bool:
        """Delete the variation on the board, from where it leaves its parent line."""
        match = self._match
        match.interrupt()
        if not match.game.delete():
            match.notify("The main line cannot be deleted: only a variation.", timeout=3)
            return False
        match.forget_search()
        match.notify("Variation deleted.", timeout=2)
        match.moved(paused=self._engine_waits())
        return True
