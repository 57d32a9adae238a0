"""Puzzle ratings from the levels' chances, and themes."""

from __future__ import annotations

from c4tui.engine.board.position import Position
from c4tui.engine.players.levels import RATINGS
from c4tui.engine.study.puzzle_ratings import (
    HIGHEST,
    LOWEST,
    level_chance,
    puzzle_rating,
    puzzle_theme,
    rating_from_chances,
)


def test_the_rating_meets_the_levels_where_their_chances_say():
    assert rating_from_chances(dict.fromkeys(RATINGS, 1.0)) == LOWEST
    assert rating_from_chances(dict.fromkeys(RATINGS, 0.0)) == HIGHEST
    even = rating_from_chances({4: 0.5})
    assert abs(even - RATINGS[4]) <= 1  # a 50% chance: the level's own rating
    assert rating_from_chances({4: 0.3}) > rating_from_chances({4: 0.7})


def test_a_win_in_one_is_easy_and_its_theme_is_win():
    position = Position.from_moves("121212")  # ● wins in column 1
    scores = (18, -18, -18, -18, -18, -18, -18)
    assert level_chance(8, position, scores) == 1.0
    assert level_chance(3, position, scores) > 0.75
    assert puzzle_theme(position, scores) == "win"
    assert puzzle_rating(position, scores) < 1350


def test_blocking_is_defend_and_a_lone_draw_is_draw():
    position = Position.from_moves("12121")  # ○ must block column 1
    scores = (0, -18, -18, -18, -18, -18, -18)
    assert puzzle_theme(position, scores) == "defend"
    quiet = Position.from_moves("44")
    assert puzzle_theme(quiet, (-1, -1, -1, 0, -1, -1, -1)) == "draw"
