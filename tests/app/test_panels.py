"""Pure helpers behind the panels: bars, budgets, table kinds, evaluations, move rounds."""

from __future__ import annotations

from c4tui.app.widgets.history import lay_out
from c4tui.app.widgets.movetree import move_rows
from c4tui.app.widgets.thinking_figures import ThinkingView, bar, budget_progress, column_kind
from c4tui.engine.board.game import Game
from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import ColumnStat, Figures, Limits, SearchInfo
from c4tui.match.opponents import evaluation_of, hint_spec
from c4tui.match.sides import engine_title


def test_bar_fills_in_eighths_and_keeps_its_width():
    assert bar(0, 4) == "    "
    assert bar(1, 4) == "████"
    assert bar(0.5, 4) == "██  "
    assert bar(1 / 16, 2) == "▏ "
    assert bar(7, 3) == "███"  # clamped


def info(**fields) -> SearchInfo:
    return SearchInfo(engine=fields.pop("engine", "mcts"), **fields)


def view(search: SearchInfo, limits: Limits, *, steady=False, running=False) -> ThinkingView:
    return ThinkingView(search, Position.start(), limits, "MCTS", running, steady)


def test_budget_progress_follows_the_budget_the_engine_has():
    done = budget_progress(view(info(iterations=300), Limits(iterations=1000)))
    assert done == (300, 1000, "budget 300 of 1,000 iterations")
    assert budget_progress(view(info(depth=3), Limits(depth=6)))[:2] == (3, 6)
    timed = budget_progress(view(info(elapsed=0.5), Limits(time=2)))
    assert timed[:2] == (0.5, 2)
    # Steady mode never shows a clock: the bar is empty while running, full after.
    assert budget_progress(view(info(elapsed=0.5), Limits(time=2), steady=True, running=True))[
        :2
    ] == (0, 1)
    columns = (ColumnStat(score=1), ColumnStat(), None)
    assert budget_progress(view(info(engine="perfect", columns=columns), Limits()))[:2] == (1, 2)


def test_column_kind_by_engine_name_and_by_filled_figures():
    assert column_kind(info(engine="negamax")) is Figures.NEGAMAX
    assert column_kind(info(engine="perfect")) is Figures.EXACT
    assert column_kind(info(engine="human")) is Figures.CHANCES
    assert column_kind(info(engine="x", columns=(ColumnStat(visits=3, uct=0.1),))) is Figures.MCTS
    assert column_kind(info(engine="x", columns=(ColumnStat(visits=3),))) is Figures.FLAT
    assert column_kind(info(engine="greedy", columns=(ColumnStat(),))) is Figures.PLAIN


def test_evaluation_is_from_the_first_players_side():
    stats = (ColumnStat(value=0.5), ColumnStat(score=3, proven="win"), None)
    search = info(columns=stats)
    assert evaluation_of(search, 0, mover=0) == 0.5
    assert evaluation_of(search, 0, mover=1) == -0.5
    assert evaluation_of(search, 1, mover=1) == -1
    assert evaluation_of(search, 2, mover=0) is None


def test_move_rows_pair_the_main_line_and_put_variations_under_their_move():
    game = Game.from_moves("4453")
    game.undo()
    game.undo()
    game.play(0)  # 441: a variation of ● 5 at move 2
    rows = move_rows(game, 7)
    assert [(r.depth, [e.number + e.move for e in r.entries]) for r in rows] == [
        (0, ["1.● 4", "○ 4"]),
        (0, ["2.● 5", "○ 3"]),
        (1, ["2.● 1"]),
    ]
    assert rows[2].entries[0].path == (3, 3, 0)
    wide = move_rows(Game.from_moves("a15", 10, 6, 4), 10)
    assert [e.move for e in wide[0].entries] == ["● 10", "○ 1 "]


def test_a_long_variation_wraps_under_its_indent():
    game = Game.from_moves("44")
    game.undo()
    for col in (2, 2, 2, 4, 4, 4, 5, 5):
        game.play(col)
    lines = lay_out(move_rows(game, 7), 24)
    assert len(lines) > 2
    assert all(sum(len(text) for text, _, _ in line) <= 25 for line in lines)


def test_names_and_hint_engine():
    assert engine_title("mcts:time=1") == "MCTS"
    assert engine_title("negamax") == "NegaMax"
    assert hint_spec(Position.start()) in ("perfect:time=3", "mcts:time=1", "negamax", "greedy")


def test_evaluation_bars_have_a_fixed_scale():
    from c4tui.app.widgets.evaluation import column_cells

    assert column_cells(-1) == [" ", "▁"]  # a sure loss for ● still shows a bar
    assert column_cells(-0.99) == [" ", "▁"]
    assert column_cells(0) == [" ", "█"]  # even: the bottom row full
    assert column_cells(1) == ["█", "█"]
    assert column_cells(0.5) == ["▄", "█"]


def test_a_depth_past_the_moves_left_is_capped_and_says_so():
    late = Position.from_moves("467542311242375735765675733")  # 27 moves: 15 left
    search = info(depth=11)
    capped = budget_progress(ThinkingView(search, late, Limits(depth=100), "NegaMax", True, False))
    assert capped == (11, 15, "budget depth 11 of 15 (the moves left)")
    plain = budget_progress(ThinkingView(search, late, Limits(depth=12), "NegaMax", True, False))
    assert plain == (11, 12, "budget depth 11 of 12")
