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
