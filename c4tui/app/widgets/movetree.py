"""The game's tree as rows of numbered moves, the way chess programs print a game.

The main line goes by rounds, one a row ("  3. ● 5  ○ 4"); each variation follows, on its
own indented row, the row of the move it is an alternative to, and a variation's own
variations follow it one step further in. A move is numbered by its round and marked by
its side: "3. ● 5", and a variation starting at ○'s move says "3… ○ 6". Every entry keeps
the path of the move (the path of the position after it), so a click can jump to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby

from c4tui.engine.board.game import Game, Node
from c4tui.engine.board.notation import move_number
from c4tui.match.sides import GLYPHS

INDENT = 2  # columns per variation depth


@dataclass(frozen=True)
class Entry:
    """One move in the list: its words ("● 5", with "3." before ● moves) and its path."""

    number: str  # "3." or "3…" or ""
    move: str  # "● 5"
    path: tuple[int, ...]


@dataclass(frozen=True)
class Row:
    """One row: the main line's round (depth 0, `round` set) or a variation (depth > 0)."""

    depth: int
    entries: tuple[Entry, ...]
    round: int = 0


def entry_of(node: Node, columns: int, first: bool) -> Entry:
    """A move's entry; `first` when it starts a variation (a ○ move then says "3…")."""
    ply = node.position.moves - 1
    digits = len(str(columns))
    move = f"{GLYPHS[ply & 1]} {node.column + 1:<{digits}}"
    number = f"{move_number(ply)}." if ply % 2 == 0 else f"{move_number(ply)}…" if first else ""
    return Entry(number, move, node.position.path)


def move_rows(game: Game, columns: int) -> list[Row]:
    """The rows of the whole tree (see the module docstring)."""
    rows: list[Row] = []
    rounds = groupby(game.main_line(), key=lambda node: move_number(node.position.moves - 1))
    for number, group in rounds:
        pair = list(group)
        # "3." before ● (and "3…" when a game from a position starts with ○'s move)
        entries = tuple(entry_of(node, columns, index == 0) for index, node in enumerate(pair))
        rows.append(Row(0, entries, number))
        for node in pair:
            _alternatives(node, columns, 1, rows)
    return rows


def _alternatives(node: Node, columns: int, depth: int, rows: list[Row]) -> None:
    """The variations that replace `node` (its later siblings), each with its own."""
    parent = node.parent
    if parent is not None and parent.children[0] is node:
        for sibling in parent.children[1:]:
            _variation(sibling, columns, depth, rows)


def _variation(first: Node, columns: int, depth: int, rows: list[Row]) -> None:
    line = [first]
    while line[-1].children:
        line.append(line[-1].children[0])
    entries = tuple(entry_of(node, columns, index == 0) for index, node in enumerate(line))
    rows.append(Row(depth, entries))
    for node in line[1:]:
        _alternatives(node, columns, depth + 1, rows)
