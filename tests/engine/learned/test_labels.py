"""Solver-labelled positions and the targets and mistakes read from them."""

from __future__ import annotations

import numpy as np
import pytest

from c4tui.engine.board.position import Position
from c4tui.engine.learned.labels import (
    FULL,
    HARD_FROM_PLY,
    HARD_NODES,
    HARD_PER_GAME,
    LATE_PLY,
    Batch,
    Labelled,
    batches,
    hard_positions,
    label_batch,
    label_in_parallel,
)
from c4tui.engine.learned.network import encode
from c4tui.engine.learned.targets import (
    below_best,
    best_results,
    loses_result,
    policy_targets,
    value_targets,
)
from c4tui.engine.regular_files import UnreadableFile
from c4tui.engine.solver import analyze


def test_a_batch_labels_the_empty_board_first_with_the_solvers_scores():
    data = label_batch(Batch(seed=5, games=3, kind="random"))
    assert list(data.scores[0]) == analyze(Position.start())
    assert np.array_equal(data.features[0], np.packbits(encode(Position.start())))
    assert data.moves[0] == 0 and len(data) == len(set(map(bytes, data.features)))


def test_the_same_seed_makes_the_same_data_with_any_number_of_workers():
    work = list(batches(7, 30, "guided", width=5, height=4, connect=3))
    assert [b.games for b in work] == [20, 10]
    one = label_in_parallel(work, 1)
    two = label_in_parallel(work, 2)
    for name in ("features", "scores", "moves"):
        assert np.array_equal(getattr(one, name), getattr(two, name))


def test_a_saved_file_loads_the_same(tmp_path):
    data = label_batch(Batch(seed=1, games=2, kind="guided"))
    data.save(tmp_path / "d.npz")
    again = type(data).load(tmp_path / "d.npz")
    assert np.array_equal(again.scores, data.scores)
    assert again.board_problem(7, 6) is None
    assert again.board_problem(5, 4) == "positions of a 7-column board, not 5x4"


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"moves": None}, "no moves array: not labelled positions"),
        ({"scores": np.zeros((3, 7), np.int8)}, "2 features, 3 scores and 2 moves"),
        ({"features": np.zeros((2, 16), np.float32)}, "features should be rows of bytes"),
        ({"scores": np.zeros((2, 7), np.int16)}, "scores should be rows of int8"),
        ({"scores": np.full((2, 7), FULL, np.int8)}, "a position with no column to play"),
    ],
)
def test_a_file_that_is_not_labelled_positions_says_what_is_wrong(tmp_path, change, reason):
    arrays = {
        "features": np.zeros((2, 16), np.uint8),
        "scores": np.zeros((2, 7), np.int8),
        "moves": np.zeros(2, np.int8),
    } | change
    np.savez(tmp_path / "d.npz", **{k: v for k, v in arrays.items() if v is not None})
    with pytest.raises(UnreadableFile) as caught:
        Labelled.load(tmp_path / "d.npz")
    assert caught.value.reason.startswith(reason)


# Two positions' column scores: a win (fastest at column 2) and a draw with a full column.
SCORES = np.array([[-3, 5, 2, -1, FULL], [0, -2, FULL, 0, -4]], dtype=np.int8)


def test_the_policy_target_is_half_the_result_keeping_columns_and_half_the_best():
    targets = policy_targets(SCORES)
    assert np.allclose(targets.sum(axis=1), 1)
    assert np.allclose(targets[0], [0, 0.75, 0.25, 0, 0])
    assert np.allclose(targets[1], [0.5, 0, 0, 0.5, 0])
    assert list(best_results(SCORES)) == [1, 0] and list(value_targets(SCORES)) == [1, 0]


def test_a_mistake_gives_up_the_result_or_the_best_score():
    chosen = np.array([2, 1])
    assert list(loses_result(SCORES, chosen)) == [False, True]
    assert list(below_best(SCORES, chosen)) == [True, True]
    assert list(below_best(SCORES, np.array([1, 3]))) == [False, False]


def test_late_games_label_only_their_middle_and_end_and_never_blunder_on_the_way():
    data = label_batch(Batch(seed=3, games=4, kind="late"))
    assert len(data) and min(data.moves) >= LATE_PLY
    # Moves that never lose at once make games last: most reach well past the opening.
    assert max(data.moves) >= 25


def test_a_batch_that_labels_nothing_still_joins_the_others():
    # Connect 3 on 5x4: a late game is over before the 14th stone, where labelling starts.
    board = {"width": 5, "height": 4, "connect": 3}
    empty = label_batch(Batch(seed=1, games=2, kind="late", **board))
    some = label_batch(Batch(seed=1, games=2, kind="random", **board))
    assert len(empty) == 0 and empty.features.shape == (0, some.features.shape[1])
    assert len(Labelled.join([some, empty, some])) == 2 * len(some)


def test_the_levels_play_by_their_own_rule_the_perfect_one_a_best_column():
    import random
    from collections import Counter

    from c4tui.engine.learned.labels import level_column
    from c4tui.engine.players.human import exact_weights

    # The first player, to move with three stones up column 1, wins there at once.
    position = Position.from_moves("121212")
    scores = analyze(position)
    rng = random.Random(4)
    assert {level_column(position, scores, 8, rng) for _ in range(50)} == {0}
    # Level 1 (care 400, no guard) often misses it, as often as its weights say.
    picks = Counter(level_column(position, scores, 1, rng) for _ in range(4000))
    weights = exact_weights(position, scores, 400, 1)
    share = weights[0] / sum(weights.values())
    assert 0.2 < share < 0.9 and abs(picks[0] / 4000 - share) < 0.03


def test_levels_games_run_from_the_empty_board_and_last_longer_than_random_ones():
    levels = label_batch(Batch(seed=2, games=3, kind="levels"))
    random_games = label_batch(Batch(seed=2, games=3, kind="random"))
    assert levels.moves[0] == 0 and list(levels.scores[0]) == analyze(Position.start())
    assert np.mean(levels.moves) > np.mean(random_games.moves)
    again = label_batch(Batch(seed=2, games=3, kind="levels"))
    assert np.array_equal(again.features, levels.features)


def test_a_seed_makes_the_games_it_made_before_the_levels_kind_was_added():
    import hashlib

    # The digests of these batches as the code before the `levels` kind made them: the
    # data a documented command labels must not change when a kind is added.
    made = {"random": "62039a3da0080bae", "guided": "f5a2d0729370b741", "late": "fb61624ec12519ae"}
    for kind, digest in made.items():
        data = label_batch(Batch(seed=7, games=3, kind=kind, width=5, height=4))
        got = hashlib.sha256(data.features.tobytes() + data.scores.tobytes()).hexdigest()
        assert got[:16] == digest, kind


def test_hard_positions_are_random_plays_ones_the_solver_works_for_the_same_anywhere():
    import random

    from c4tui.engine.solver.exact import Solver

    work = list(batches(3, 30, "hard"))
    one = label_in_parallel(work, 1)
    two = label_in_parallel(work, 2)
    for name in ("features", "scores", "moves"):
        assert np.array_equal(getattr(one, name), getattr(two, name))
    assert 0 < len(one) <= HARD_PER_GAME * 30 and one.moves.min() >= HARD_FROM_PLY
    assert one.moves.mean() > label_batch(Batch(seed=3, games=30, kind="random")).moves.mean()
    kept = list(hard_positions(work[0], random.Random(work[0].seed)))
    assert [np.packbits(encode(p)).tobytes() for p, _ in kept] == [
        f.tobytes() for f in one.features[: len(kept)]
    ]
    for position, scores in kept[:3]:
        assert scores == analyze(position)
        solver = Solver(position.geometry, threads=1)  # an empty table: no help from the batch's
        solver.analyze(position)
        assert solver.nodes >= HARD_NODES
