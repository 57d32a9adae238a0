"""Our opening-book reader against the package's own reader and against the solver."""

from __future__ import annotations

import random

import pytest

from c4tui.engine.board.geometry import geometry
from c4tui.engine.board.position import Position
from c4tui.engine.solver import Solver
from c4tui.engine.solver.book import EXACT_PLY, OUTCOME_PLY, OpeningBook, _asset

bbd = pytest.importorskip("bitbully_databases")


@pytest.fixture(scope="module")
def book() -> OpeningBook:
    book = OpeningBook.default()
    if book is None:
        pytest.skip("bitbully-databases is not installed")
    return book


def package_board(position: Position) -> list[list[int]]:
    """The package's board: rows top first, 1 = first player, 2 = second, 0 = empty."""
    rows = [[0] * position.width for _ in range(position.height)]
    for col in range(position.width):
        for row in range(position.height):
            player = position.cell(col, row)
            if player is not None:
                rows[position.height - 1 - row][col] = player + 1
    return rows


def package_score(value: int | None) -> int | None:
    """The package's 12-ply distance value in our score convention (see book.py)."""
    if value is None or value == 0:
        return value
    return (value - 69) // 2 if value > 0 else 34 + value // 2


def random_positions(plies: int, count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    positions: list[Position] = []
    while len(positions) < count:
        position = Position.start()
        for _ in range(plies):
            position = position.play(rng.choice(position.legal_moves()))
            if position.is_over():
                break
        if not position.is_over():
            positions.append(position)
    return positions


def test_codes_and_records_agree_with_the_package_helpers(book):
    """The package's own encoder and record reader, without loading its whole book."""
    helpers = bbd.BitBullyDatabases
    path = helpers.get_database_path("12-ply-dist")
    with open(path, "rb") as handle:
        for position in random_positions(EXACT_PLY, 200, seed=6):
            board = package_board(position)
            code, mirrored = book.huffman_codes(position.current, position.mask)
            signed = [c - (1 << 32) if c >= 1 << 31 else c for c in (code, mirrored)]
            assert signed[0] == helpers._to_huffman(board)
            assert signed[1] == helpers._to_huffman(helpers._mirror_horiz(board))
            for key in signed:
                at = book.exact_records.find(key)
                if at is not None:
                    handle.seek(at)
                    found, value = helpers._readline(handle, True, False)
                    assert found == key
                    assert book.exact_score(position.current, position.mask) == package_score(value)
                    break


@pytest.mark.slow
def test_exact_scores_agree_with_the_package_reader(book):
    reference = bbd.BitBullyDatabases("12-ply-dist")
    for position in random_positions(EXACT_PLY, 150, seed=1):
        expected = package_score(reference.get_book_value(package_board(position)))
        assert book.exact_score(position.current, position.mask) == expected, position


def test_outcomes_agree_with_the_package_reader(book):
    reference = bbd.BitBullyDatabases("8-ply")
    for position in random_positions(OUTCOME_PLY, 150, seed=2):
        expected = reference.get_book_value(package_board(position))
        assert book.outcome(position.current, position.mask) == expected, position


def test_records_sampled_from_the_file_are_found(book):
    """Every 50,000th record of the 12-ply file, decoded back into a position."""
    records = book.exact_records
    for index in range(0, records.count, 50_000):
        key = records.key_at(index) & 0xFFFFFFFF
        position = decode_huffman(key)
        assert position.moves == EXACT_PLY
        assert book.exact_score(position.current, position.mask) is not None


def decode_huffman(code: int) -> Position:
    """A 32-bit Huffman code (see book.py) -> the position (stones placed directly)."""
    bits = f"{code:032b}"
    g = geometry(7, 6, 4)
    first = mask = 0
    at = 0
    for col in range(7):
        row = 0
        while bits[at] == "1":
            cell = g.bit(col, row)
            mask |= cell
            if bits[at + 1] == "0":
                first |= cell
            at += 2
            row += 1
        at += 1
    stones = mask.bit_count()
    # With the first player to move, `current` is the first player's stones.
    return Position(first, mask, stones, g)


def test_a_position_and_its_mirror_have_the_same_value(book):
    for position in random_positions(EXACT_PLY, 30, seed=3):
        mirror = position.mirror()
        assert book.exact_score(position.current, position.mask) == book.exact_score(
            mirror.current, mirror.mask
        )


def test_book_scores_agree_with_the_solver_without_book(book):
    """12-ply positions that end soon are cheap to solve from scratch."""
    plain = Solver(geometry(7, 6, 4), book=False)
    checked = 0
    for position in random_positions(EXACT_PLY, 400, seed=4):
        score = book.exact_score(position.current, position.mask)
        if score is None or abs(score) < 12:
            continue
        assert plain.solve(position) == score, position
        checked += 1
        if checked == 12:
            break
    assert checked == 12


def test_outcomes_agree_with_a_solver_using_only_the_12_ply_book(book):
    exact_only = OpeningBook(_asset("book_12ply_distances.dat"), None)
    solver = Solver(geometry(7, 6, 4), book=exact_only)
    for position in random_positions(OUTCOME_PLY, 12, seed=5):
        weak = solver.solve(position, weak=True)
        assert book.outcome(position.current, position.mask) == weak, position


def test_other_board_sizes_get_no_book(book):
    assert book.applies_to(geometry(7, 6, 4))
    assert not book.applies_to(geometry(8, 6, 4))
    assert Solver(geometry(6, 7, 4)).book is None
