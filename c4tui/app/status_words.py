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


def fitted(width: int | None, *forms: str) -> str:
    """The first of `forms` (the fullest first) that fits in `width` characters, else
    the last: at 80x24 the status line has 36, and a line cut mid-word ("v: revie…")
    says less than a shorter one."""
    if width is not None:
        for form in forms:
            if len(form) <= width:
                return form
    return forms[0] if width is None else forms[-1]


def status_text(match: MatchView, width: int | None = None) -> str:
    """One line on whose turn it is and what the keys do, in `width` characters when
    given: a shorter form where the full one does not fit (fitted)."""

    def key(intent: str) -> str:
        return spoken_key(KEYS, intent) or intent

    outcome = outcome_text(match)
    if outcome is not None:
        new, review = key("new_game"), key("review_game")
        return fitted(
            width,
            f"{outcome}   {new}: new game · {review}: review it",
            f"{outcome}  {new}: new · {review}: review",
            f"{outcome}  {review}: review",
            outcome,
        )
    pos = match.position
    mover = pos.to_move
    name, glyph = match.names[mover], GLYPHS[mover]
    now = key("move_now")
    if match.thinking and not match.is_ai(mover) and match.search is not None:
        # `m` on a person's turn: an engine picks that person's move.
        helper = match.search.title
        whom = "you" if name == "You" else name
        return fitted(
            width,
            f"{helper} is choosing a move for {whom} {glyph}…   ({now}: move now)",
            f"{helper} chooses for {whom} {glyph}… ({now}: now)",
            f"{helper} chooses for {whom} {glyph}…",
        )
    if match.thinking and match.sides.watching:
        step, pause = key("step"), key("pause")
        return fitted(
            width,
            f"{name} {glyph} is thinking…   ({step}: move now, {pause}: pause)",
            f"{name} {glyph} thinking… ({step}: move, {pause}: pause)",
            f"{name} {glyph} is thinking…",
        )
    if match.thinking:
        return fitted(
            width,
            f"{name} {glyph} is thinking…   ({now}: move now)",
            f"{name} {glyph} is thinking… ({now}: now)",
            f"{name} {glyph} is thinking…",
        )
    if match.is_ai(mover):
        if match.paused and match.sides.watching:
            go_on, step = key("go_on"), key("step")
            return fitted(
                width,
                f"Paused: {name} {glyph} to move.   ({go_on}: go on, {step}: one move)",
                f"Paused: {name} {glyph} to move ({go_on}: go on)",
                f"Paused: {name} {glyph} to move",
            )
        if match.paused:
            return fitted(
                width,
                f"{name} {glyph} to move: press {now} to let it play.",
                f"{name} {glyph} to move: {now} lets it play",
                f"{name} {glyph}: {now} lets it play",
            )
        return f"{name} {glyph} to move."
    # Who plays whom is in the header.
    keys = f"← → Enter or 1-{pos.width}"
    if match.hint is not None:
        # The hint is the news; the keys are the same as a moment ago.
        hint = f"Hint: column {match.hint + 1}, {match.hint_reason}"
        short = f"Hint: column {match.hint + 1}, {match.hint_reason.split(',')[0]}"
        return fitted(width, hint, short, f"Hint: column {match.hint + 1}")
    if name == "You":
        return fitted(width, f"Your turn {glyph}   {keys}", f"Your turn {glyph}")
    return fitted(width, f"{name} {glyph} to move   {keys}", f"{name} {glyph} to move")


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
