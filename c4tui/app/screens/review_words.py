"""The review's words: one numbering of moves, marks, verdicts and the result after a move.

Moves are numbered as players count them, with the mover's disc, everywhere in the
review (the header, the list, the summary) as in the game's move list and `c4tui
review`: "move 7 ○" is ○'s 7th stone, the game's 14th (notation.py).
"""

from __future__ import annotations

from c4tui.engine.board import notation
from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import describe_score, moves_to_end
from c4tui.engine.study.review import MoveReview
from c4tui.match.sides import GLYPHS

MARKS = {"best": "", "ok": "?!", "mistake": "?", "blunder": "??"}
WORDS = {
    "best": "best",
    "ok": "keeps the result, not the best",
    "mistake": "a mistake",
    "blunder": "a blunder",
}


def move_name(ply: int) -> str:
    """ "7 ○" for the 0-based ply 13: ○'s 7th move (notation.py counts moves)."""
    return notation.move_name(ply, GLYPHS)


def after_words(before: Position, review: MoveReview) -> str:
    """The result once the move is on the board, with best play from there: "● has
    won", "a draw", or who wins in how many of their own moves ("○ wins in 3")."""
    after = before.play(review.column)
    mover, other = GLYPHS[before.to_move], GLYPHS[1 - before.to_move]
    if after.winner() is not None:
        return f"{mover} has won"
    if after.is_draw():
        return "a draw: the board is full"
    score = review.score
    if score == 0:
        return "a draw with best play"
    if score > 0:
        return f"{mover} wins in {moves_to_end(before, score) - 1}"
    return f"{other} wins in {moves_to_end(after, -score)}"


def best_words(before: Position, review: MoveReview) -> str:
    """ "better: 4, 5 (win in 3; this move: win in 4)": the best columns and what they
    give beside what the move played gives, both counted from before the move (as
    `c4tui review` counts them), so that a slower win never reads as good as the best."""
    columns = ", ".join(str(c + 1) for c in review.best)
    best, played = describe_score(before, review.best_score), describe_score(before, review.score)
    return f"better: {columns} ({best}; this move: {played})"


def line_words(ply: int, line: tuple[int, ...]) -> str:
    """ "○4 ●4 ○3": a line of moves from the 0-based `ply`, each with its mover's disc."""
    return " ".join(f"{GLYPHS[(ply + i) & 1]}{col + 1}" for i, col in enumerate(line))
