"""The network file and NumPy inference: what it reads, what it answers, what it refuses."""

from __future__ import annotations

import json
import os
import zipfile

import numpy as np
import pytest

from c4tui.engine.board.position import Position
from c4tui.engine.learned.network import (
    FEW_ROWS,
    STORED,
    NetworkError,
    encode,
    load,
    save,
)
from tests.engine.learned.nets import random_network


def test_the_planes_are_the_movers_stones_the_opponents_and_the_next_cells():
    position = Position.from_moves("44")  # first player at (3,0), second at (3,1)
    planes = encode(position).reshape(STORED, 7, 6)
    # The first player is to move again: its stone is the mover's.
    assert planes[0].nonzero() == ((3,), (0,))
    assert planes[1].nonzero() == ((3,), (1,))
    assert [int(r) for r in planes[2].argmax(axis=1)] == [0, 0, 0, 2, 0, 0, 0]
    assert planes[2].sum() == 7


def test_a_saved_network_loads_with_the_same_answers(tmp_path):
    network = random_network(seed=3)
    save(tmp_path / "n.npz", network)
    again = load(tmp_path / "n.npz")
    position = Position.from_moves("4453")
    assert again.evaluate(position) == network.evaluate(position)
    assert again.about == {"made": "tests"} and again.parameters == network.parameters


def test_a_network_saved_in_half_precision_is_half_the_file_and_answers_alike(tmp_path):
    network = random_network(seed=5, hidden=64)
    save(tmp_path / "full.npz", network)
    save(tmp_path / "half.npz", network, half=True)
    half = load(tmp_path / "half.npz")
    assert all(w.dtype == np.float32 for w in half.weights.values())
    size = (tmp_path / "half.npz").stat().st_size / (tmp_path / "full.npz").stat().st_size
    assert 0.4 < size < 0.6
    for moves in ("", "4453", "1234567"):
        priors, value = half.evaluate(Position.from_moves(moves))
        full_priors, full_value = network.evaluate(Position.from_moves(moves))
        assert priors == pytest.approx(full_priors, abs=1e-2)
        assert value == pytest.approx(full_value, abs=1e-2)


def test_priors_sum_to_one_and_full_columns_get_none():
    network = random_network(seed=1)
    position = Position.from_moves("444444")  # column 4 full
    priors, value = network.evaluate(position)
    assert priors[3] == 0 and sum(priors) == pytest.approx(1, abs=1e-5)
    assert -1 <= value <= 1


def test_a_batch_answers_as_one_by_one():
    network = random_network(seed=2)
    positions = [Position.from_moves(m) for m in ("", "4", "4453", "1234567")]
    priors, values = network.evaluate_many(positions)
    for position, p, v in zip(positions, priors, values, strict=True):
        one_p, one_v = network.evaluate(position)
        assert p == pytest.approx(one_p, abs=1e-6) and v == pytest.approx(one_v, abs=1e-6)


def test_a_few_rows_answer_as_a_large_batch_does():
    """Up to FEW_ROWS rows go through the layers one at a time; the answers are the
    batch's."""
    network = random_network(seed=4, hidden=32, blocks=2)
    rows = np.random.default_rng(0).integers(0, 2, (FEW_ROWS + 4, 5 * 42)).astype(np.float32)
    logits, values = network.forward(rows)
    for n in range(1, FEW_ROWS + 1):
        few_logits, few_values = network.forward(rows[:n])
        assert few_logits == pytest.approx(logits[:n], rel=1e-5, abs=1e-5)
        assert few_values == pytest.approx(values[:n], rel=1e-5, abs=1e-5)


def test_the_own_choice_averages_the_board_and_its_mirror_image():
    network = random_network(seed=6)
    for moves in ("", "4453", "1122", "444444"):
        position = Position.from_moves(moves)
        priors, value = network.evaluate(position)
        m_priors, m_value = network.evaluate(position.mirror())
        both, both_value = network.evaluate_both_ways(position)
        mean = [(a + b) / 2 for a, b in zip(priors, reversed(m_priors), strict=True)]
        assert both == pytest.approx(mean, abs=1e-6)
        assert both_value == pytest.approx((value + m_value) / 2, abs=1e-6)
        # A position read both ways reads the same as its mirror image read both ways.
        mirrored, mirrored_value = network.evaluate_both_ways(position.mirror())
        assert mirrored == pytest.approx(both[::-1], abs=1e-6)
        assert mirrored_value == pytest.approx(both_value, abs=1e-6)


def _write(path, header, **arrays):
    np.savez(path, header=np.array(json.dumps(header)), **arrays)


def _good_arrays():
    network = random_network()
    return dict(network.weights)


GOOD_HEADER = {
    "format": "c4tui-net",
    "version": 2,
    "width": 7,
    "height": 6,
    "connect": 4,
    "blocks": 1,
    "planes": 5,
}


@pytest.mark.parametrize(
    ("header", "change", "message"),
    [
        ({"format": "other"}, {}, "not a c4tui-net file"),
        (GOOD_HEADER | {"version": 3}, {}, "format version 3; this c4tui reads 1 and 2"),
        (GOOD_HEADER | {"planes": 4}, {}, "reads 4 planes; this c4tui knows 3 and 5"),
        (GOOD_HEADER | {"version": 1}, {}, "w_in should be float (126, 16), is float32 (210, 16)"),
        (GOOD_HEADER | {"width": 99}, {}, "no board 99x6"),
        (GOOD_HEADER, {"w_a0": np.zeros((3, 3), np.float32)}, "weight w_a0 should be float"),
        (GOOD_HEADER, {"b_in": np.full(16, np.nan, np.float32)}, "weight b_in is not finite"),
        (GOOD_HEADER | {"blocks": 2}, {}, "weight w_a1 should be float (16, 16), is missing"),
    ],
)
def test_a_bad_file_is_refused_with_what_is_wrong(tmp_path, header, change, message):
    path = tmp_path / "bad.npz"
    _write(path, header, **(_good_arrays() | change))
    with pytest.raises(NetworkError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load(path)


def test_what_is_not_a_network_file_at_all_is_refused(tmp_path):
    (tmp_path / "text.npz").write_text("hello")
    with zipfile.ZipFile(tmp_path / "empty.npz", "w"):
        pass
    np.save(tmp_path / "pickled.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    np.save(tmp_path / "plain.npy", np.zeros(3))  # an array, not an archive: was a crash
    os.mkfifo(tmp_path / "fifo")  # was an open that waited forever for a writer
    for name in ("text.npz", "empty.npz", "pickled.npy", "plain.npy", "fifo", "missing.npz"):
        with pytest.raises(NetworkError, match=name):
            load(tmp_path / name)
