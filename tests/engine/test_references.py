"""One readable reference per bitboard idea (geometry.py); the fast copies agree with it.

The ideas: winning spots, a line of `connect`, the centre-first column order, the
mirror. Their copies: the heuristic's spots (generic, written out for connect 4, and
both sides in one pass), the solver's per-cell mirror map and its column order. The
C kernels are checked against the Python search they copy in test_native.py and
test_playout.py; the references themselves against the cell-by-cell board of
tests/engine/reference_board.py in test_position.py and test_heuristic.py.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from c4tui.engine.board.geometry import centre_first, non_losing
from c4tui.engine.board.heuristic import Heuristic, heuristic_for
from c4tui.engine.board.position import Position
from c4tui.engine.solver.table import mirror_bits, mirror_stones


@st.composite
def positions(draw) -> Position:
    """A position of random play on a random board size (any size the program allows)."""
    width, height = draw(st.integers(4, 10)), draw(st.integers(4, 10))
    connect = draw(st.integers(3, min(6, max(width, height))))
    position = Position.start(width, height, connect)
    for _ in range(draw(st.integers(0, width * height))):
        if position.is_over():
            break
        position = position.play(draw(st.sampled_from(position.legal_moves())))
    return position


@settings(max_examples=150, deadline=None)
@given(positions())
def test_the_heuristic_spots_are_the_winning_spots(position):
    g = position.geometry
    heuristic = heuristic_for(g)
    empty = g.board ^ position.mask
    for stones in (position.current, position.current ^ position.mask):
        spots = g.winning_spots(stones, position.mask)
        assert heuristic.spots(stones, empty) == spots
        # The generic spots too, where connect 4 uses its written-out copy.
        assert Heuristic.spots(heuristic, stones, empty) == spots
    mine, theirs = position.current, position.current ^ position.mask
    assert heuristic.spot_pair(mine, theirs, empty) == (
        g.winning_spots(mine, position.mask),
        g.winning_spots(theirs, position.mask),
    )


@settings(max_examples=150, deadline=None)
@given(positions())
def test_a_winning_move_lands_on_a_winning_spot(position):
    g = position.geometry
    spots = g.winning_spots(position.current, position.mask)
    for col in position.legal_moves():
        lands = (position.mask + g.bottom_masks[col]) & g.column_masks[col]
        assert position.is_winning_move(col) == bool(spots & lands)


@settings(max_examples=100, deadline=None)
@given(positions())
def test_the_solver_mirrors_as_the_reference_does(position):
    g = position.geometry
    for stones in (position.current, position.mask):
        mirrored = g.mirror(stones)
        assert mirror_stones(g, stones) == mirrored
        by_cell = 0
        for bit, image in mirror_bits(g).items():
            if stones & bit:
                by_cell |= image
        assert by_cell == mirrored
        assert g.mirror(mirrored) == stones


def test_every_column_order_is_the_centre_first_reference():
    for width in range(4, 11):
        order = centre_first(width)
        assert sorted(order) == list(range(width))
        assert order[0] == (width - 1) // 2  # the centre, the left one of two


@settings(max_examples=150, deadline=None)
@given(positions())
def test_the_non_losing_moves_are_those_after_which_the_opponent_cannot_win_at_once(position):
    g = position.geometry
    if position.is_over() or any(position.is_winning_move(c) for c in position.legal_moves()):
        return  # the filter is asked only when the side to move cannot win now
    their_spots = g.winning_spots(position.opponent_stones, position.mask)
    safe = non_losing(g.playable(position.mask), their_spots)
    for col in position.legal_moves():
        after = position.play(col)
        loses_at_once = not after.is_over() and any(
            after.is_winning_move(reply) for reply in after.legal_moves()
        )
        assert bool(safe & g.column_masks[col]) == (not loses_at_once)
