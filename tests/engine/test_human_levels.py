"""The human-like engine and the levels: mistakes weighted by their cost, level:N specs."""

from __future__ import annotations

from collections import Counter

import pytest

from c4tui.engine.levels import LEVELS
from c4tui.engine.position import Position
from c4tui.engine.specs import SpecError, make_engine, parse_spec


def choices(spec: str, moves: str, games: int = 200) -> Counter:
    position = Position.from_moves(moves)
    return Counter(make_engine(spec, seed=seed).search(position).move for seed in range(games))


def test_more_care_means_fewer_and_smaller_mistakes():
    # After 4453 every column loses; 3, 6 and 7 lose slowest (loss in 18): the best.
    careful, careless = choices("human:care=0.2", "4453"), choices("human:care=200", "4453")
    best = {2, 5, 6}
    assert sum(careful[c] for c in best) == 200
    assert 0 < sum(careless[c] for c in best) < 200


def test_handing_over_a_win_in_one_is_rare_above_level_one():
    # ● has 1, 2 and 3 on the bottom row: ○ blocks at 4 or loses at once.
    position = "15253"
    for level in range(2, 9):
        picks = choices(f"level:{level}", position, games=100)
        assert picks[3] >= 95, (level, picks)


def test_the_info_says_when_the_move_is_a_chosen_mistake():
    position = Position.from_moves("4453")
    for seed in range(40):
        result = make_engine("human:care=200", seed=seed).search(position)
        info = result.info
        assert info.best == result.move and info.exact
        scores = [s.score for s in info.columns if s is not None]
        assert info.handicap == (info.columns[result.move].score < max(scores))


def test_level_specs_expand_and_bad_levels_are_named():
    assert str(parse_spec("level:4")) == str(parse_spec(LEVELS[4]))
    assert make_engine("level:4").spec == "level:4"
    with pytest.raises(SpecError) as caught:
        parse_spec("level:10")
    assert caught.value.key == "level" and "1 to 9" in str(caught.value)
