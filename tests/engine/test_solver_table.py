"""The solver's table: empty when made and after a clear, bounds packed apart."""

from __future__ import annotations

import pytest

from c4tui.engine.board.geometry import geometry
from c4tui.engine.board.position import Position
from c4tui.engine.kernels.library import library
from c4tui.engine.solver import Solver, exact, exact_scores
from c4tui.engine.solver.table import (
    DEEP_ENTRIES,
    DEEP_MIN_TABLE,
    Coding,
    clear_table,
    deep_region,
    new_table,
    packed_fits,
)


@pytest.mark.parametrize("packed", [True, False])
def test_a_table_is_empty_when_made_and_after_a_clear(packed):
    table = new_table(1009, packed)
    assert len(table) == 1009
    assert not any(table)
    for slot in (0, 500, 1008):
        table[slot] = (123 << 8) | 7
    clear_table(table)
    assert not any(table)


@pytest.mark.parametrize("size", [(7, 6, 4), (4, 4, 3), (9, 7, 4), (5, 4, 4)])
def test_upper_and_lower_bounds_of_every_score_decode_apart(size):
    g = geometry(*size)
    coding = Coding.of(g)
    uppers = [score - coding.upper_shift for score in range(-g.max_score, g.max_score + 1)]
    lowers = [score + coding.lower_shift for score in range(-g.max_score, g.max_score + 1)]
    # 0 is an empty slot; upper bounds sit in 1..lower_base, lower bounds above; one byte.
    assert min(uppers) == 1 and max(uppers) <= coding.lower_base
    assert min(lowers) > coding.lower_base and max(lowers) <= 255


def test_packed_tables_are_for_keys_that_fit_64_bits():
    assert packed_fits(geometry(7, 6, 4))
    assert not packed_fits(geometry(9, 7, 4))


def stones_of_key(key: int, width: int, height: int) -> int:
    """The stones of the position whose table key is current + mask: a column of h
    stones adds 2**h - 1 to 2**(h + 1) - 2 to the key, within its own height + 1 bits."""
    h1 = height + 1
    columns = ((key >> (col * h1)) & ((1 << h1) - 1) for col in range(width))
    return sum((column + 1).bit_length() - 1 for column in columns)


@pytest.mark.parametrize("native", [True, False])
def test_a_big_tables_entries_near_the_end_are_in_its_deep_region(native):
    """A table of DEEP_MIN_TABLE entries or more keeps its last DEEP_ENTRIES for the nodes
    near the end (table.py's deep_region): both searches store every entry where that
    rule says, the C one (kernels/table.h) as the Python one."""
    if native and library() is None:
        pytest.skip("the C kernels are not built")
    g = geometry(7, 6, 4)
    solver = Solver(g, book=False, native=native, table_size=DEEP_MIN_TABLE)
    assert solver.uses_native == native
    assert solver.solve(Position.from_moves("12156756715535615116237724723")) == -2  # 13 empty
    main, deep_moves = deep_region(DEEP_MIN_TABLE, g.cells)
    assert main == DEEP_MIN_TABLE - DEEP_ENTRIES
    table = solver._table
    assert table is not None
    found = {"deep": 0, "main": 0}
    for slot, entry in enumerate(table):
        if entry:
            key = entry >> 8
            if stones_of_key(key, g.width, g.height) >= deep_moves:
                assert slot == main + key % DEEP_ENTRIES
                found["deep"] += 1
            else:
                assert slot == key % main
                found["main"] += 1
    assert found["deep"] and found["main"], found


@pytest.fixture
def book_solver() -> Solver:
    if library() is None:
        pytest.skip("the C kernels are not built")
    solver = Solver(geometry(7, 6, 4), threads=1)
    if solver.book is None:
        pytest.skip("bitbully-databases is not installed")
    return solver


def test_a_short_search_past_the_book_leaves_the_big_table_untouched(book_solver):
    """7x6 roots of 12-16 stones have no book below them and may search long
    (benchmarks/solver_tail.py), but most take a few milliseconds: they keep to the
    small table, and the big one's memory is never written (nor paid for)."""
    book_solver.analyze(Position.from_moves("4453623"))  # 7 stones: the book is reached below
    assert not book_solver._long_offered and book_solver._long_table is None
    book_solver.analyze(Position.from_moves("5431734637374"))  # 13 stones, 67,000 nodes
    assert book_solver._long_offered and not book_solver._long_shared
    assert book_solver._long_table is not None and not any(book_solver._long_table)


def test_a_search_that_proves_long_moves_to_the_big_table_and_keeps_it(book_solver, monkeypatch):
    monkeypatch.setattr(exact, "LONG_AFTER_NODES", 20_000)
    position = Position.from_moves("4574345331511")
    scores = exact_scores(book_solver.analyze(position))
    assert book_solver._long_shared and any(book_solver._long_table)
    book_solver.analyze(Position.from_moves("54444425416131155"))  # 17 stones: short again
    assert not book_solver._long_shared
    book_solver.reset()  # from an empty table the same scores, moving again
    assert exact_scores(book_solver.analyze(position)) == scores
    assert book_solver._long_shared
    book_solver.reset()  # as a new process: the small table first
    assert not book_solver._long_shared
