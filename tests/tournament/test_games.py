"""Tournament games: the schedule, openings, single games, and the runner of many."""

from __future__ import annotations

import threading
from collections import Counter
from itertools import islice

import pytest

from c4tui.engine.board.position import Position
from c4tui.engine.players import specs
from c4tui.engine.players.base import BaseEngine, empty_columns
from c4tui.engine.players.contract import SearchInfo
from c4tui.tournament.games import GameAborted, GameTask, play_game
from c4tui.tournament.schedule import is_balanced, random_openings, schedule
from c4tui.tournament.workers import GameRunner
from tests.arena_support import interrupt_after


class FullColumnEngine(BaseEngine):
    """Breaks the rules: always plays column 1, full or not."""

    name = "stubborn"

    def think(self, position, limits, clock, on_info):
        return SearchInfo(self.name, columns=empty_columns(position), best=0, pv=(0,))


@pytest.fixture
def stubborn_engine(monkeypatch):
    monkeypatch.setitem(specs.ENGINES, "stubborn", (__name__, "FullColumnEngine"))


# ---- schedule -------------------------------------------------------------------------


def test_every_pair_plays_n_games_half_with_each_colour():
    tasks = list(schedule(["random", "greedy", "random:noise=0.5"], 6, seed=3))
    per_pair = Counter(tuple(sorted((t.first, t.second))) for t in tasks)
    assert per_pair == {(0, 1): 6, (0, 2): 6, (1, 2): 6}
    first_moves = Counter((t.first, t.second) for t in tasks)
    assert all(count == 3 for count in first_moves.values())
    assert [t.index for t in tasks] == list(range(18))


def test_schedule_is_a_function_of_the_seed():
    assert list(schedule(["random", "greedy"], 4, seed=5, opening_plies=2)) == list(
        schedule(["random", "greedy"], 4, seed=5, opening_plies=2)
    )
    one = list(schedule(["random", "greedy"], 4, seed=5))
    other = list(schedule(["random", "greedy"], 4, seed=6))
    assert [t.first_seed for t in one] != [t.first_seed for t in other]


def test_each_opening_is_played_with_both_colours():
    tasks = list(schedule(["random", "greedy"], 8, seed=1, opening_plies=4))
    by_opening: dict[tuple[int, ...], list[int]] = {}
    for task in tasks:
        by_opening.setdefault(task.opening, []).append(task.first)
    assert len(by_opening) == 4
    assert all(sorted(firsts) == [0, 1] for firsts in by_opening.values())


def test_a_huge_schedule_starts_at_once_and_is_made_as_it_is_read():
    tasks = schedule(["random", "greedy", "flat"], 20_000_000, seed=1, opening_plies=2)
    first = list(islice(tasks, 6))
    assert [t.index for t in first] == list(range(6))
    # Games 0 and 1 of every pair share an opening, played with both colours.
    assert len({t.opening for t in first}) == 1
    assert {(t.first, t.second) for t in first} == {(0, 1), (0, 2), (1, 2), (1, 0), (2, 0), (2, 1)}


def test_games_get_distinct_seeds():
    tasks = list(schedule(["random", "greedy"], 10, seed=1))
    seeds = [t.first_seed for t in tasks] + [t.second_seed for t in tasks]
    assert len(set(seeds)) == len(seeds)


@pytest.mark.parametrize(("engines", "games"), [(["random"], 2), (["random", "greedy"], 0)])
def test_schedule_rejects_too_little(engines, games):
    with pytest.raises(ValueError):
        schedule(engines, games, seed=1)


# ---- openings -------------------------------------------------------------------------


def test_openings_are_balanced_distinct_and_of_the_asked_length():
    openings = list(islice(random_openings(6, seed=2), 12))
    assert all(len(o) == 6 for o in openings)
    positions = [Position.start() for _ in openings]
    for i, opening in enumerate(openings):
        for col in opening:
            positions[i] = positions[i].play(col)
    assert all(is_balanced(p) for p in positions)
    keys = {min(p.key(), p.mirror().key()) for p in positions}
    assert len(keys) == 12


def test_openings_can_be_held_to_a_solved_draw():
    from c4tui.engine.solver import solve

    openings = list(islice(random_openings(8, seed=1, max_score=0), 3))
    for opening in openings:
        position = Position.start()
        for col in opening:
            position = position.play(col)
        assert solve(position) == 0


def test_one_ply_openings_repeat_the_four_that_exist():
    openings = list(islice(random_openings(1, seed=1), 10))
    assert len(openings) == 10
    # Column c and its mirror 6-c are the same opening: 4 distinct first moves.
    assert len({min(o[0], 6 - o[0]) for o in openings}) == 4


def test_balance_rejects_a_threat_and_a_finished_game():
    assert is_balanced(Position.from_moves("4455"))
    assert not is_balanced(Position.from_moves("445566"))  # three in a row, open ends
    assert not is_balanced(Position.from_moves("4545454"))  # already won


# ---- one game -------------------------------------------------------------------------


def test_a_game_is_a_function_of_its_task():
    task = next(schedule(["random", "greedy"], 1, seed=9, opening_plies=2))
    one, two = play_game(task), play_game(task)
    assert one.moves == two.moves
    assert one.moves[:2] == task.opening
    final = Position.start()
    for col in one.moves:
        final = final.play(col)
    assert final.is_over()
    assert one.to_json()["moves"] == final.to_moves()


def test_record_names_the_winner_and_counts_moves():
    task = GameTask(0, 1, 0, "greedy", "random", first_seed=1, second_seed=2)
    record = play_game(task)
    total = record.first_tally.moves + record.second_tally.moves
    assert total == len(record.moves)
    assert record.first_tally.moves - record.second_tally.moves in (0, 1)
    line = record.to_json()
    assert line["first"] == "greedy"
    assert line["result"] in ("1-0", "0-1", "1/2-1/2")
    if record.winner is not None:
        assert line["winner"] == ("greedy" if record.winner == 1 else "random")
        assert line["result"] == ("1-0" if record.first_won else "0-1")


def test_an_illegal_move_forfeits(stubborn_engine):
    # The opening fills column 1, so the stubborn engine's first move is illegal.
    task = GameTask(0, 0, 1, "stubborn", "random", opening=(0, 0, 0, 0, 0, 0))
    record = play_game(task)
    assert record.termination == "illegal move"
    assert record.winner == 1
    assert record.to_json()["result"] == "0-1"


def test_a_set_stop_event_aborts_the_game():
    stop = threading.Event()
    stop.set()
    with pytest.raises(GameAborted):
        play_game(GameTask(0, 0, 1, "random", "greedy"), stop)


# ---- running many games ---------------------------------------------------------------


def _outcomes(records):
    return sorted((r.task.index, r.moves, r.winner) for r in records)


def test_results_do_not_depend_on_the_number_of_processes():
    tasks = list(schedule(["random", "greedy"], 6, seed=4, opening_plies=2))
    alone = list(GameRunner(tasks, jobs=1))
    pooled = list(GameRunner(tasks, jobs=2))
    assert len(alone) == 6
    assert _outcomes(alone) == _outcomes(pooled)


def test_ctrl_c_keeps_the_games_already_played(monkeypatch):
    interrupt_after(monkeypatch, games=2)
    runner = GameRunner(list(schedule(["random", "greedy"], 5, seed=1)), jobs=1)
    records = list(runner)
    assert runner.interrupted
    assert [r.task.index for r in records] == [0, 1]
