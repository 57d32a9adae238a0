"""The in-process Match as the match interface describes it: searches on the runner it
is given, stale reports dropped (what both matches do: test_conformance.py)."""

from c4tui.engine.board.game import Game
from c4tui.match.controller import Match
from c4tui.match.hints import hint_reason
from c4tui.match.interface import (
    HintReady,
    PositionChanged,
    SearchDone,
    SearchProgress,
    SearchStarted,
)
from c4tui.match.sides import Sides
from tests.match.playing import QueuedRunner


def match_with_events(sides: Sides, game: Game | None = None):
    runner = QueuedRunner()
    match = Match(sides, game, seed=1, runner=runner)
    events = []
    match.listen(events.append)
    return match, runner, events


def test_a_drop_changes_the_position_and_starts_the_engine_on_the_runner():
    match, runner, events = match_with_events(Sides(None, "greedy"))
    match.drop(3)
    assert events[0] == PositionChanged(match.position)
    assert isinstance(events[1], SearchStarted) and events[1].spec == "greedy"
    assert [r.position.to_moves() for r in runner.searches] == ["4"]
    events.clear()
    runner.run_search(match)
    done = [e for e in events if isinstance(e, SearchDone)]
    assert len(done) == 1 and done[0].move == match.position.path[-1]
    assert isinstance(events[-1], PositionChanged) and match.position.moves == 2


def test_a_cancelled_search_reports_nothing():
    match, runner, events = match_with_events(Sides(None, "mcts:iterations=200"))
    match.drop(3)
    match.undo()  # cancels the search the drop started
    events.clear()
    runner.run_search(match)
    assert not [e for e in events if isinstance(e, SearchProgress | SearchDone)]
    assert match.position.moves == 0


def test_two_engines_wait_the_delay_between_moves_and_pause_stops_them():
    match, runner, _ = match_with_events(Sides("greedy", "random"))
    match.resume()
    assert runner.searches[0].delay == 0.0
    runner.run_search(match)
    assert runner.searches[0].delay == match.delay  # the next move waits
    match.pause()
    assert runner.searches[0].stop.is_set() and match.paused


def test_a_hint_runs_on_the_runner_and_comes_back_as_an_event():
    match, runner, events = match_with_events(Sides(None, None), Game.from_moves("4455"))
    match.hint()
    request = runner.hints.pop()
    column, reason = hint_reason(request.spec, request.position, request.stop, request.seed)
    match.finish_hint(request.hint_id, column, reason)
    assert events[-1] == HintReady(column)
