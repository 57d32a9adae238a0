"""Move strings: the gamesolver.org notation, one character per move.

Columns are written 1-based: `1`..`9` for the first nine columns. Boards wider than
nine columns (the engine supports up to ten) write column 10 as `a` (or `A`); this is
our extension, the only one needed. The empty string is the empty board.

Players share positions as gamesolver.org links (`https://connect4.gamesolver.org/?pos=4453`);
`moves_of` takes such a link, with or without the scheme and with other query parameters,
wherever a move string is accepted; `link_of` writes one.

Counting moves, one way everywhere (the app, `c4tui review`, "win in N"): a side's
moves are its own stones. "Move 17 ●" is ●'s 17th stone and "move 17 ○" ○'s answer to
it (both share the number, as a round: the 33rd and 34th stones on the board); "● wins
in 3" means ● drops three more stones, the winning one included (scores.py). The
machine-readable `ply` of `c4tui review --json` stays as scripts read it: the stone's
place on the board, 1-based.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

_SYMBOLS = "123456789a"
# Characters quoted each side of a bad move: a 98,000-character string is not echoed whole.
QUOTE_REACH = 20


def move_number(ply: int) -> int:
    """The number of the move played at the 0-based `ply`: the mover's own stone count
    (both sides' moves of one round share it)."""
    return ply // 2 + 1


def move_name(ply: int, glyphs: tuple[str, str] = ("●", "○")) -> str:
    """ "17 ●" for the 0-based ply 32, "17 ○" for 33: the move's number and its side."""
    return f"{move_number(ply)} {glyphs[ply & 1]}"


class NotationError(ValueError):
    """A move string that cannot be played; says which character and why."""

    def __init__(self, text: str, index: int, reason: str) -> None:
        self.text = text
        self.index = index  # 1-based position of the offending character
        self.reason = reason
        char = text[index - 1] if 0 < index <= len(text) else ""
        super().__init__(f"move {index} ({char!r}) of {quote_around(text, index)}: {reason}")


class LinkError(ValueError):
    """A link given for a position that is no gamesolver.org position link."""


def moves_of(text: str) -> str:
    """The move string `text` stands for: itself, or the `pos` of a gamesolver.org link
    (a link without `pos` is the empty board, as on the site). Blanks around are dropped.
    """
    text = text.strip()
    if "://" not in text and "gamesolver.org" not in text.lower():
        return text
    link = urlsplit(text if "://" in text else f"https://{text}")
    host = (link.hostname or "").lower() if link.scheme in ("http", "https") else ""
    if host != "gamesolver.org" and not host.endswith(".gamesolver.org"):
        raise LinkError(f"{quote_around(text, 1, 60)} is not a connect4.gamesolver.org link")
    positions = parse_qs(link.query).get("pos", [""])
    if len(positions) > 1:
        raise LinkError(f"{quote_around(text, 1, 60)} gives pos= {len(positions)} times")
    return positions[0].strip()


GAMESOLVER = "https://connect4.gamesolver.org/?pos="


def link_of(moves: str) -> str:
    """The gamesolver.org link of a 7x6 position's move string (the site plays only 7x6
    with four in a row)."""
    return GAMESOLVER + moves


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


def column_range(width: int) -> str:
    """How the columns of a `width`-column board are written, for messages."""
    if width <= len(_SYMBOLS) - 1:
        return f"a digit 1-{width}"
    return f"a digit 1-9 or {_SYMBOLS[9]!r} for column 10"


def format_moves(columns: list[int] | tuple[int, ...]) -> str:
    return "".join(_SYMBOLS[c] for c in columns)
