"""The match in words: who won, whose turn it is, and what the keys do now.

The status line of a game of one's own (its `MatchView`) and of a room of `c4tui serve`
(its `RoomView`), and the notices of the match: the match says which intent a notice names
as `{intent}` (it knows no keys), and `worded` puts the key of the app's binding there.
"""

from __future__ import annotations

import re

from textual.binding import BindingType

from c4tui.app.keys import KEYS, spoken_key
from c4tui.engine.board.gamefile import lost_words
from c4tui.match.interface import MatchView
from c4tui.match.room_view import RoomView
from c4tui.match.sides import GLYPHS

INTENT = re.compile(r"\{(\w+)\}")


def worded(text: str) -> str:
    """A notice's text with the key of each `{intent}` it names (any other text in
    braces, say from an engine's error, is left as it is)."""

    def key(found: re.Match[str]) -> str:
        return spoken_key(KEYS, found[1]) or found[0]

    return INTENT.sub(key, text)


def outcome_text(match: MatchView) -> str | None:
    """Who won, in words, or None while the game goes on."""
    if not match.over:
        return None
    if match.ending is not None and match.winner is not None:  # off the board
        loser, winner = 1 - match.winner, match.winner
        name = match.names[winner]
        won = "you win" if name == "You" else f"{name} {GLYPHS[winner]} wins"
        return f"{match.names[loser]} {GLYPHS[loser]} {match.ending}: {won}."
    if match.winner is None:
        return "Draw — the board is full."
    name, glyph = match.names[match.winner], GLYPHS[match.winner]
    return f"You win with {glyph}!" if name == "You" else f"{name} {glyph} wins."


def status_text(match: MatchView, width: int | None = None) -> str:
    """One line on whose turn it is and what the keys do, in `width` characters when
    given (a hint's reason is cut to its first words rather than cut off mid-word)."""

    def key(intent: str) -> str:
        return spoken_key(KEYS, intent) or intent

    outcome = outcome_text(match)
    if outcome is not None:
        return f"{outcome}   {key('new_game')}: new game · {key('review_game')}: review it"
    pos = match.position
    mover = pos.to_move
    name, glyph = match.names[mover], GLYPHS[mover]
    if match.thinking and not match.is_ai(mover) and match.search is not None:
        # `m` on a person's turn: an engine picks that person's move.
        helper = match.search.title
        whom = "you" if name == "You" else name
        return f"{helper} is choosing a move for {whom} {glyph}…   ({key('move_now')}: move now)"
    if match.thinking and match.sides.watching:
        return f"{name} {glyph} is thinking…   ({key('step')}: move now, {key('pause')}: pause)"
    if match.thinking:
        return f"{name} {glyph} is thinking…   ({key('move_now')}: move now)"
    if match.is_ai(mover):
        if match.paused and match.sides.watching:
            go_on, step = key("go_on"), key("step")
            return f"Paused: {name} {glyph} to move.   ({go_on}: go on, {step}: one move)"
        if match.paused:
            return f"{name} {glyph} to move: press {key('move_now')} to let it play."
        return f"{name} {glyph} to move."
    # Short enough for one line in the narrowest board panel (36 characters at 80x24);
    # who plays whom is in the header.
    keys = f"← → Enter or 1-{pos.width}"
    if match.hint is not None:
        # The hint is the news; the keys are the same as a moment ago.
        hint = f"Hint: column {match.hint + 1}, {match.hint_reason}"
        if width is not None and len(hint) > width:
            hint = f"Hint: column {match.hint + 1}, {match.hint_reason.split(',')[0]}"
        return hint
    if name == "You":
        return f"Your turn {glyph}   {keys}"
    return f"{name} {glyph} to move   {keys}"


def room_outcome_text(view: RoomView) -> str | None:
    """How a room's game ended, in words, or None while it goes on."""
    if not view.over:
        return None
    if view.ended == "agreed":
        return "Draw agreed."
    if view.ended == "abandoned" and view.winner is None:
        return "Draw claimed: the other side left."
    if view.winner is None:
        return "Draw — the board is full."
    gone = view.seats[1 - view.winner]  # left once the game is over: named all the same
    loser = GLYPHS[1 - view.winner]
    if gone.name or not gone.open:
        loser = f"{gone.title} {loser}"
    if view.ended is None:
        return _room_winner(view)
    how = "forfeited (no move made)" if view.ended == "forfeit" else lost_words(view.ended)
    return f"{loser} {how}: {_room_winner(view)}"


def _room_winner(view: RoomView) -> str:
    assert view.winner is not None
    if view.winner == view.seat:
        return f"You win with {GLYPHS[view.winner]}!"
    return f"{view.seats[view.winner].title} {GLYPHS[view.winner]} wins."


def room_status_text(view: RoomView, keys: list[BindingType]) -> str:
    """One line on whose turn it is in a room, for this client (`keys`: the room
    screen's bindings)."""
    outcome = room_outcome_text(view)
    if outcome is not None:
        again = ""
        if view.playing and not view.tournament:
            again = f" · {spoken_key(keys, 'rematch')}: rematch"
        return f"{outcome}{again}"
    mover = view.position.to_move
    seat, glyph = view.seats[mover], GLYPHS[mover]
    if view.thinking and seat.held_until is not None:  # a bot whose stream dropped
        return f"{seat.title} {glyph} dropped: its seat is held for it."
    if view.thinking:
        # Only the server's AI can be hurried: a bot moves when it moves.
        hurry = f"   ({spoken_key(keys, 'move_now')}: move now)" * (
            view.playing and seat.ai is not None
        )
        return f"{seat.title} {glyph} is thinking…" + hurry
    if seat.open and view.code is not None:
        # Short enough for the board's column at 80x24 (the code is the point).
        return f"Waiting for a player {glyph}: code {view.code}"
    if seat.open:
        return f"Waiting for a player {glyph}."
    if mover == view.seat:
        return f"Your turn {glyph}   ← → Enter or 1-{view.position.width}"
    return f"{seat.title} {glyph} to move."
