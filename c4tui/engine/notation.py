"""Move strings: the gamesolver.org notation, one character per move.

Columns are written 1-based: `1`..`9` for the first nine columns. Boards wider than
nine columns (the engine supports up to ten) write column 10 as `a` (or `A`); this is
our extension, the only one needed. The empty string is the empty board.
"""

from __future__ import annotations

_SYMBOLS = "123456789a"
# Characters quoted each side of a bad move: a 98,000-character string is not echoed whole.
QUOTE_REACH = 20


class NotationError(ValueError):
    """A move string that cannot be played; says which character and why."""

    def __init__(self, text: str, index: int, reason: str) -> None:
        self.text = text
        self.index = index  # 1-based position of the offending character
        self.reason = reason
        char = text[index - 1] if 0 < index <= len(text) else ""
        super().__init__(f"move {index} ({char!r}) of {quote_around(text, index)}: {reason}")


def quote_around(text: str, index: int, reach: int = QUOTE_REACH) -> str:
    """`text` quoted, cut to `reach` characters each side of its 1-based `index` ("…" where cut)."""
    start, end = max(0, index - 1 - reach), min(len(text), index + reach)
    return f"{'…' if start else ''}{text[start:end]!r}{'…' if end < len(text) else ''}"


def column_symbol(col: int) -> str:
    """The character for 0-based column `col`."""
    return _SYMBOLS[col]


def symbol_column(char: str) -> int | None:
    """0-based column written by `char`, or None when it is no column symbol."""
    index = _SYMBOLS.find(char.lower())
    return index if index >= 0 and char else None


def format_moves(columns: list[int] | tuple[int, ...]) -> str:
    return "".join(_SYMBOLS[c] for c in columns)
