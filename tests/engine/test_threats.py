"""Threats and their parity against a naive board; the zugzwang against Allis's rules."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from c4tui.engine.board.position import Position
from c4tui.engine.study.threats import Threat, threats, zugzwang
from tests.engine.reference_board import DIRECTIONS, ReferenceBoard
from tests.engine.test_position import games, position_of


def naive_threats(board: ReferenceBoard) -> set[tuple[int, int, int]]:
    """(player, col, row) of every empty cell where that player's stone makes a line,
    found by counting stones outwards from the cell in each direction."""
    found = set()
    for col in range(board.width):
        for row in range(len(board.columns[col]), board.height):
            for player in (0, 1):
                for dc, dr in DIRECTIONS.values():
                    run = 1
                    for sign in (1, -1):
                        c, r = col + sign * dc, row + sign * dr
                        while 0 <= c < board.width and 0 <= r < board.height:
                            if board.cell(c, r) != player:
                                break
                            run += 1
                            c, r = c + sign * dc, r + sign * dr
                    if run >= board.connect:
                        found.add((player, col, row))
    return found


@settings(max_examples=200, deadline=None)
@given(games())
def test_threats_match_a_naive_check(game):
    size, columns, board = game
    pos = position_of(size, columns)
    assert {(t.player, t.col, t.row) for t in threats(pos)} == naive_threats(board)


def test_known_threats_and_their_parity():
    pos = Position.from_moves("445566")  # ● on row 1 of 4-6, ○ on row 2 of them
    assert threats(pos) == (
        Threat(0, 2, 0),
        Threat(1, 2, 1),
        Threat(0, 6, 0),
        Threat(1, 6, 1),
    )
    assert [t.parity for t in threats(pos)] == ["odd", "even", "odd", "even"]
    assert Threat(1, 2, 1).cell_words() == "column 3, row 2"


def test_the_empty_board_fills_to_a_draw():
    assert zugzwang(Position.start()).favours is None


def test_no_zugzwang_on_odd_heights_or_finished_games():
    assert zugzwang(Position.start(7, 7, 4)) is None
    assert zugzwang(Position.from_moves("1212121")) is None


def even_height_games():
    return games(
        st.tuples(st.integers(4, 8), st.sampled_from([4, 6, 8]), st.just(4)),
    )


@settings(max_examples=150, deadline=None)
@given(even_height_games())
def test_the_zugzwang_follows_allis_rules(game):
    """● to move: an odd threat of ● and no threat of ○ gives ● the zugzwang; an even
    threat of ○ and no threat of ● gives it ○; no threats at all fill to a draw."""
    size, columns, _ = game
    pos = position_of(size, columns)
    if pos.is_over() or pos.to_move != 0:
        return
    found = threats(pos)
    if any(pos.column_height(t.col) == t.row for t in found):
        return  # a threat playable now is tactics, not zugzwang
    mine = [t for t in found if t.player == 0]
    theirs = [t for t in found if t.player == 1]
    result = zugzwang(pos)
    if result is None:
        return
    if not found:
        assert result.favours is None
    elif not theirs and any(t.odd for t in mine):
        assert result.favours == 0
    elif not mine and any(not t.odd for t in theirs):
        assert result.favours == 1
