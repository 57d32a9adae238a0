"""The exact solver against the Pons test sets and against brute force on small boards."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest

from c4tui.engine.board.geometry import centre_distance, centre_first, geometry
from c4tui.engine.board.position import Position
from c4tui.engine.players.tactics import winning_columns
from c4tui.engine.solver import (
    LIST_TABLE_SIZE,
    NATIVE_TABLE_SIZE,
    TABLE_SIZE,
    SearchStopped,
    Solver,
)
from tests.engine.brute_force import brute_force_columns, brute_force_score

TESTSETS = Path(__file__).resolve().parents[3] / "shared" / "testsets" / "pons"
SET_NAMES = ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3"]
# Positions sampled per set in the default run. Past 12 plies the "Begin" sets have no
# book to lean on and take seconds each in Python, so the default run samples them
# from the plies the book covers; the slow test runs everything.
DEFAULT_SAMPLE = {
    "Test_L3_R1": (30, 42),
    "Test_L2_R1": (30, 42),
    "Test_L2_R2": (4, 42),
    "Test_L1_R1": (30, 42),
    "Test_L1_R2": (20, 12),
    "Test_L1_R3": (20, 12),
}


def read_testset(name: str) -> list[tuple[str, int]]:
    path = TESTSETS / name
    if not path.is_file():
        pytest.skip(f"test set {path} is absent")
    pairs = []
    for line in path.read_text().splitlines():
        if line.strip():
            moves, score = line.split()
            pairs.append((moves, int(score)))
    return pairs


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(geometry(7, 6, 4))


@pytest.mark.parametrize("name", SET_NAMES)
def test_sampled_testset_positions_solve_to_their_listed_score(solver, name):
    count, max_plies = DEFAULT_SAMPLE[name]
    pairs = [pair for pair in read_testset(name) if len(pair[0]) <= max_plies]
    for moves, score in random.Random(name).sample(pairs, count):
        assert solver.solve(Position.from_moves(moves)) == score, moves


@pytest.mark.slow
@pytest.mark.parametrize("name", SET_NAMES)
def test_every_testset_position_solves_to_its_listed_score(solver, name):
    for moves, score in read_testset(name):
        assert solver.solve(Position.from_moves(moves)) == score, moves


def test_empty_board_columns_match_the_published_values(solver):
    columns = solver.analyze(Position.start())
    assert [b.low for b in columns] == [-2, -1, 0, 1, 0, -1, -2]
    assert all(b.exact for b in columns)


def test_weak_mode_gives_the_sign_of_the_exact_score(solver):
    for moves, score in random.Random(3).sample(read_testset("Test_L2_R1"), 20):
        position = Position.from_moves(moves)
        weak = solver.solve(position, weak=True)
        assert weak == (score > 0) - (score < 0), moves


def test_weak_analyze_gives_signs(solver):
    position = Position.from_moves("4453")
    exact = [b.low for b in solver.analyze(position)]
    weak = [b.low for b in solver.analyze(position, weak=True)]
    assert weak == [(s > 0) - (s < 0) for s in exact]


def random_position(rng: random.Random, w: int, h: int, n: int, plies: int) -> Position | None:
    position = Position.start(w, h, n)
    for _ in range(plies):
        position = position.play(rng.choice(position.legal_moves()))
        if position.is_over():
            return None
    return position


def quiet_position(rng: random.Random, w: int, h: int, n: int, plies: int) -> Position | None:
    """Random moves that never complete a line (None when only winning moves remain)."""
    position = Position.start(w, h, n)
    for _ in range(plies):
        quiet = [c for c in position.legal_moves() if not position.is_winning_move(c)]
        if not quiet:
            return None
        position = position.play(rng.choice(quiet))
    return position


SMALL_BOARDS = [
    # (width, height, connect, plies played before checking, positions)
    (4, 4, 4, 4, 6),
    (4, 4, 3, 0, 4),
    (5, 4, 4, 8, 6),
    (5, 4, 3, 6, 6),
    (4, 5, 4, 8, 6),
    (4, 6, 4, 12, 6),
]


@pytest.mark.parametrize(("w", "h", "n", "plies", "count"), SMALL_BOARDS)
def test_every_column_matches_brute_force_on_small_boards(w, h, n, plies, count):
    rng = random.Random(f"{w}x{h}c{n}")
    solver = Solver(geometry(w, h, n))
    memo: dict = {}
    checked = 0
    while checked < count:
        position = random_position(rng, w, h, n, plies + rng.randrange(3))
        if position is None:
            continue
        expected = brute_force_columns(position, memo)
        got = [None if b is None else b.low for b in solver.analyze(position)]
        assert got == expected, position.to_moves()
        assert solver.solve(position) == max(s for s in expected if s is not None)
        checked += 1


@pytest.mark.parametrize(("w", "h", "n"), [(8, 7, 4), (10, 10, 6), (9, 5, 5), (6, 9, 3), (7, 6, 4)])
def test_late_positions_of_any_size_match_brute_force(w, h, n):
    """Big boards (whose table is a Python list) checked near the end of the game."""
    rng = random.Random(f"late {w}x{h}c{n}")
    solver = Solver(geometry(w, h, n))
    checked = 0
    while checked < 5:
        position = quiet_position(rng, w, h, n, w * h - 9 - rng.randrange(3))
        if position is None:
            continue
        assert solver.solve(position) == brute_force_score(position), position.to_moves()
        checked += 1


def test_solver_without_book_agrees_with_the_book(solver):
    plain = Solver(geometry(7, 6, 4), book=False)
    assert plain.book is None
    for moves, score in random.Random(5).sample(read_testset("Test_L2_R1"), 10):
        assert plain.solve(Position.from_moves(moves)) == score


def test_table_memory_is_fixed_whatever_is_solved():
    solver = Solver(geometry(7, 6, 4))
    before = len(solver._table)
    for moves, _ in read_testset("Test_L2_R1")[:30]:
        solver.solve(Position.from_moves(moves))
    assert len(solver._table) == before == (NATIVE_TABLE_SIZE if solver.uses_native else TABLE_SIZE)
    assert len(Solver(geometry(10, 10, 4))._table) == LIST_TABLE_SIZE


def test_mirror_images_share_table_entries():
    solver = Solver(geometry(7, 6, 4), book=False)
    position = Position.from_moves("2252576253462244111563")
    solver.solve(position)
    nodes = solver.nodes
    assert solver.solve(position.mirror()) == solver.solve(position)
    # The mirror image is answered from the table: far fewer nodes than the first solve.
    assert solver.nodes - nodes < nodes // 4


def test_a_set_stop_event_stops_a_long_search():
    solver = Solver(geometry(7, 6, 4))
    stop = threading.Event()
    stop.set()
    with pytest.raises(SearchStopped):
        solver.solve(Position.from_moves("1217562671323"), stop=stop)


def test_a_finished_game_is_refused():
    solver = Solver(geometry(7, 6, 4))
    with pytest.raises(ValueError, match="over"):
        solver.solve(Position.from_moves("1212121"))


def test_columns_are_ordered_from_the_centre():
    assert centre_first(7) == (3, 2, 4, 1, 5, 0, 6)
    assert centre_first(4) == (1, 2, 0, 3)
    assert [centre_distance(col, 7) for col in range(7)] == [6, 4, 2, 0, 2, 4, 6]
    assert [centre_distance(col, 6) for col in range(6)] == [5, 3, 1, 1, 3, 5]


def decisive_positions(plies: int, count: int, seed: int, book_solver: Solver) -> list[Position]:
    """Random positions the book bounds as ending soon: cheap to solve bookless.

    12 plies: the book's exact score is 10 or more away from 0; 13 plies: the book's
    floor is a win of 10 or more.
    """
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = quiet_position(rng, 7, 6, 4, plies)
        if position is None or winning_columns(position):
            continue
        bounds = book_solver.bounds(position)
        if bounds.low >= 10 or (bounds.exact and bounds.low <= -10):
            found.append(position)
    return found


def test_13_ply_floors_from_the_book_agree_with_a_bookless_search(solver):
    plain = Solver(geometry(7, 6, 4), book=False)
    for position in decisive_positions(13, 4, seed=13, book_solver=solver):
        assert solver.solve(position) == plain.solve(position), position.to_moves()


@pytest.mark.slow
def test_book_shortcuts_for_12_and_13_plies_agree_with_a_bookless_search(solver):
    """The 13-ply floors and the 12-ply last-contender rule, against plain search."""
    plain = Solver(geometry(7, 6, 4), book=False)
    for plies in (12, 13):
        for position in decisive_positions(plies, 3, seed=plies, book_solver=solver):
            with_book = [None if b is None else b.low for b in solver.analyze(position)]
            without = [None if b is None else b.low for b in plain.analyze(position)]
            assert with_book == without, position.to_moves()
