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


def ending_words(position: Position, ended: Ending | None, players: tuple[str, str]) -> str | None:
    """The end in a short line for the lobby's lists: "ann won, four in a row", "draw,
    full board", "bob resigned", "bob lost on time", "bob forfeited (never moved)"; None
    while the game goes on."""
    how = how_it_ended(position, ended)
    if how is None:
        return None
    winner = ended.winner if ended is not None else position.winner()
    if winner is None:
        return {"full board": "draw, full board", "agreed": "draw agreed"}.get(
            how, "draw claimed, the other left"
        )
    won, lost = players[winner], players[1 - winner]
    return {
        "four in a row": f"{won} won, four in a row",
        "resigned": f"{lost} resigned",
        "time": f"{lost} lost on time",
        "abandoned": f"{lost} left, {won} claimed the win",
        "forfeit": f"{lost} forfeited (never moved)",
    }[how]


def changes_ratings(ended: Ending | None) -> bool:
    """Whether a rated game that ended so moves its players' ratings (a forfeit does not)."""
    return ended is None or ended.how != "forfeit"
