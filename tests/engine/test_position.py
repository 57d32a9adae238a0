"""Position against the naive reference board, on every supported board size."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from c4tui.engine.board.geometry import geometry
from c4tui.engine.board.notation import NotationError, column_symbol, format_moves
from c4tui.engine.board.position import IllegalMoveError, Position
from tests.engine.reference_board import DIRECTIONS, ReferenceBoard

Size = tuple[int, int, int]


@st.composite
def sizes(draw: st.DrawFn) -> Size:
    width = draw(st.integers(4, 10))
    height = draw(st.integers(4, 10))
    connect = draw(st.integers(3, min(6, max(width, height))))
    return width, height, connect


@st.composite
def games(draw: st.DrawFn, board_sizes: st.SearchStrategy[Size] | None = None):
    """A board size and a legal game on it (finished or not), played on the reference."""
    size = draw(sizes() if board_sizes is None else board_sizes)
    choices = draw(st.lists(st.integers(0, 9), max_size=size[0] * size[1]))
    board = ReferenceBoard(*size)
    played = []
    for choice in choices:
        legal = board.legal_moves()
        if not legal:
            break
        col = legal[choice % len(legal)]
        board.play(col)
        played.append(col)
    return size, played, board


def position_of(size: Size, columns: list[int]) -> Position:
    pos = Position.start(*size)
    for col in columns:
        pos = pos.play(col)
    return pos


def assert_same(pos: Position, board: ReferenceBoard) -> None:
    """Every question Position answers, answered the same by the reference."""
    width, height = board.width, board.height
    assert pos.moves == board.moves
    assert pos.to_move == board.to_move()
    for col in range(width):
        assert pos.column_height(col) == len(board.columns[col])
        for row in range(height):
            assert pos.cell(col, row) == board.cell(col, row), (col, row)
    assert pos.winner() == board.winner()
    assert pos.is_draw() == (board.is_full() and board.winner() is None)
    assert pos.is_over() == board.is_over()
    assert list(pos.legal_moves()) == board.legal_moves()
    for col in range(-1, width + 1):
        assert pos.can_play(col) == (0 <= col < width and len(board.columns[col]) < height)
    assert set(pos.winning_cells()) == board.winning_cells()
    if not board.is_over():
        for col in range(width):
            assert pos.is_winning_move(col) == board.wins_with(col), col


@settings(max_examples=150, deadline=None)
@given(games())
def test_position_answers_like_the_reference(game):
    size, columns, board = game
    assert_same(position_of(size, columns), board)


@settings(max_examples=60, deadline=None)
@given(games(st.sampled_from([(4, 4, 3), (5, 4, 3), (4, 5, 4), (6, 4, 3)])))
def test_small_boards_match_after_every_move(game):
    # Small boards end often, so prefixes cover wins, full columns and draws quickly.
    size, columns, _ = game
    board = ReferenceBoard(*size)
    pos = Position.start(*size)
    for col in columns:
        board.play(col)
        pos = pos.play(col)
        assert_same(pos, board)


def random_game(size: Size, rng: random.Random) -> Position:
    pos = Position.start(*size)
    while not pos.is_over():
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos


def reference_of(pos: Position) -> ReferenceBoard:
    board = ReferenceBoard(pos.width, pos.height, pos.connect)
    for col in pos.path:
        board.play(col)
    return board


@pytest.mark.parametrize(
    "size", [(7, 6, 4), (4, 4, 3), (10, 10, 6), (7, 7, 5), (6, 10, 4), (9, 4, 3), (10, 10, 3)]
)
@pytest.mark.parametrize("direction", list(DIRECTIONS))
def test_wins_in_every_direction(size, direction):
    rng = random.Random(f"{size}{direction}")
    for _ in range(500):
        pos = random_game(size, rng)
        board = reference_of(pos)
        if any(name == direction for name, _, _ in board.lines()):
            break
    else:
        pytest.fail(f"no random game on {size} ended with a {direction} line")
    assert_same(pos, board)
    winner = board.winner()
    assert winner == (pos.moves - 1) % 2
    # The last stone was a winning move, and nothing can follow it.
    before = position_of(size, list(pos.path[:-1]))
    assert before.is_winning_move(pos.path[-1])
    assert pos.legal_moves() == ()
    with pytest.raises(IllegalMoveError, match="already over"):
        pos.play(next(c for c in range(pos.width) if pos.column_height(c) < pos.height))


@pytest.mark.parametrize("size", [(4, 4, 4), (5, 4, 4), (4, 6, 5)])
def test_draws_fill_the_board_without_a_winner(size):
    rng = random.Random(7)
    for _ in range(2000):
        pos = random_game(size, rng)
        if pos.winner() is None:
            break
    else:
        pytest.fail(f"no random draw on {size}")
    assert_same(pos, reference_of(pos))
    assert pos.is_draw() and pos.is_over()
    assert pos.moves == size[0] * size[1]
    assert pos.winning_cells() == ()
    with pytest.raises(IllegalMoveError):
        pos.play(0)


def test_a_known_draw_on_4x4():
    pos = Position.from_moves("2234114322434311", 4, 4, 4)
    assert str(pos) == "O O O X\nX X O X\nO O O X\nX X X O\n1 2 3 4"
    assert pos.is_draw() and pos.winner() is None
    assert_same(pos, reference_of(pos))


@settings(max_examples=100, deadline=None)
@given(games())
def test_mirror_reflects_every_cell(game):
    size, columns, _ = game
    pos = position_of(size, columns)
    mirrored = pos.mirror()
    width = size[0]
    assert mirrored == position_of(size, [width - 1 - c for c in columns])
    assert mirrored.mirror() == pos
    assert mirrored.moves == pos.moves
    for col in range(width):
        for row in range(size[1]):
            assert mirrored.cell(width - 1 - col, row) == pos.cell(col, row)
    assert mirrored.winner() == pos.winner()


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_keys_identify_the_stones(data):
    """Equal stones give equal keys (transpositions included); different stones never do."""
    size = data.draw(sizes())
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    grids_by_key = {}
    for _ in range(15):
        pos = Position.start(*size)
        board = ReferenceBoard(*size)
        for _ in range(rng.randrange(size[0] * size[1] + 1)):
            if pos.is_over():
                break
            col = rng.choice(pos.legal_moves())
            pos = pos.play(col)
            board.play(col)
            grid = board.grid()
            assert grids_by_key.setdefault(pos.key(), grid) == grid
    # Distinct grids got distinct keys, so the map is one-to-one both ways.
    assert len(set(grids_by_key.values())) == len(grids_by_key)


def test_transpositions_compare_equal():
    a = Position.from_moves("4453")
    b = Position.from_moves("5344")
    assert a == b and hash(a) == hash(b) and a.key() == b.key()
    assert a.to_moves() == "4453" and b.to_moves() == "5344"
    assert Position.from_moves("4453") != Position.from_moves("4435")


def test_same_stones_on_other_sizes_differ():
    assert Position.from_moves("1", 7, 6, 4) != Position.from_moves("1", 7, 6, 5)
    assert Position.from_moves("1", 7, 6, 4) != Position.from_moves("1", 8, 6, 4)


# ---- notation ---------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(games())
def test_notation_round_trip(game):
    size, columns, _ = game
    pos = position_of(size, columns)
    text = pos.to_moves()
    assert text == "".join(column_symbol(c) for c in columns)
    assert len(text) == len(columns)
    again = Position.from_moves(text, *size)
    assert again == pos
    assert again.path == tuple(columns)
    assert Position.from_moves(text.upper(), *size) == pos


def test_column_ten_is_written_a():
    pos = Position.from_moves("a1A", 10, 6, 4)
    assert pos.path == (9, 0, 9)
    assert pos.to_moves() == "a1a"
    assert format_moves([9, 8, 0]) == "a91"


def notation_error(text: str, size: Size = (7, 6, 4)) -> NotationError:
    with pytest.raises(NotationError) as caught:
        Position.from_moves(text, *size)
    return caught.value


@settings(max_examples=100, deadline=None)
@given(games(), st.sampled_from([*"0xb -.!é", "\n"]))
def test_a_character_that_is_no_column_is_named(game, bad):
    size, columns, _ = game
    prefix = format_moves(columns)
    error = notation_error(prefix + bad + "1", size)
    assert error.index == len(prefix) + 1
    assert "not a column" in error.reason
    assert f"move {len(prefix) + 1} " in str(error)


@settings(max_examples=100, deadline=None)
@given(games(sizes().filter(lambda s: s[0] < 10)), st.data())
def test_a_column_outside_the_board_is_named(game, data):
    size, columns, _ = game
    width = size[0]
    outside = data.draw(st.integers(width, 9))
    prefix = format_moves(columns)
    error = notation_error(prefix + column_symbol(outside), size)
    assert error.index == len(prefix) + 1
    assert error.reason == f"column {outside + 1} is outside the {width}-column board"


@settings(max_examples=100, deadline=None)
@given(games(), st.data())
def test_a_full_column_is_named(game, data):
    size, columns, board = game
    full = [c for c in range(size[0]) if len(board.columns[c]) == size[1]]
    if board.is_over() or not full:
        return
    col = data.draw(st.sampled_from(full))
    prefix = format_moves(columns)
    error = notation_error(prefix + column_symbol(col), size)
    assert error.index == len(prefix) + 1
    assert error.reason == f"column {col + 1} is full"


@settings(max_examples=100, deadline=None)
@given(games(st.sampled_from([(4, 4, 3), (5, 4, 3), (4, 4, 4), (7, 6, 4)])), st.data())
def test_a_move_after_the_end_is_named(game, data):
    size, columns, board = game
    if not board.is_over():
        return
    col = data.draw(st.integers(0, size[0] - 1))
    prefix = format_moves(columns)
    error = notation_error(prefix + column_symbol(col) + "1", size)
    assert error.index == len(prefix) + 1
    assert error.reason == "the game is already over"


@pytest.mark.parametrize(
    ("text", "index", "reason"),
    [
        ("x", 1, "not a column"),
        ("44x", 3, "not a column"),
        ("440", 3, "not a column"),
        ("8", 1, "column 8 is outside the 7-column board"),
        ("1111111", 7, "column 1 is full"),
        ("1212121", 7, None),  # the seventh stone wins: legal
        ("12121212", 8, "the game is already over"),
    ],
)
def test_notation_errors_on_the_default_board(text, index, reason):
    if reason is None:
        assert Position.from_moves(text).winner() == 0
        return
    error = notation_error(text)
    assert error.index == index
    assert reason in error.reason
    assert error.text == text


def test_play_rejects_what_from_moves_rejects():
    pos = Position.from_moves("111111")
    with pytest.raises(IllegalMoveError, match="column 1 is full"):
        pos.play(0)
    with pytest.raises(IllegalMoveError, match="outside"):
        pos.play(7)
    with pytest.raises(IllegalMoveError, match="outside"):
        pos.play(-1)


def test_unsupported_sizes_are_refused():
    for size in [(3, 6, 4), (11, 6, 4), (7, 3, 3), (7, 11, 4), (7, 6, 2), (7, 6, 7), (4, 4, 5)]:
        with pytest.raises(ValueError):
            geometry(*size)
