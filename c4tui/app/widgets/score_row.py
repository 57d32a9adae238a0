"""The scores overlay's lines under the board: every column's result, never run together.

The board is handed each column's exact score (an integer, match/exact_scores.py); here
they become text, words or the solver's numbers, and the best result's columns are
picked by their scores, not their words. Words ("win 7", "loss 12", "draw") shorten to
`W7`, `L12`, `D` when a column is narrow; numbers (the solver's, "13", "-2") stay as
they are. When some column's text does not fit its width with a space to spare, the
columns take two lines, the odd ones on the first and the even ones on the second, so
each has twice the room.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from c4tui.engine.board.position import Position
from c4tui.match.exact_scores import ColumnScores, Solve, board_words

SHORT = {"draw": "D", "solving": "…", "gave up": "?"}


def score_cell(words: str, width: int) -> str:
    """A column's overlay words in `width` characters: "win 7", else "W7" when narrow."""
    if len(words) < width or not words[:1].isalpha():
        return words
    if words in SHORT:
        return SHORT[words]
    result, _, n = words.partition(" ")
    return f"{result[0].upper()}{n}"


def overlay_texts(
    position: Position, scores: ColumnScores, numbers: bool
) -> tuple[tuple[str, ...], tuple[int | None, ...]]:
    """Each column's text and the score it stands for (None: a full column, or none
    yet): words ("win 7"), or with `numbers` the solver's ("13", "-2"); "solving" or
    "gave up" under every column before a solve has an answer."""
    width = position.width
    if scores.solve is not Solve.SOLVED:
        return (scores.solve.value,) * width, (None,) * width
    if numbers:
        return tuple("" if s is None else str(s) for s in scores.scores), scores.scores
    return board_words(position, scores.scores), scores.scores


def rows_needed(scores: tuple[str, ...], width: int) -> int:
    """1 when every column's text fits `width` with a space to spare, else 2."""
    return 1 if all(len(score_cell(text, width)) < width for text in scores) else 2


def score_lines(
    texts: tuple[str, ...],
    scores: tuple[int | None, ...],
    width: int,
    rows: int,
    label: Style,
    best_style: Style,
) -> list[Text]:
    """The overlay's `rows` lines (1, or 2 staggered) for columns `width` cells wide, after
    the board's one-cell left edge; the best result's columns (any win, else a draw) in
    `best_style`."""
    wins = any(score is not None and score > 0 for score in scores)
    room = width if rows == 1 else 2 * width - 1
    out = []
    for row in range(rows):
        cells: list[tuple[str, Style]] = [(" ", label)] * (width * len(texts) + 1)
        for col, (text, score) in enumerate(zip(texts, scores, strict=True)):
            if rows == 2 and col % 2 != row:
                continue
            shown = score_cell(text, room - 1 if rows == 2 else room)[:room]
            best = score is not None and (score > 0 or (score == 0 and not wins))
            start = 1 + col * width + (width - len(shown)) // 2
            start = max(0, min(start, len(cells) - len(shown)))
            for i, char in enumerate(shown):
                cells[start + i] = (char, best_style if best else label)
        line = Text()
        for char, style in cells:
            line.append(char, style)
        out.append(line)
    return out
