"""The spots planes a network reads: both sides' winning cells, as the bitboards say."""

from __future__ import annotations

import json

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from c4tui.engine.board.position import Position
from c4tui.engine.learned.network import (
    STORED,
    encode,
    features,
    inputs,
    load,
    mirrored_rows,
)
from tests.engine.learned.nets import random_network

BOARDS = st.sampled_from([(7, 6, 4), (5, 4, 4), (5, 4, 3), (6, 5, 4), (8, 7, 5), (4, 4, 3)])


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """A position of random play on some board, stopped before anyone has won."""
    width, height, connect = draw(BOARDS)
    position = Position.start(width, height, connect)
    for choice in draw(st.lists(st.integers(0, 99), max_size=width * height)):
        moves = [c for c in position.legal_moves() if not position.is_winning_move(c)]
        if not moves:
            break
        position = position.play(moves[choice % len(moves)])
    return position


def planes_of(bits: int, width: int, height: int) -> np.ndarray:
    return np.array(
        [[bool(bits >> (c * (height + 1) + r) & 1) for r in range(height)] for c in range(width)]
    )


@settings(max_examples=300, deadline=None)
@given(positions())
def test_the_spots_planes_are_the_bitboards_winning_spots(position):
    g = position.geometry
    w, h = g.width, g.height
    rows = inputs(encode(position)[None, :], w, h, g.connect, STORED + 2)
    planes = rows.reshape(STORED + 2, w, h)
    mine, theirs = position.current, position.current ^ position.mask
    assert np.array_equal(planes[3], planes_of(g.winning_spots(mine, position.mask), w, h))
    assert np.array_equal(planes[4], planes_of(g.winning_spots(theirs, position.mask), w, h))
    assert np.array_equal(planes[:STORED].reshape(-1), encode(position))


@settings(max_examples=200, deadline=None)
@given(positions())
def test_one_positions_input_from_its_bitboards_is_the_batchs_row(position):
    """The search's input (`features`, from the bitboards) and training's (`inputs` of
    the stored planes) are one row, whatever the board and the planes read."""
    g = position.geometry
    for planes in (STORED, STORED + 2):
        batch = inputs(encode(position)[None, :], g.width, g.height, g.connect, planes)
        assert np.array_equal(features(position, planes), batch[0])


@settings(max_examples=100, deadline=None)
@given(positions())
def test_the_stored_rows_mirrored_are_the_mirror_positions_rows(position):
    g = position.geometry
    mirrored = mirrored_rows(encode(position)[None, :], g.width, g.height)
    assert np.array_equal(mirrored[0], encode(position.mirror()))


def test_a_threat_the_opponent_can_play_next_is_in_their_spots():
    position = Position.from_moves("4455664")  # the second player to move: 1 threatens 7's foot
    planes = inputs(encode(position)[None, :], 7, 6, 4, 5).reshape(5, 7, 6)
    cells = lambda plane: [(int(c), int(r)) for c, r in zip(*plane.nonzero(), strict=True)]  # noqa: E731
    assert cells(planes[4]) == [(2, 0), (6, 0)]  # columns 3 and 7, the bottom row
    assert cells(planes[3]) == [(2, 1), (6, 1)]  # and the mover's, a row above them


def test_a_network_of_format_one_reads_only_the_stored_planes(tmp_path):
    old = random_network(seed=4, planes=STORED)
    header = {"format": "c4tui-net", "version": 1, "width": 7, "height": 6, "connect": 4}
    np.savez(
        tmp_path / "old.npz",
        header=np.array(json.dumps(header | {"blocks": 1})),
        **dict(old.weights),
    )
    again = load(tmp_path / "old.npz")
    assert again.planes == STORED and again.weights["w_in"].shape == (STORED * 42, 16)
    position = Position.from_moves("4453")
    assert again.evaluate(position) == old.evaluate(position)
