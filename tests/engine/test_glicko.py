"""Glicko-2 against Glickman's published example."""

from __future__ import annotations

import pytest

from c4tui.engine.study.glicko import Rating, update


def test_glickmans_example():
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = update(player, games)
    assert after.r == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.sigma == pytest.approx(0.05999, abs=0.00001)


def test_a_win_raises_a_loss_lowers_and_no_game_widens():
    start = Rating()
    puzzle = Rating(1500, 60)
    assert update(start, [(puzzle, 1.0)]).r > start.r
    assert update(start, [(puzzle, 0.0)]).r < start.r
    idle = update(Rating(1500, 100), [])
    assert idle.r == 1500 and idle.rd > 100
