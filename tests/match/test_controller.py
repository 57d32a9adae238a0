"""The match controller without any UI: turns, undo by turns, stale results, kept games."""

from __future__ import annotations

import random

import pytest

from c4tui.app.status_words import outcome_text, status_text
from c4tui.engine.board.game import Game
from c4tui.engine.board.gamefile import Ending
from c4tui.engine.board.position import Position
from c4tui.match.controller import Match
from c4tui.match.interface import GameOver
from c4tui.match.keeping import GameKeeper
from c4tui.match.opponents import Judge
from c4tui.match.sides import Sides
from c4tui.records.kept_games import GameLibrary
from tests.match.playing import Heard, attached, dropped


def against_greedy(tmp_path=None, **options) -> Match:
    keeper = GameKeeper(GameLibrary(tmp_path)) if tmp_path is not None else None
    return Match(Sides(None, "greedy"), seed=1, keeper=keeper, **options)


def test_a_person_moves_then_the_engine_replies():
    match = against_greedy()
    runner = attached(match)
    assert runner.searches == []  # the person (●) moves first
    assert dropped(match, 3)
    assert runner.run_search(match)
    assert len(match.game.moves) == 2 and runner.searches == []


def test_refused_moves_say_why():
    match = against_greedy()
    heard = Heard(match)
    assert not dropped(match, 9)
    match.drop(3)
    assert not dropped(match, 2)  # the engine's turn
    assert heard.texts() == [
        "There is no column 10: the board has 7.",
        "Wait for the AI's move, or press {move_now} to make it move now.",
    ]
    full = Match(Sides(None, None), Game.from_moves("444444"))
    heard = Heard(full)
    assert not dropped(full, 3)
    assert heard.notices[0].bell


@pytest.mark.parametrize("change", ["undo", "new_game", "set_sides", "stop", "cancel_search"])
def test_a_result_after_a_change_of_the_game_is_never_played(change):
    match = against_greedy()
    runner = attached(match)
    match.drop(3)
    request = runner.searches.pop()
    result = request.engine.search(request.position)
    if change == "set_sides":
        match.set_sides(Sides(None, "random"))
    else:
        getattr(match, change)()
    assert request.stop.is_set()
    before = match.game.moves
    assert not match.finish_search(request.search_id, result)
    assert match.game.moves == before


def test_random_interleavings_only_ever_play_fresh_results():
    rng = random.Random(5)
    match = Match(Sides(None, "random"), seed=2)
    runner = attached(match)
    pending = []
    for _ in range(400):
        action = rng.choice(["move", "search", "deliver", "undo", "redo", "new", "m"])
        if action == "move":
            match.drop(rng.randrange(7))
        elif action == "m":
            match.move_now()
        elif action == "search" and runner.searches:
            request = runner.searches.pop(0)
            pending.append((request, request.engine.search(request.position)))
        elif action == "deliver" and pending:
            request, result = pending.pop(rng.randrange(len(pending)))
            before = match.position
            if match.finish_search(request.search_id, result):
                assert request.position == before and not request.stop.is_set()
                assert match.position == before.play(result.move)
        elif action == "undo":
            match.undo()
        elif action == "redo":
            match.redo()
        elif action == "new":
            match.new_game()
        Position.from_moves(match.position.to_moves())  # always a legal game


def test_undo_goes_back_to_the_persons_turn_and_redo_forward():
    match = Match(Sides(None, "greedy"), Game.from_moves("4455"))
    assert match.undo()
    assert match.game.moves == (3, 3)
    assert not match.paused  # the person's turn
    assert match.redo()
    assert match.game.moves == (3, 3, 4, 4)
    watching = Match(Sides("greedy", "random"), Game.from_moves("4455"))
    watching.undo()
    assert watching.game.moves == (3, 3, 4)  # two engines: one move at a time


def test_redo_of_only_the_persons_move_lets_the_engine_answer():
    # The person moved, then undid it before the engine answered: redo gives the
    # engine its turn back, and it plays (it does not wait for m).
    match = Match(Sides(None, "greedy"), Game.from_moves("44"))
    runner = attached(match)
    match.drop(2)
    assert match.undo() and match.game.moves == (3, 3)
    runner.searches.clear()
    assert match.redo() and match.game.moves == (3, 3, 2)
    assert not match.paused and len(runner.searches) == 1
    watching = Match(Sides("greedy", "random"), Game.from_moves("4455"))
    watching.undo()
    watching.redo()
    assert watching.paused  # two engines are stepped through a move at a time


def test_m_with_two_people_asks_the_hint_engine():
    match = Match(Sides(None, None), Game.from_moves("4455"))
    runner = attached(match)
    match.move_now()
    (request,) = runner.searches
    assert request.engine.spec.startswith("perfect")


def test_a_failing_engine_pauses_the_match():
    match = Match(Sides("greedy", None))
    heard = Heard(match)
    runner = attached(match)
    request = runner.searches.pop()
    assert match.search_failed(request.search_id, "RuntimeError: boom")
    assert match.paused and not match.thinking
    match.move_now()  # "press m to retry"
    assert not match.paused and len(runner.searches) == 1
    assert "The AI failed" in heard.texts()[0]


def test_every_move_is_kept_and_a_new_match_finds_it(tmp_path):
    match = against_greedy(tmp_path)
    runner = attached(match)
    match.drop(3)
    runner.run_search(match)
    match.stop()  # another c4tui may take the game now
    kept = GameLibrary(tmp_path).current()
    assert kept is not None and kept.name == match.name
    assert kept.record.moves == match.position.to_moves()
    assert kept.record.players == ("You", "greedy")
    again = Match(Sides(None, None))
    again.open(kept.record, kept.name)
    assert again.position == match.position
    assert again.sides == Sides(None, "greedy")


def test_a_new_game_keeps_the_previous_one(tmp_path):
    match = against_greedy(tmp_path)
    match.drop(3)
    first = match.name
    match.new_game()
    match.drop(2)
    names = GameLibrary(tmp_path).names()
    assert first in names and match.name in names and len(names) == 2


def test_the_oldest_games_go_first(tmp_path):
    library = GameLibrary(tmp_path, keep=3)
    match = Match(Sides(None, None), keeper=GameKeeper(library))
    names = []
    for _ in range(5):
        match.new_game()
        match.drop(0)
        names.append(match.name)
    assert library.names() == sorted(names[-3:], reverse=True)


def test_names_made_one_after_another_sort_in_that_order():
    # Within one second too, and across a counter's digit boundary (9 -> 10).
    made = [GameLibrary.new_name() for _ in range(25)]
    assert sorted(made) == made


def test_a_disk_that_refuses_the_game_is_a_notice_not_a_crash(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    match = Match(Sides(None, None), keeper=GameKeeper(GameLibrary(blocked)))
    heard = Heard(match)
    assert dropped(match, 3)
    assert "Could not keep the game" in heard.texts()[0]


def watching(**options) -> Match:
    return Match(Sides("greedy", "random"), seed=1, **options)


def test_two_engines_pause_step_and_go_on():
    match = watching()
    runner = attached(match)
    request = runner.searches.pop()
    assert match.watching.toggle_pause()
    assert request.stop.is_set() and not match.thinking  # the running search was stopped
    result = request.engine.search(request.position)
    assert not match.finish_search(request.search_id, result)  # its move is not played
    assert match.game.moves == () and runner.searches == []
    assert "Paused" in status_text(match.view())
    match.step()
    assert runner.run_search(match)
    assert len(match.game.moves) == 1
    assert match.paused and runner.searches == []  # one step: one move
    assert not match.watching.toggle_pause()
    assert len(runner.searches) == 1


def test_a_step_while_an_engine_thinks_hurries_it_and_pauses_after_its_move():
    match = watching()
    runner = attached(match)
    request = runner.searches[0]
    match.step()  # the running search's move is the step
    assert request.stop.is_set() and match.thinking  # hurried, not cancelled
    assert runner.run_search(match)
    assert runner.searches == []


def test_pause_and_step_are_only_for_two_engines():
    match = against_greedy()
    heard = Heard(match)
    runner = attached(match)
    assert not match.watching.toggle_pause()
    match.step()
    notices = heard.texts()
    assert len(notices) == 2 and all("two engines" in text for text in notices)
    assert runner.searches == []
    finished = Match(Sides("greedy", "random"), Game.from_moves("1212121"))
    runner = attached(finished)
    finished.step()
    assert runner.searches == []


def test_the_speed_moves_between_the_delays_and_stops_at_the_ends():
    match = watching()
    heard = Heard(match)
    start = match.delay
    assert match.watching.change_speed(1) > start
    assert match.watching.change_speed(-1) == start
    assert match.watching.change_speed(-10) == 0.0
    assert match.watching.change_speed(-1) == 0.0
    assert match.watching.change_speed(10) == max(match.watching.change_speed(1), start)
    assert heard.texts()[-1].endswith("s between moves.")


def test_a_finished_game_counts_once_in_the_running_score(tmp_path):
    match = Match(
        Sides(None, "greedy"), Game.from_moves("434343"), keeper=GameKeeper(GameLibrary(tmp_path))
    )
    assert dropped(match, 3)  # ● completes four in column 4
    assert match.running_score() == "you 1-0-0 against greedy (won-drawn-lost)"
    match.undo()
    match.drop(3)  # the same game finished again: not counted twice
    assert match.running_score() == "you 1-0-0 against greedy (won-drawn-lost)"
    match.new_game()
    again = Match(Sides(None, "greedy"), keeper=GameKeeper(GameLibrary(tmp_path)))
    assert again.running_score() == "you 1-0-0 against greedy (won-drawn-lost)"
    assert Match(
        Sides(None, "random"), keeper=GameKeeper(GameLibrary(tmp_path))
    ).running_score() == ("you 0-0-0 against random (won-drawn-lost)")


def test_a_damaged_score_file_starts_afresh(tmp_path):
    (tmp_path / "scores.json").write_text("{not json")
    match = Match(
        Sides(None, "greedy"), Game.from_moves("434343"), keeper=GameKeeper(GameLibrary(tmp_path))
    )
    match.drop(3)
    assert match.running_score().startswith("you 1-0-0")


def test_the_evaluation_line_is_one_engines_view():
    match = Match(Sides("mcts:iterations=200", "negamax:depth=2"), seed=1)
    runner = attached(match)
    for _ in range(6):
        assert runner.run_search(match)
    values, whose = match.evaluation_line()
    assert whose == Judge("MCTS")  # the first engine to judge its move speaks for the game
    path = match.position.path
    assert values == [match.game.find(path[: ply + 1]).evaluation.value for ply in (0, 2, 4)]
    same = Match(Sides("greedy", "greedy"), Game.from_moves("4444"))
    assert same.evaluation_line() == ([], None)


def test_undo_then_redo_keeps_every_evaluation():
    match = Match(Sides(None, "mcts:iterations=300"), seed=1)
    runner = attached(match)
    for col in (3, 2, 4):
        match.drop(col)
        runner.run_search(match)
    before = match.evaluation_line()
    assert len(before[0]) == 3
    match.undo()
    match.undo()
    assert len(match.evaluation_line()[0]) == 1
    match.redo()
    match.redo()
    assert match.evaluation_line() == before
    match.undo()
    match.drop(0)  # a different move: a variation, without the other line's values
    assert len(match.evaluation_line()[0]) == 2
    match.jump(match.game.main_line()[-1].position.path)
    assert match.evaluation_line() == before  # the main line keeps its own


def test_a_move_from_a_jumped_to_position_starts_a_variation(tmp_path):
    match = Match(Sides(None, "greedy"), keeper=GameKeeper(GameLibrary(tmp_path)), seed=1)
    runner = attached(match)
    for col in (3, 2, 4):
        match.drop(col)
        runner.run_search(match)
    main = match.position.path
    assert match.jump(main[:2])  # the person to move
    assert not match.paused
    match.drop(6)
    assert match.game.has_variations()
    assert match.jump(main[:3])  # the engine to move: it waits for m
    assert match.paused
    match.stop()  # another c4tui may take the game now
    kept = GameLibrary(tmp_path).current()
    assert kept is not None and kept.record.variations
    assert kept.record.game().position.path == main[:3]
    assert match.promote() is False  # on the main line already
    match.jump((*main[:2], 6))
    assert match.promote()
    assert match.game.main_line()[2].column == 6
    assert not match.delete_variation()  # the board is on the main line now
    match.jump(main)
    assert match.delete_variation()
    assert match.position.path == main[:2]
    assert not match.game.has_variations()


def test_the_match_is_what_each_of_its_parts_asks_of_it():
    from c4tui.match import navigation, part, turns, watching

    match = Match(Sides("greedy", "random"))
    for owner in (part.Owner, part.EnginesOwner, turns.Owner, watching.Owner, navigation.Owner):
        asked = {
            name
            for cls in owner.__mro__
            if cls.__module__.startswith("c4tui.match")
            for name in (*vars(cls).get("__annotations__", {}), *vars(cls))
            if not name.startswith("_")
        }
        assert {"position", "sides", "notify"} <= asked
        missing = [name for name in asked if not hasattr(match, name)]
        assert not missing, f"{owner.__module__}.{owner.__name__}: {missing}"


def test_an_outside_engine_that_forfeits_loses_the_game_with_the_reason():
    match = Match(Sides("greedy", None))
    heard = Heard(match)
    ended: list[GameOver] = []
    match.listen(lambda event: isinstance(event, GameOver) and ended.append(event))
    runner = attached(match)
    request = runner.searches.pop()
    reason = "crashed (exit status 1: ValueError: bad)"
    assert match.search_failed(request.search_id, reason, forfeit=True)
    assert match.over and not match.thinking
    assert ended == [GameOver(1, "forfeit")]
    assert heard.texts()[0] == f"Greedy loses: it {reason}."
    assert outcome_text(match.view()) == f"Greedy ● lost: it {reason}: you win."
    assert match.record().ended == Ending("forfeit", 1)
    match.move_now()  # the game is over: nobody plays on
    assert runner.searches == []


@pytest.mark.parametrize(
    ("how", "words"),
    [("resigned", "resigned"), ("time", "lost on time"), ("abandoned", "left the game")],
)
def test_an_opened_game_ended_off_the_board_names_its_players_and_how_it_ended(how, words):
    """A served game between ann and bob, loaded: their names, who lost and how, and the
    same ending when it is kept again (it read "Player 1/Player 2" and lost the how)."""
    from c4tui.engine.board.gamefile import GameRecord

    record = GameRecord.of(Position.from_moves("4453"), ("ann", "bob"), ended=Ending(how, 0))
    match = Match(Sides())
    match.open(record)
    view = match.view()
    assert view.names == ("ann", "bob")
    assert outcome_text(view) == f"bob ○ {words}: ann ● wins."
    assert match.record().ended == Ending(how, 0)
    assert match.record().players == ("ann", "bob")


def test_an_opened_game_of_you_against_an_engine_still_says_you():
    from c4tui.engine.board.gamefile import GameRecord

    match = Match(Sides())
    match.open(GameRecord.of(Position.from_moves("44"), ("You", "greedy")))
    assert match.view().names == ("You", "Greedy")
