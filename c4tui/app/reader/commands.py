"""What a person can ask and do in the screen-reader mode, typed or by key.

A question (the board, a column, the last moves, whose turn, the clocks, the AI's view,
the threats, the game's lines) is answered in lines from the match's view. Anything
else typed is the game's own key, by its letter or its name ("u" or "undo", "4" or
"drop 4"), run as that key's action, so the game screen decides what it does and
whether it applies now, as it does for the key.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from c4tui.app.reader import words
from c4tui.match.interface import MatchView

# Readers of a game's clocks: the clocks part adds one (a view to its line, or None).
CLOCK_READERS: list[Callable[[MatchView], str | None]] = []


@dataclass(frozen=True)
class Question:
    """Something to ask: its typed names, its key in the keys mode, what it says."""

    names: tuple[str, ...]
    key: str | None  # in the keys mode (None: typed only)
    description: str
    answer: Callable[[MatchView, int], list[str]]  # the view and the chosen column


def _board(view: MatchView, _cursor: int) -> list[str]:
    return words.board_lines(view.position)


def _chosen(view: MatchView, cursor: int) -> list[str]:
    return [words.column_line(view.position, cursor)]


def _last(view: MatchView, _cursor: int) -> list[str]:
    return [words.last_moves_line(view.game)]


def _turn(view: MatchView, _cursor: int) -> list[str]:
    return [words.turn_line(view)]


def _clocks(view: MatchView, _cursor: int) -> list[str]:
    room = view.room
    if room is not None and room.clock is not None:
        return [words.clock_line(room.clock, view.names, time.monotonic())]
    said = [line for read in CLOCK_READERS if (line := read(view)) is not None]
    return said or ["no clocks in this game"]


def _ai(view: MatchView, _cursor: int) -> list[str]:
    search = view.search
    if search is None:
        return ["no engine has looked at this game"]
    title = search.title + (" (thinking)" if view.thinking else "")
    lines = words.search_lines(title, search.position, search.info)
    if search.position != view.position and search.info is not None:
        lines[0] += f", {words.position_line(search.position)}"
    return lines


def _threats(view: MatchView, _cursor: int) -> list[str]:
    return words.threat_lines(view.position)


def _lines(view: MatchView, _cursor: int) -> list[str]:
    return words.variation_lines(view.game)


def _room(view: MatchView, _cursor: int) -> list[str]:
    if view.room is None:
        return ["not in a room of a server"]
    return [words.room_line(view.room, seat_code=True)]


QUESTIONS: tuple[Question, ...] = (
    Question(("board", "b"), "b", "the board, row by row from the top", _board),
    Question(("column", "f"), "f", "the chosen column (column N: that one)", _chosen),
    Question(("last", "l"), "l", "the last moves", _last),
    Question(("turn", "w"), "w", "whose turn it is", _turn),
    Question(("clocks", "k"), "k", "the clocks", _clocks),
    Question(("ai", "a"), "a", "the AI's view of each column", _ai),
    # z: the normal mode's threat marks on the board; here, the threats in words.
    Question(
        ("threats", "x", "z", "threat marks"), "x", "each side's threats and the parity", _threats
    ),
    Question(("lines", "e"), "e", "every line of the game: the main line, the variations", _lines),
    Question(("room", "code"), None, "in a room: its seats and its codes", _room),
)

# The study tools (study.py), by the names typed.
STUDY = {
    "review": "review",
    "v": "review",
    "learn": "learn",
    "scores": "scores",
    "o": "scores",
    "puzzle": "puzzle",
    "puzzles": "puzzle",
    "t": "puzzle",
    "next": "next",
    "stop": "stop",
}

# The game's keys by name, as typed: the key the name stands for.
KEY_NAMES = {
    "drop": "enter",
    "undo": "u",
    "take back": "u",
    "redo": "r",
    "new": "n",
    "new game": "n",
    "rematch": "n",
    "hint": "h",
    "move": "m",
    "move now": "m",
    "draw": "d",
    "offer draw": "d",
    "resign": "R",
    "games": "g",
    "position": "p",
    "copy": "c",
    "pause": "space",
    "go on": "space",
    "step": "full_stop",
    "settings": "s",
    "help": "question_mark",
    "lobby": "escape",
    "leave": "escape",
    "quit": "q",
    "back": "up",
    "forward": "down",
    "start": "home",
    "end": "end",
    "promote": "P",
    "delete": "X",
}


@dataclass(frozen=True)
class Typed:
    """A typed line, understood: a question, a column to drop in, a key, a chat line."""

    question: Question | None = None
    column: int | None = None  # 0-based: drop here; with `question`: the column asked
    key: str | None = None
    chat: str | None = None
    study: str | None = None  # review, learn, puzzle, next, stop (study.py)
    unknown: str | None = None


def _column(text: str) -> int | None:
    """A column number as typed (1-based) to a 0-based column, or None: plain digits
    only, since Python's isdigit also takes "²" (which int refuses) and "٤"."""
    return int(text) - 1 if text.isascii() and text.isdigit() else None


def understood(text: str) -> Typed:
    """What a typed line asks for (`Typed.unknown` when nothing). A column may lie off
    the board (0, 99): whoever knows the board's width refuses it (`words.no_column`)."""
    line = " ".join(text.split())
    word, _, rest = line.partition(" ")
    low = word.lower()
    if not line:
        return Typed(key="enter")  # Enter alone drops in the chosen column, as the key
    if _column(word) is not None:
        return Typed(column=_column(word))
    if low in ("say", "chat") and rest:
        return Typed(chat=rest)
    if not rest and low in STUDY:
        return Typed(study=STUDY[low])
    if low == "drop" and _column(rest) is not None:
        return Typed(column=_column(rest))
    for question in QUESTIONS:
        if line.lower() in question.names:
            return Typed(question=question)
        if low in question.names and _column(rest) is not None:
            return Typed(question=question, column=_column(rest))
    if line.lower() in KEY_NAMES:
        return Typed(key=KEY_NAMES[line.lower()])
    if len(word) == 1 and not rest:
        return Typed(key=word)  # a key's own letter, case as typed ("R" resigns)
    return Typed(unknown=line)


def help_lines() -> list[str]:
    """What can be typed, each on a line."""
    asked = [
        f"{q.names[0]}{'' if q.key is None else f' or {q.key}'}: {q.description}" for q in QUESTIONS
    ]
    return [
        "type a command and press Enter; Escape: keys instead, colon: back to typing",
        "with the keys, [ and ] read back the lines before and after",
        "a column number, or Enter alone: drop a disc there (left and right choose)",
        *asked,
        "review or v: the game's moves judged by the solver, each mistake and its better move",
        "learn: play your mistakes again; puzzle or t: a puzzle near your rating; next, stop",
        "scores or o: every column's exact score for the side to move, from the solver",
        "say TEXT: chat in a room",
        "any key of the game by its letter or name: undo, redo, new, hint, move now, "
        "draw, resign, settings, lobby, quit; back, forward, start, end: along the game's "
        "lines, promote, delete",
    ]
