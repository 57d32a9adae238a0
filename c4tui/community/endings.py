"""Every way a served game ends, in words for the lists, and whether it moves ratings.

On the board: four in a row (the line's side wins) or a full board (a draw). Off it
(the game file's `Ended`): resigned, a draw agreed, time (the flagging side loses:
clocks.py says why always), abandoned (the side that stayed claimed the win or a draw
once the other was gone past its grace) and forfeit (a side that never moved ran out of
time or stayed away). A forfeit changes no rating: a game that one side never began
says nothing about how either plays.
"""

from __future__ import annotations

from c4tui.engine.board.gamefile import Ending
from c4tui.engine.board.position import Position

ON_THE_BOARD = ("four in a row", "full board")


def how_it_ended(position: Position, ended: Ending | None) -> str | None:
    """ "four in a row", "full board", or the off-board ending's `how`; None while on."""
    if ended is not None:
        return ended.how
    if position.winner() is not None:
        return "four in a row"
    return "full board" if position.is_over() else None


SHORT = {
    "four in a row": "four",
    "full board": "full",
    "resigned": "resign",
    "agreed": "agreed",
    "time": "time",
    "abandoned": "left",
    "forfeit": "forfeit",
}


def ending_short(position: Position, ended: Ending | None) -> str | None:
    """The end in ten characters for a narrow list: the result and a word for how,
    "1-0 time", "0-1 resign", "½ agreed", "1-0 left"; None while the game goes on."""
    how = how_it_ended(position, ended)
    if how is None:
        return None
    winner = ended.winner if ended is not None else position.winner()
    result = "½" if winner is None else ("1-0" if winner == 0 else "0-1")
    return f"{result} {SHORT[how]}"


def changes_ratings(ended: Ending | None) -> bool:
    """Whether a rated game that ended so moves its players' ratings (a forfeit does not)."""
    return ended is None or ended.how != "forfeit"
