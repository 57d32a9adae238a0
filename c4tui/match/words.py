"""The match in words: who won, whose turn it is, and what the keys do now."""

from __future__ import annotations

from typing import Protocol

from c4tui.engine.board.game import Game
from c4tui.engine.board.position import Position
from c4tui.match.requests import Search
from c4tui.match.sides import GLYPHS, Sides, engine_title


class Match(Protocol):
    """What the words read of a match (controller.Match; not imported: it imports this)."""

    game: Game
    search: Search | None

    @property
    def sides(self) -> Sides: ...
    @property
    def paused(self) -> bool: ...
    @property
    def position(self) -> Position: ...
    @property
    def thinking(self) -> bool: ...
    def is_ai(self, player: int) -> bool: ...


def outcome_text(match: Match) -> str | None:
    """Who won, in words, or None while the game goes on."""
    result = match.game.result()
    if result is None:
        return None
    if result.winner is None:
        return "Draw — the board is full."
    name, glyph = match.sides.name(result.winner), GLYPHS[result.winner]
    return f"You win with {glyph}!" if name == "You" else f"{name} {glyph} wins."


def status_text(match: Match) -> str:
    """One line on whose turn it is and what the keys do."""
    outcome = outcome_text(match)
    if outcome is not None:
        return f"{outcome}   n: new game · v: review it"
    pos = match.position
    mover = pos.to_move
    name, glyph = match.sides.name(mover), GLYPHS[mover]
    if match.thinking and not match.is_ai(mover) and match.search is not None:
        # `m` on a person's turn: an engine picks that person's move.
        helper = engine_title(match.search.engine.spec)
        whom = "you" if name == "You" else name
        return f"{helper} is choosing a move for {whom} {glyph}…   (m: move now)"
    if match.thinking and match.sides.watching:
        return f"{name} {glyph} is thinking…   (.: move now, Space: pause)"
    if match.thinking:
        return f"{name} {glyph} is thinking…   (m: move now)"
    if match.is_ai(mover):
        if match.paused and match.sides.watching:
            return f"Paused: {name} {glyph} to move.   (Space: go on, .: one move)"
        if match.paused:
            return f"{name} {glyph} to move: press m to let it play."
        return f"{name} {glyph} to move."
    # Short enough for one line in the narrowest board panel (36 characters at 80x24);
    # who plays whom is in the header.
    keys = f"← → Enter or 1-{pos.width}"
    if match.hint_column is not None:
        return f"Hint: column {match.hint_column + 1}, {match.hint_reason}   {keys}"
    if name == "You":
        return f"Your turn {glyph}   {keys}"
    return f"{name} {glyph} to move   {keys}"
