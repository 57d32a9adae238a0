"""The column analysis's first guess past the book: the position's own floor from the
12-ply book (its book score at 12 plies, the floor from its parents at 13), at 14 plies
the least book score of its 12-ply grandparents, in the Python analysis and in C's,
which must search the same nodes."""

import pytest

from c4tui.engine.board.geometry import geometry
from c4tui.engine.board.position import Position
from c4tui.engine.board.scores import win_score
from c4tui.engine.kernels import library
from c4tui.engine.solver import ColumnBounds, Solver
from c4tui.engine.solver.book import OpeningBook
from c4tui.engine.solver.columns import analyze_columns, least_grandparent

needs_book = pytest.mark.skipif(
    OpeningBook.default() is None, reason="bitbully-databases is not installed"
)

# Small analyses (10-30 thousand nodes), none with a win at once, and the floor they
# start from (mover's view).
AT_12 = ("315237735272", -2)  # its book score, which is also its best column's
AT_13 = ("3136211716336", -4)  # a floor below its best column (3)
AT_13_EXACT = ("7277643352522", -2)  # a floor its best column reaches
AT_14 = ("34233163135446", -4)  # the least of its grandparents' book scores
# 12 plies, every child with a floor of its own from the book, from 4 to 7 (26 thousand
# nodes).
FLOORED_12 = "236456337456"


class GuessLog:
    """A Python solver that notes the guess of every probe the analysis asks for (and
    each probe's position and its bounds before it)."""

    def __init__(self, solver: Solver) -> None:
        self.solver = solver
        self.geometry = solver.geometry
        self.book = solver.book
        self.guesses: list[int | None] = []
        self.probes: list[tuple[str, int, int | None]] = []

    def bounds(self, position: Position, *, weak: bool = False) -> ColumnBounds:
        return self.solver.bounds(position, weak=weak)

    def probe(
        self, position: Position, bounds: ColumnBounds, *, weak: bool, guess: int | None
    ) -> None:
        self.guesses.append(guess)
        self.probes.append((position.to_moves(), bounds.low, guess))
        self.solver.probe(position, bounds, weak=weak, guess=guess)

    def out_of_time(self) -> bool:
        return self.solver.out_of_time()


@needs_book
@pytest.mark.parametrize(("moves", "floor"), [AT_12, AT_13, AT_13_EXACT])
def test_the_first_probe_guesses_the_positions_floor_from_the_book(moves, floor):
    position = Position.from_moves(moves)
    log = GuessLog(Solver(geometry(7, 6, 4), native=False, table_size=1_000_003))
    assert log.solver.bounds(position).low == floor
    analyze_columns(log, position, weak=False, on_column=None, columns=[None] * 7)
    # Children's view: a column as good as the floor leaves its child at -floor.
    assert log.guesses[0] == -floor


@needs_book
def test_at_12_plies_each_column_first_tests_its_floor():
    """A 12-ply position's children have floors from the book (and the follow-up), and
    often score just that: each one's first probe asks "more than the floor?"."""
    position = Position.from_moves(FLOORED_12)
    log = GuessLog(Solver(geometry(7, 6, 4), native=False, table_size=1_000_003))
    analyze_columns(log, position, weak=False, on_column=None, columns=[None] * 7)
    trivial = -win_score(42, 14)  # a 13-ply child's floor without the book
    first: dict[str, tuple[int, int | None]] = {}
    for child, low, guess in log.probes:
        first.setdefault(child, (low, guess))
    floored = {child: low for child, (low, _) in first.items() if low > trivial}
    assert len(floored) == 7
    assert all(first[child][1] == low for child, low in floored.items())


@needs_book
def test_at_14_plies_the_first_probe_guesses_the_least_grandparents_score():
    moves, least = AT_14
    position = Position.from_moves(moves)
    book = OpeningBook.default()
    assert book is not None
    assert least_grandparent(book, position) == least
    # The grandparent it came through is one of those weighed.
    played = Position.from_moves(moves[:12])
    came_through = book.exact_score(played.current, played.mask)
    assert came_through is not None and least <= came_through
    log = GuessLog(Solver(geometry(7, 6, 4), native=False, table_size=1_000_003))
    analyze_columns(log, position, weak=False, on_column=None, columns=[None] * 7)
    assert log.guesses[0] == -least


@needs_book
def test_before_12_plies_the_first_column_is_solved_with_no_guess():
    position = Position.from_moves("4453")
    log = GuessLog(Solver(geometry(7, 6, 4), native=False, table_size=1_000_003))
    analyze_columns(log, position, weak=False, on_column=None, columns=[None] * 7)
    assert log.guesses[0] is None


@needs_book
@pytest.mark.skipif(library.library() is None, reason="installed without C kernels")
@pytest.mark.parametrize("moves", [AT_12[0], FLOORED_12, AT_13[0], AT_13_EXACT[0], AT_14[0]])
def test_c_and_python_analyses_past_the_book_agree_node_for_node(moves):
    position = Position.from_moves(moves)
    found = []
    for native in (True, False):
        solver = Solver(geometry(7, 6, 4), threads=1, native=native, table_size=1_000_003)
        before = solver.nodes
        scores = [None if b is None else b.low for b in solver.analyze(position)]
        found.append((scores, solver.nodes - before))
    assert found[0] == found[1]
