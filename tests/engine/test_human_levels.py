"""The human-like engine and the levels: mistakes weighted by their cost, level:N specs."""

from __future__ import annotations

from collections import Counter

import pytest

from c4tui.engine.board.position import Position
from c4tui.engine.players.levels import LEVELS
from c4tui.engine.players.specs import SpecError, make_engine, parse_spec


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
    # ● has 1, 2 and 3 on the bottom row: ○ blocks at 4, or any other column loses at once.
    position = "15253"
    for level in range(2, max(LEVELS) + 1):
        picks = choices(f"level:{level}", position, games=100)
        assert picks[3] >= 90, (level, picks)
    assert choices("level:1", position, games=100)[3] < 50  # level 1 has no guard


def test_slip_caps_the_chance_of_handing_over_a_win_whatever_the_care():
    # Six of seven columns hand over a win: uniform play would block one time in seven.
    careless = choices("human:care=100000,slip=0.1", "15253", games=400)
    assert 20 <= 400 - careless[3] <= 60  # about 10%, not 86%
    unguarded = choices("human:care=100000,slip=1", "15253", games=400)
    assert 400 - unguarded[3] > 300


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
        parse_spec(f"level:{max(LEVELS) + 1}")
    assert caught.value.key == "level" and f"1 to {max(LEVELS)}" in str(caught.value)


def test_among_losing_columns_a_level_prefers_the_slow_losses():
    # After 1. ●4 every reply loses: ○4 in 20 (the slowest), 2, 3, 5, 6 in 19, the
    # edges in 17. A person who errs here plays a natural slow loss, not at random.
    picks = choices("level:7", "4", games=300)
    assert picks[3] == max(picks.values()) and picks[3] > 100, picks
    assert picks[0] + picks[6] < 15, picks
    # A careless level stays close to uniform among them.
    loose = choices("level:1", "4", games=300)
    assert loose[0] + loose[6] > 40, loose


def test_the_loss_class_keeps_its_chance_whatever_column_loses():
    from c4tui.engine.players.human import choice_weights, exact_utility, losing_scores

    scores = [-4, -2, 0, 0, -1, -2, -6]  # two draws, five losses
    utility = {c: float(exact_utility(s)) for c, s in enumerate(scores)}
    plain = choice_weights(utility, 28, 0.02, set())
    spread = choice_weights(utility, 28, 0.02, set(), losing_scores(scores))
    losses = [c for c, s in enumerate(scores) if s < 0]
    assert sum(spread[c] for c in losses) == pytest.approx(sum(plain[c] for c in losses))
    assert spread[4] > spread[1] > spread[0] > spread[6]
