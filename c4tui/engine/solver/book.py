"""Opening book reader: exact 7x6 scores at 12 plies, wins/draws/losses at 8 plies.

The books are the data files of the MIT-licensed `bitbully-databases` package
(Markus Thill's BitBully project). We read them with our own code: the file is
memory-mapped and searched in place, so opening takes a few milliseconds and no
Python object exists per entry.

File format (learnt from the package's documentation and its reference reader)
- A file is a sorted array of fixed-size records; there is no header.
- A record starts with the position's *Huffman code*: columns left to right, each
  column bottom to top, a stone of the first player (who moved at odd plies) as bits
  `10`, a stone of the second player as `11`, and a `0` closing every column (a full
  column too); one more `0` pads the code. With 8 stones that is 2*8 + 7 + 1 = 24
  bits, with 12 stones 2*12 + 7 + 1 = 32 bits, stored big-endian.
- `book_8ply.dat`: 3-byte records, keys compared as unsigned numbers. The two lowest
  bits (the last column's `0` and the pad, always zero in a real code) hold the value
  for the first player: 0 = draw, 1 = loss. Positions the first player wins are left
  out, so a position missing from the book (and from its mirror) is a win.
- `book_12ply_distances.dat`: 5-byte records, a 4-byte key compared as a *signed*
  32-bit number (the file is sorted that way), then one signed byte `v`: 0 = draw,
  `100 - v` plies to the first player's win for odd v > 0, `100 + v` plies to its loss
  for even v < 0. Positions where the mover wins at once are left out, so a missing
  position (after trying the mirror) is simply unknown.
- Only one of a position and its mirror image is stored: a lookup tries both.

Both books describe positions with the first player to move (8 and 12 are even), so
their values are from the side to move, as our scores are.
"""

from __future__ import annotations

import importlib.util
import mmap
from functools import cache
from pathlib import Path

from c4tui.engine.board.geometry import Geometry, geometry

BOOK_GEOMETRY = (7, 6, 4)
EXACT_PLY = 12  # book_12ply_distances.dat: exact scores
OUTCOME_PLY = 8  # book_8ply.dat: win, draw or loss only


def _asset(name: str) -> Path | None:
    # The package's folder without importing it (its import and importlib.resources
    # cost about 10 ms of the first answer); the files are mapped, so they must be real.
    spec = importlib.util.find_spec("bitbully_databases")
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        path = Path(folder) / "assets" / name
        if path.is_file():
            return path
    return None


def _map(path: Path) -> mmap.mmap:
    with path.open("rb") as handle:
        # Copy-on-write, never written: pages load as lookups touch them, and the C
        # search can be handed the mapping's address (ctypes wants a writable buffer).
        return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_COPY)


def _column_codes(height: int) -> dict[int, tuple[int, int]]:
    """Column mask bits << 8 | first player's bits -> (Huffman code, code length)."""
    codes = {}
    for stones in range(height + 1):
        column_mask = (1 << stones) - 1
        for first in range(1 << stones):
            code = 0
            for row in range(stones):
                code = code << 2 | (2 if first >> row & 1 else 3)
            codes[column_mask << 8 | first] = (code << 1, 2 * stones + 1)
    return codes


class SortedRecords:
    """One book file: fixed-size records sorted by a big-endian key, searched in place.

    A plain binary search over the mapped file: about 22 steps for the 12-ply book,
    and nothing to read or build before the first lookup.
    """

    def __init__(self, path: Path, record: int, key_bytes: int, signed: bool, value_bits: int):
        self.data = _map(path)
        self.record = record
        self.key_bytes = key_bytes
        self.signed = signed
        self.key_mask = ~((1 << value_bits) - 1)
        self.count = len(self.data) // record

    def key_at(self, index: int) -> int:
        at = index * self.record
        raw = int.from_bytes(self.data[at : at + self.key_bytes], "big", signed=self.signed)
        return raw & self.key_mask

    def find(self, key: int) -> int | None:
        """The byte offset of the record with this key, or None."""
        low, high = 0, self.count - 1
        key_at = self.key_at
        while low <= high:
            mid = (low + high) >> 1
            found = key_at(mid)
            if found == key:
                return mid * self.record
            if found < key:
                low = mid + 1
            else:
                high = mid - 1
        return None


class OpeningBook:
    """Lookups in the two BitBully books for the 7x6 connect-4 board."""

    # Values already looked up, kept up to this many per book (a search revisits them).
    CACHE_LIMIT = 200_000

    def __init__(self, exact_path: Path | None, outcome_path: Path | None) -> None:
        self.geometry: Geometry = geometry(*BOOK_GEOMETRY)
        self.exact_records = SortedRecords(exact_path, 5, 4, True, 0) if exact_path else None
        self.outcome_records = SortedRecords(outcome_path, 3, 3, False, 2) if outcome_path else None
        self._codes = _column_codes(self.geometry.height)
        self._cache: dict[int, int | None] = {}
        self._outcome_cache: dict[int, int] = {}
        self.lookups = 0

    @classmethod
    def default(cls) -> OpeningBook | None:
        """The book of the installed `bitbully-databases` package, or None without it."""
        return _default_book()

    def applies_to(self, g: Geometry) -> bool:
        return (g.width, g.height, g.connect) == BOOK_GEOMETRY

    def huffman_codes(self, first: int, mask: int) -> tuple[int, int]:
        """The Huffman codes of a position and of its mirror image.

        `first` holds the first player's stones, `mask` every stone.
        """
        codes = self._codes
        code = mirrored = mirrored_length = 0
        # Each column takes 7 bits (6 rows and the empty guard bit) on the book's board.
        for _ in range(self.geometry.width):
            part, length = codes[(mask & 127) << 8 | (first & 127)]
            code = code << length | part
            mirrored |= part << mirrored_length
            mirrored_length += length
            mask >>= 7
            first >>= 7
        # The final padding zero.
        return code << 1, mirrored << 1

    # ---- lookups ------------------------------------------------------------------

    def exact_score(self, first: int, mask: int) -> int | None:
        """Exact score (side to move) of a 12-ply position, or None when not in the book.

        `first` holds the stones of the side to move, which is the first player.
        """
        if self.exact_records is None:
            return None
        cache_key = first + mask
        if cache_key in self._cache:
            return self._cache[cache_key]
        self.lookups += 1
        score = None
        for code in self.huffman_codes(first, mask):
            # Keys are sorted as signed 32-bit numbers.
            at = self.exact_records.find(code - (1 << 32) if code >= 1 << 31 else code)
            if at is not None:
                value = self.exact_records.data[at + 4]
                score = _distance_to_score(value - 256 if value > 127 else value)
                break
        if len(self._cache) >= self.CACHE_LIMIT:
            self._cache.clear()
        self._cache[cache_key] = score
        return score

    def outcome(self, first: int, mask: int) -> int | None:
        """1, 0 or -1: win, draw or loss for the side to move of an 8-ply position."""
        if self.outcome_records is None:
            return None
        cache_key = first + mask
        if cache_key in self._outcome_cache:
            return self._outcome_cache[cache_key]
        self.lookups += 1
        value = 1
        for code in self.huffman_codes(first, mask):
            at = self.outcome_records.find(code)
            if at is not None:
                value = -(self.outcome_records.data[at + 2] & 3)
                break
        if len(self._outcome_cache) >= self.CACHE_LIMIT:
            self._outcome_cache.clear()
        self._outcome_cache[cache_key] = value
        return value


def _distance_to_score(value: int) -> int:
    """A 12-ply book value -> our score (7x6: 22 - stones of the winner).

    A win in d = 100 - v plies ends at ply 12 + d with the first player's stone, when
    it has (13 + d) / 2 stones: 22 - (113 - v) / 2 = (v - 69) / 2. A loss in
    d = 100 + v plies ends at ply 12 + d, the second player having (12 + d) / 2 stones:
    -(22 - (112 + v) / 2) = 34 + v / 2.
    """
    if value > 0:
        return (value - 69) // 2
    if value < 0:
        return 34 + value // 2
    return 0


@cache
def _default_book() -> OpeningBook | None:
    exact, outcome = _asset("book_12ply_distances.dat"), _asset("book_8ply.dat")
    if exact is None and outcome is None:
        return None
    return OpeningBook(exact, outcome)


def has_book(g: Geometry) -> bool:
    """Whether a solver of this board size reads an opening book (7x6 connect 4, when
    the books are installed): there any position solves quickly."""
    book = _default_book()
    return book is not None and book.applies_to(g)
