"""Round-robin tallies: pair results told from the winner's side, standings, Elo."""

from __future__ import annotations

import pytest

from c4tui.tournament.schedule import schedule
from c4tui.tournament.standings import Crosstable, elo_estimate, elo_of_score
from c4tui.tournament.workers import GameRunner


def test_tally_counts_wins_draws_and_first_mover_wins():
    tasks = schedule(["random", "greedy"], 10, seed=2)
    tally = Crosstable(["random", "greedy"])
    records = list(GameRunner(tasks, jobs=1))
    for record in records:
        tally.add(record)
    data = tally.to_json()
    (pair,) = data["results"]
    assert pair["games"] == 10 == pair["a_wins"] + pair["b_wins"] + pair["draws"]
    assert pair["a"] == "greedy"  # the side that scored more comes first
    assert pair["a_wins"] == sum(r.winner == 1 for r in records)
    assert pair["first_mover_wins"] == sum(r.first_won for r in records)
    top = data["standings"][0]
    assert top["engine"] == "greedy" and top["rank"] == 1
    assert top["moves"] == sum(
        r.first_tally.moves if r.task.first == 1 else r.second_tally.moves for r in records
    )
    assert top["depth"] == 1.0  # greedy reports depth 1
    assert data["standings"][1]["depth"] is None  # random reports none


def test_duplicate_specs_stay_apart():
    tally = Crosstable(["greedy", "greedy"])
    for record in GameRunner(schedule(["greedy", "greedy"], 4, seed=1), jobs=1):
        tally.add(record)
    data = tally.to_json()
    assert sorted(row["games"] for row in data["standings"]) == [4, 4]


def test_elo_of_even_and_lopsided_scores():
    assert elo_of_score(0.5) == 0
    assert elo_of_score(0.75) == pytest.approx(190.8, abs=0.1)
    assert elo_of_score(0.25) == pytest.approx(-190.8, abs=0.1)
    assert elo_of_score(1.0) is None


def test_elo_interval_contains_the_estimate_and_narrows_with_games():
    few = elo_estimate(6, 2, 2)
    many = elo_estimate(60, 20, 20)
    assert few.rating == pytest.approx(many.rating)
    assert few.low < few.rating < few.high
    assert many.margin < few.margin


def test_elo_of_a_sweep_is_a_lower_bound():
    sweep = elo_estimate(20, 0, 0)
    assert sweep.rating is None and sweep.high is None
    # 0.025 ** (1/20) = 0.832: a sweep of 20 rules out scores below about 83%.
    assert sweep.low == pytest.approx(elo_of_score(0.025 ** (1 / 20)))
    lost = elo_estimate(0, 0, 20)
    assert lost.high == pytest.approx(-sweep.low)


def test_a_games_result_is_read_from_each_engines_side():
    from c4tui.tournament.standings import PairResult, Standing, result_for

    assert [result_for(1, winner) for winner in (1, 0, None)] == [1, -1, 0]
    pair, standing = PairResult(0, 2), Standing(2)
    for winner in (0, 2, None, 2):
        pair.count(winner)
        standing.count(winner)
    assert (pair.a_wins, pair.draws, pair.b_wins) == (1, 1, 2)
    assert (standing.wins, standing.draws, standing.losses) == (2, 1, 1)
    assert type(pair.a_wins) is int and type(standing.losses) is int
