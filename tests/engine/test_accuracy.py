"""Accuracy against perfect play: the tally, one side's judged moves, the fixed positions,
and the kind of a losing move."""

from __future__ import annotations

from typing import get_args

import pytest

from c4tui.engine.board.position import Position
from c4tui.engine.players.base import BaseEngine, empty_columns
from c4tui.engine.players.contract import SearchInfo
from c4tui.engine.players.specs import make_engine
from c4tui.engine.study import fixed_positions
from c4tui.engine.study.accuracy import Accuracy, judge_side, losing_move, tally_of
from c4tui.engine.study.explain import Kind
from c4tui.engine.study.loss_kinds import KIND_WORDS, loss_kind
from c4tui.engine.study.review import review_game, review_move


def reviewed(scores, column):
    return review_move(Position.start(), column, scores)


def test_the_tally_counts_kept_results_and_the_cost_of_errors():
    reviews = [
        reviewed([1, 5, 1, 1, 1, 1, 1], 1),  # best
        reviewed([1, 5, 1, 1, 1, 1, 1], 0),  # ok: still a win
        reviewed([0, 5, 0, 0, 0, 0, 0], 0),  # mistake: win to draw, 5 points
        reviewed([-3, 5, 0, 0, 0, 0, 0], 0),  # blunder: win to loss, 8 points
    ]
    accuracy = tally_of(reviews)
    assert (accuracy.moves, accuracy.best, accuracy.kept) == (4, 1, 2)
    assert (accuracy.mistakes, accuracy.blunders, accuracy.errors) == (1, 1, 2)
    assert accuracy.kept_share == 0.5 and accuracy.best_share == 0.25
    assert accuracy.classes_per_error == 1.5  # (1 + 2) / 2
    assert accuracy.score_per_error == 6.5  # (5 + 8) / 2
    twice = Accuracy()
    twice.merge(accuracy)
    twice.merge(accuracy)
    assert twice.moves == 8 and twice.score_loss == 26
    assert twice.to_json()["kept_share"] == 0.5


def test_an_empty_tally_has_no_shares():
    assert Accuracy().kept_share is None and Accuracy().classes_per_error is None


def test_one_side_is_judged_after_the_opening():
    game = Position.from_moves("4444332")
    reviews = judge_side(game, side=0, from_ply=2)
    assert [r.ply for r in reviews] == [3, 5, 7]
    assert all(r.player == 1 for r in reviews)


@pytest.mark.parametrize("side", [0, 1])
def test_one_side_is_judged_as_the_whole_game_review_judges_it(side):
    # A game with mistakes on both sides: the side's verdicts and scores are the ones the
    # review of the whole game gives its moves.
    game = Position.from_moves("4411235567")
    whole = [r for r in review_game(game) if r.player == side + 1 and r.ply > 2]
    assert judge_side(game, side=side, from_ply=2) == whole
    assert {r.verdict for r in whole} - {"best", "ok"}


def test_the_losing_move_is_the_last_that_lost_a_class():
    reviews = [
        reviewed([0, 5, 0, 0, 0, 0, 0], 0),
        reviewed([1, 1, 1, 1, 1, 1, 1], 0),
        reviewed([-2, 0, 0, 0, 0, 0, 0], 0),
        reviewed([-2, -2, -2, -2, -2, -2, -2], 3),
    ]
    assert losing_move(reviews) is reviews[2]
    assert losing_move(reviews[3:]) is None


def test_leaving_a_win_in_one_open_is_named():
    # ● has three in a row on the bottom, open at both ends: ○ blocks one end or the other
    # and still loses, but a stone elsewhere leaves the win in one open.
    assert loss_kind(Position.from_moves("44556"), 0) == "open"
    assert set(KIND_WORDS) >= {*get_args(Kind), "deeper", "start"}


def test_the_fixed_positions_are_still_what_their_recipe_makes():
    assert fixed_positions.make_positions() == fixed_positions.POSITIONS
    assert len(set(fixed_positions.POSITIONS)) == 40


def test_the_perfect_player_keeps_every_result_on_the_fixed_positions():
    accuracy, failures = fixed_positions.measure(make_engine("perfect"))
    assert failures == []
    assert accuracy.moves == 40 == accuracy.best == accuracy.kept


class BrokenEngine(BaseEngine):
    """Raises after an odd number of moves; otherwise plays a full column, or (with
    none full) one off the board."""

    name = "broken"

    def think(self, position, limits, clock, on_info):
        if position.moves % 2:
            raise RuntimeError("segfault, as it were")
        full = next((c for c in range(7) if not position.can_play(c)), 7)
        return SearchInfo(self.name, columns=empty_columns(position), best=full, pv=(full,))


def test_an_engine_that_fails_on_a_position_is_a_figure_not_a_crash():
    positions = ("355671", "5554755", "444444")  # off the board, raises, full column 4
    accuracy, failures = fixed_positions.measure(BrokenEngine(), positions)
    assert len(failures) == 3
    assert "segfault" in failures[1]
    assert accuracy.moves == 0


@pytest.mark.parametrize("moves", fixed_positions.POSITIONS[:5])
def test_every_fixed_position_asks_for_judgement(moves):
    assert fixed_positions.asks_for_judgement(Position.from_moves(moves))
