"""Opening suites: the positions the pairs of games start from, built in or from a file.

Engines that play the same moves in the same position would replay one game: each pair
of games (one with each colour) starts from its own opening, as engine testers do. A
suite is a list of openings; `OpeningSuite.opening(pair)` deals them out in an order
shuffled by the run's seed, each once before any twice, so pair k's opening depends only
on the seed and k (a resumed or distributed run plays the same games).

Built-in suites, `book:K` for K in SUITE_PLIES: openings of K plies on 7x6 whose exact
result (the solver with the opening book) is a draw or a win only with one of the last
stones, so neither colour starts from a position won early and both games of a pair
matter (scripts/opening_suites.py wrote them). A file holds one opening a line: a move
string or a gamesolver.org link; blank lines and anything after `#` are skipped.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from c4tui.engine.board.notation import moves_of
from c4tui.engine.board.position import Position
from c4tui.files import UnreadableFile, read_text
from c4tui.tournament.schedule import derive_seed

SUITE_PLIES = (2, 4, 6, 8)
LATE_SCORE = 3  # |exact score| at most this: a draw, or a win with one of the last stones
DEFAULT_SUITE = "book:4"
SUITES_FOLDER = Path(__file__).parent / "suites"
MAX_OPENINGS = 1_000_000


class OpeningsError(ValueError):
    """A suite that names nothing, or a file that is not a list of openings (says where)."""


def suite_path(plies: int) -> Path:
    return SUITES_FOLDER / f"book-{plies}.txt"


def suite_names() -> list[str]:
    return [f"book:{plies}" for plies in SUITE_PLIES]


def load_openings(name: str) -> list[tuple[int, ...]]:
    """The openings of a built-in suite (`book:K`) or of the file `name`."""
    if name.startswith("book:"):
        plies = name.removeprefix("book:")
        if not (plies.isdigit() and int(plies) in SUITE_PLIES):
            raise OpeningsError(f"{name!r} is no suite: {', '.join(suite_names())} or a file")
        return parse_openings(suite_path(int(plies)).read_text(), name)
    try:
        text = read_text(name)
    except UnreadableFile as error:
        raise OpeningsError(f"{name}: {error.reason}") from None
    return parse_openings(text, name)


def parse_openings(text: str, where: str) -> list[tuple[int, ...]]:
    """The openings of a suite's text, as 0-based columns; OpeningsError naming the line."""
    openings: list[tuple[int, ...]] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            position = Position.from_moves(moves_of(line))
        except ValueError as error:
            raise OpeningsError(f"{where}: line {number}: {error}") from None
        if position.is_over():
            raise OpeningsError(f"{where}: line {number}: {line!r} is a finished game")
        openings.append(position.path)
        if len(openings) > MAX_OPENINGS:
            raise OpeningsError(f"{where}: more than {MAX_OPENINGS:,} openings")
    if not openings:
        raise OpeningsError(f"{where}: no openings in it")
    return openings


class OpeningSuite:
    """The openings of a run, dealt to its pairs (see the module docstring)."""

    def __init__(self, openings: Sequence[tuple[int, ...]], seed: int) -> None:
        if not openings:
            raise OpeningsError("an opening suite needs at least one opening")
        self.openings = list(openings)
        self.seed = seed
        self._round = -1
        self._order: list[int] = []

    def opening(self, pair: int) -> tuple[int, ...]:
        """Pair `pair`'s opening: each round through the suite in its own shuffled order."""
        size = len(self.openings)
        round_, place = divmod(pair, size)
        if round_ != self._round:
            rng = random.Random(derive_seed(self.seed, "suite", round_))
            self._order = rng.sample(range(size), size)
            self._round = round_
        return self.openings[self._order[place]]
