"""The gauntlet of `c4tui rate`: opponents near the estimate, early stop, judged games."""

from __future__ import annotations

from itertools import islice

import pytest

from c4tui.engine.players.levels import RATINGS
from c4tui.engine.study.accuracy import Accuracy
from c4tui.engine.study.loss_kinds import KIND_WORDS
from c4tui.tournament.games import GameTask, PlayedGame
from c4tui.tournament.gauntlet import MIN_GAMES, RATED, Gauntlet, RatedGame, play_rated
from c4tui.tournament.workers import GameRunner

SPECS = ["mine", *(f"level:{n}" for n in RATINGS)]
LADDER = {n: float(RATINGS[n]) for n in RATINGS}  # index n is level n in SPECS


def finished(task: GameTask, score: float) -> RatedGame:
    """The task's game as if played, with the rated engine scoring `score`."""
    opponent = task.second if task.first == RATED else task.first
    winner = None if score == 0.5 else RATED if score == 1 else opponent
    loss = "deeper" if score == 0 else None
    return RatedGame(PlayedGame(task, (), winner, "line"), Accuracy(), loss)


def test_pairs_of_games_share_an_opening_with_both_colours():
    gauntlet = Gauntlet(SPECS, LADDER, games=10, margin=40, seed=1)
    tasks = list(gauntlet.tasks())
    assert len(tasks) == 10
    for one, two in zip(tasks[::2], tasks[1::2], strict=True):
        assert one.opening == two.opening and len(one.opening) == 2
        assert (one.first, one.second) == (two.second, two.first)
        assert RATED in (one.first, one.second)
    assert [t.index for t in tasks] == list(range(10))


def test_the_first_opponents_are_the_middle_levels():
    gauntlet = Gauntlet(SPECS, LADDER, games=6, margin=40, seed=1)
    opponents = {t.second if t.first == RATED else t.first for t in gauntlet.tasks()}
    middle = sorted(LADDER.values())[len(LADDER) // 2]
    nearest = sorted(LADDER, key=lambda n: abs(LADDER[n] - middle))[:3]
    assert opponents == set(nearest)


def test_opponents_follow_the_estimate():
    gauntlet = Gauntlet(SPECS, LADDER, games=400, margin=1, seed=1)
    tasks = gauntlet.tasks()
    # It wins everything: the opponents climb to the top of the ladder.
    for task in islice(tasks, 40):
        gauntlet.add(finished(task, 1.0))
    assert gauntlet.fit.rating is None and gauntlet.fit.low > LADDER[7]
    nxt = next(tasks)
    assert RATED in (nxt.first, nxt.second)
    assert {nxt.first, nxt.second} - {RATED} <= {6, 7, 8}


def test_it_stops_once_the_interval_is_as_tight_as_asked():
    gauntlet = Gauntlet(SPECS, LADDER, games=1000, margin=400, seed=2)
    played = 0
    for task in gauntlet.tasks():
        gauntlet.add(finished(task, [1.0, 0.0, 0.5][played % 3]))
        played += 1
    assert gauntlet.reached_margin
    assert MIN_GAMES <= played < 1000
    assert gauntlet.fit.margin <= 400


def test_without_a_tight_interval_it_plays_the_most_games():
    gauntlet = Gauntlet(SPECS, LADDER, games=12, margin=1, seed=2)
    for played, task in enumerate(gauntlet.tasks()):
        gauntlet.add(finished(task, float(played % 2)))
    assert gauntlet.played == 12 and not gauntlet.reached_margin


def test_the_tally_counts_results_openings_and_losses():
    gauntlet = Gauntlet(SPECS, LADDER, games=4, margin=40, seed=3)
    scores = [1.0, 0.0, 0.5, 0.0]
    for task, score in zip(gauntlet.tasks(), scores, strict=True):
        gauntlet.add(finished(task, score))
    assert sum(sum(c.values()) for c in gauntlet.results.values()) == 4
    assert gauntlet.losses == {"deeper": 2}
    assert sum(played for _lost, played in gauntlet.openings.values()) == 4
    assert sum(lost for lost, _played in gauntlet.openings.values()) == 2


def test_a_gauntlet_needs_rated_opponents():
    with pytest.raises(ValueError, match="rated opponents"):
        Gauntlet(["mine"], {}, games=4, margin=40, seed=1)


def test_a_played_game_is_judged_move_by_move():
    # random against level 4: random loses, and makes mistakes the solver sees
    task = GameTask(0, RATED, 4, "random", "level:4", opening=(3, 3), first_seed=1, second_seed=2)
    game = play_rated(task)
    rated_moves = len(range(2, len(game.record.moves), 2))  # its moves after the opening
    assert game.colour == 0 and game.opponent == 4
    assert game.accuracy.moves == rated_moves
    assert game.accuracy.kept + game.accuracy.errors == rated_moves
    assert game.score == 0.0
    assert game.loss in KIND_WORDS


def test_the_runner_plays_rated_games_in_worker_processes():
    gauntlet = Gauntlet(["random", *SPECS[1:]], LADDER, games=4, margin=40, seed=5)
    with GameRunner(gauntlet.tasks(), jobs=2, play=play_rated) as runner:
        for game in runner:
            assert isinstance(game, RatedGame)
            gauntlet.add(game)
    assert gauntlet.played == 4
    assert gauntlet.accuracy.moves > 0
