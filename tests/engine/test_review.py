"""The post-game review against brute force, against the plain solver, and its verdict rules."""

from __future__ import annotations

import random
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from c4tui.engine.board.geometry import geometry
from c4tui.engine.board.position import Position
from c4tui.engine.solver import SearchStopped, Solver
from c4tui.engine.study.review import (
    MoveReview,
    review_game,
    tally,
    turning_point,
    verdict_of,
)
from tests.engine.brute_force import brute_force_columns

SMALL_TABLE = 100_003


def random_game(rng: random.Random, w: int = 7, h: int = 6, n: int = 4) -> Position:
    position = Position.start(w, h, n)
    while not position.is_over():
        position = position.play(rng.choice(position.legal_moves()))
    return position


# ---- verdict rules ----------------------------------------------------------------

column_scores = st.lists(
    st.one_of(st.none(), st.integers(-18, 18)), min_size=4, max_size=10
).filter(lambda scores: any(s is not None for s in scores))


def sign(score: int) -> int:
    return (score > 0) - (score < 0)


@given(column_scores, st.data())
def test_verdicts_follow_the_result_classes(scores, data):
    playable = [col for col, s in enumerate(scores) if s is not None]
    column = data.draw(st.sampled_from(playable))
    best = max(scores[col] for col in playable)
    played = scores[column]
    verdict = verdict_of(scores, column)
    if played == best:
        assert verdict == "best"
    elif sign(played) == sign(best):
        assert verdict == "ok"
    elif sign(best) - sign(played) == 1:
        assert verdict == "mistake"
    else:
        assert (sign(best), sign(played)) == (1, -1)
        assert verdict == "blunder"


def test_verdict_examples_of_the_issue():
    scores = [-2, 1, -4, 3, None, 0, -1]
    assert verdict_of(scores, 3) == "best"
    assert verdict_of(scores, 1) == "ok"  # a slower win is still a win
    assert verdict_of(scores, 5) == "mistake"  # win to draw
    assert verdict_of(scores, 2) == "blunder"  # win to loss
    assert verdict_of([0, -3, None, 0], 1) == "mistake"  # draw to loss
    assert verdict_of([-2, -5, -9, -3], 2) == "ok"  # lost anyway


def test_a_full_column_has_no_verdict():
    with pytest.raises(ValueError, match="column 2 is full"):
        verdict_of([1, None, 0], 1)


# ---- whole games ------------------------------------------------------------------


@pytest.mark.parametrize(("w", "h", "n", "games"), [(4, 4, 3, 6), (4, 4, 4, 4), (4, 5, 3, 3)])
def test_every_move_of_small_games_matches_brute_force(w, h, n, games):
    rng = random.Random(f"review {w}x{h}c{n}")
    solver = Solver(geometry(w, h, n), table_size=SMALL_TABLE)
    memo: dict = {}
    for _ in range(games):
        game = random_game(rng, w, h, n)
        reviews = review_game(game, solver=solver)
        assert [r.column for r in reviews] == list(game.path)
        position = Position.start(w, h, n)
        for review, column in zip(reviews, game.path, strict=True):
            expected = brute_force_columns(position, memo)
            assert list(review.scores) == expected, position.to_moves()
            assert review.ply == position.moves + 1
            assert review.player == position.to_move + 1
            assert review.verdict == verdict_of(expected, column)
            position = position.play(column)


def test_a_7x6_review_agrees_with_positions_solved_one_by_one_from_a_fresh_table():
    rng = random.Random("review 7x6")
    game = random_game(rng)
    reviewed: list[MoveReview] = []
    reviews = review_game(game, solver=Solver(geometry(7, 6, 4)), on_move=reviewed.append)
    # on_move reports each move as it is done, from the last to the first.
    assert [r.ply for r in reviewed] == list(range(len(game.path), 0, -1))
    position = Position.start()
    for review, column in zip(reviews, game.path, strict=True):
        fresh = Solver(geometry(7, 6, 4), table_size=SMALL_TABLE)
        expected = [None if b is None else b.low for b in fresh.analyze(position)]
        assert list(review.scores) == expected, position.to_moves()
        position = position.play(column)


def test_the_last_move_of_a_won_game_is_the_immediate_win():
    game = Position.from_moves("4455667")
    last = review_game(game)[-1]
    assert (last.ply, last.player, last.column) == (7, 1, 6)
    assert last.verdict == "best"
    assert last.score == (42 + 1 - 6) // 2
    assert last.first_player_score == last.score


def fake(ply: int, verdict: str) -> MoveReview:
    return MoveReview(ply, 2 - ply % 2, 0, (0,), (0,), verdict)  # type: ignore[arg-type]


def test_the_game_turns_at_the_last_mistake_or_blunder():
    verdicts = ["best", "mistake", "ok", "blunder", "ok", "best"]
    reviews = [fake(ply, v) for ply, v in enumerate(verdicts, start=1)]
    assert turning_point(reviews).ply == 4
    assert turning_point([fake(1, "best"), fake(2, "ok")]) is None
    assert tally(reviews, 1) == {"best": 1, "ok": 2, "mistake": 0, "blunder": 0}
    assert tally(reviews, 2) == {"best": 1, "ok": 0, "mistake": 1, "blunder": 1}


def test_a_set_stop_event_ends_the_review():
    stop = threading.Event()
    stop.set()
    with pytest.raises(SearchStopped):
        review_game(random_game(random.Random(5)), solver=Solver(geometry(7, 6, 4)), stop=stop)


def test_positions_not_solved_in_time_are_given_up_and_so_are_the_earlier_ones():
    game = Position.from_moves("45544", 8, 7, 4)
    searched = []
    given_up = []
    solver = Solver(game.geometry)
    real_analyze = solver.analyze

    def counted(position, **options):
        searched.append(position.moves + 1)
        return real_analyze(position, **options)

    solver.analyze = counted
    reviews = review_game(game, solver=solver, seconds=0.001, on_gave_up=given_up.append)
    assert reviews == []
    assert given_up == [5, 4, 3, 2, 1]
    assert searched == [5, 4]  # two in a row given up: the earlier ones are not searched


def test_with_time_enough_the_review_is_the_same():
    game = Position.from_moves("4455667")
    assert review_game(game, seconds=60) == review_game(game)
