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


@pytest.mark.parametrize("size", [(7, 6, 4), (4, 4, 3), (5, 4, 4), (6, 7, 4)])
def test_both_bounds_of_every_score_round_trip_where_they_fit(size):
    """Where the key leaves room (7x6: 49 bits and two fields of 6), an entry holds a
    floor and a ceiling; storing one keeps the other, and 0 is no bound at all."""
    g = geometry(*size)
    coding = Coding.of(g)
    assert coding.bound_bits and g.width * (g.height + 1) + coding.key_shift <= 64
    none = coding.bound_offset
    assert coding.bounds(0) == (-none, none)  # an empty slot
    scores = range(-g.max_score, g.max_score + 1)
    for floor in scores:
        for ceiling in scores[floor + g.max_score :]:
            both = coding.with_ceiling(coding.with_floor(0, floor), ceiling)
            assert both < 1 << coding.key_shift
            assert coding.bounds(both) == (floor, ceiling)
            assert coding.bounds(coding.with_floor(both, floor + 1)) == (floor + 1, ceiling)
            assert coding.bounds(coding.with_ceiling(both, floor)) == (floor, floor)
        assert coding.bounds(coding.exact(floor)) == (floor, floor)


def test_keys_of_56_bits_keep_the_one_bound_entry():
    """8x6 and 7x7 keys fill 56 bits of a packed entry: the bound is the value byte."""
    for g in (geometry(8, 6, 4), geometry(7, 7, 4)):
        coding = Coding.of(g)
        assert packed_fits(g) and coding.bound_bits == 0 and coding.key_shift == 8
        assert coding.bounds(coding.with_floor(0, 3)) == (3, coding.bound_offset)
        assert coding.bounds(coding.with_ceiling(0, -3)) == (-coding.bound_offset, -3)
        assert coding.bounds(coding.exact(2)) == (-coding.bound_offset, 2)


def table_key(position: Position) -> int:
    """A position's key: the smaller of its own and its mirror image's."""
    g = position.geometry
    return min(
        position.current + position.mask, g.mirror(position.current) + g.mirror(position.mask)
    )


def root_entry(solver: Solver, position: Position) -> tuple[int, int, int]:
    """The key of the entry in `position`'s slot, and the bounds that entry holds."""
    g = solver.geometry
    coding = Coding.of(g)
    table = solver._table
    assert table is not None
    entry = table[table_key(position) % deep_region(len(table), g.cells)[0]]
    return entry >> coding.key_shift, *coding.bounds(entry & ((1 << coding.key_shift) - 1))


# 13 empty cells: its score is -2, which no bound before the search gives (parity.py
# gives none here); its entry in the main part of a table of 1,009 slots.
THIRTEEN_EMPTY = "61242271273271745443471271563"


@pytest.mark.parametrize("native", [True, False])
def test_a_node_proven_at_least_and_at_most_keeps_both_in_its_entry(native):
    """A solve's probes prove the root >= its score in one and <= it in another: its
    entry keeps the two, merged (C and Python alike, on the shared 7x6 table)."""
    if native and library() is None:
        pytest.skip("the C kernels are not built")
    solver = Solver(geometry(7, 6, 4), book=False, native=native, table_size=1009)
    position = Position.from_moves(THIRTEEN_EMPTY)
    assert solver.solve(position) == -2
    assert root_entry(solver, position) == (table_key(position), -2, -2)


@pytest.mark.parametrize("native", [True, False])
def test_an_entry_of_a_key_that_collides_lends_no_bound(native):
    """A slot holding another key's floor and ceiling: the search neither reads them nor
    keeps them beside the bound it writes there (C and Python alike)."""
    if native and library() is None:
        pytest.skip("the C kernels are not built")
    g = geometry(7, 6, 4)
    coding = Coding.of(g)
    solver = Solver(g, book=False, native=native, table_size=1009)
    position = Position.from_moves(THIRTEEN_EMPTY)
    key = table_key(position)
    slot = key % 1009
    table = solver._table
    assert table is not None
    # Bounds no score meets: read as this position's, they would end the probe at once.
    table[slot] = (key + 1009) << coding.key_shift | coding.with_ceiling(
        coding.with_floor(0, 10), -10
    )
    bounds = solver.bounds(position)
    with solver.working():
        solver.probe(position, bounds, guess=-2)  # "score >= -2": yes
    assert bounds.low == -2
    assert root_entry(solver, position) == (key, -2, coding.bound_offset)


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
    # 17 empty cells: its nodes reach both parts (the deep region from 15 empty cells).
    assert solver.solve(Position.from_moves("7141446777476564247655336")) == 2
    main, deep_moves = deep_region(DEEP_MIN_TABLE, g.cells)
    assert main == DEEP_MIN_TABLE - DEEP_ENTRIES
    table = solver._table
    assert table is not None
    found = {"deep": 0, "main": 0}
    key_shift = Coding.of(g).key_shift
    for slot, entry in enumerate(table):
        if entry:
            key = entry >> key_shift
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


@pytest.mark.parametrize("native", [True, False])
def test_a_probe_that_fails_low_tells_the_best_moves_ceiling(native):
    """ "Score > 0?" of a position scoring -2: the search fails soft, returning the best
    child's ceiling (-2) rather than the window's edge (0); stored, and as the probe's
    new bound, it is tighter for the probes after it."""
    if native and library() is None:
        pytest.skip("the C kernels are not built")
    solver = Solver(geometry(7, 6, 4), book=False, native=native, table_size=1009)
    position = Position.from_moves(THIRTEEN_EMPTY)
    bounds = solver.bounds(position)
    with solver.working():
        solver.probe(position, bounds, guess=1)  # "score >= 1": no
    assert bounds.high == -2
    assert root_entry(solver, position)[1:] == (-Coding.of(solver.geometry).bound_offset, -2)
