"""The evaluation line's words: an exact engine speaks in results, an estimate in rates."""

from __future__ import annotations

from c4tui.app.widgets.history import judged_words
from c4tui.engine.board.game import Game
from c4tui.match.controller import Match
from c4tui.match.opponents import Judge
from c4tui.match.sides import Sides
from tests.match.playing import attached, dropped


def test_the_perfect_player_says_the_result_it_knows_not_a_percentage():
    # After 1. ●4 ○4 ●... the perfect player (○ here) replies; ● wins with perfect play.
    match = Match(Sides(None, "level:8"), Game())
    runner = attached(match)
    assert dropped(match, 3) and runner.run_search(match)
    values, judge = match.evaluation_line()
    assert judge is not None and judge.exact and values == [1.0]
    assert judged_words(values[-1], judge) == "● wins with perfect play (Level 8)"
    assert judged_words(0.0, judge) == "a draw with perfect play (Level 8)"  # never "50%"


def test_an_estimating_engine_still_speaks_in_win_rates():
    match = Match(Sides(None, "mcts:iterations=200"), Game(), seed=1)
    runner = attached(match)
    assert dropped(match, 3) and runner.run_search(match)
    values, judge = match.evaluation_line()
    assert judge is not None and not judge.exact
    assert judged_words(values[-1], judge).endswith("now, in MCTS's view")
    assert judged_words(0.1, Judge("MCTS")) == "● wins 55% now, in MCTS's view"


def test_an_engine_that_no_longer_plays_no_longer_speaks_for_the_game():
    """MCTS judged the first moves; then the opponent became Level 3: its values, not
    MCTS's last '● wins 50% now' of a position long gone, are the line's."""
    match = Match(Sides(None, "mcts:iterations=200"), Game(), seed=1)
    runner = attached(match)
    assert dropped(match, 3) and runner.run_search(match)
    assert match.evaluation_line()[1] == Judge("MCTS")
    match.set_sides(Sides(None, "level:3"))
    assert match.evaluation_line() == ([], None)  # nobody playing has judged a move yet
    assert dropped(match, 3) and runner.run_search(match)
    values, judge = match.evaluation_line()
    assert judge is not None and judge.title == "Level 3" and len(values) == 1
