"""Pilot tests: the thinking panel and status line say only what is true right now."""

from __future__ import annotations

from dataclasses import replace

import pytest

from c4tui.app.settings import Settings
from c4tui.app.status_words import status_text
from c4tui.app.widgets.thinking import ThinkingView
from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import ColumnStat, Limits, SearchInfo
from c4tui.engine.players.specs import make_engine
from tests.app.showcase import settle, type_keys, until

SIZE = (120, 40)


def panel_text(app) -> str:
    panel = app.game_screen.thinking_panel
    return "\n".join(line.plain for line in panel.lines(panel.size.width))


def narrow_figures(app, view: ThinkingView) -> str:
    """The panel's text once it shows `view`, every line within the panel's width."""
    panel = app.game_screen.thinking_panel
    panel.show(view)
    width = panel.size.width
    lines = panel_text(app).splitlines()
    assert all(len(line.rstrip()) <= width for line in lines), (width, lines)
    return "\n".join(lines)


async def test_undo_and_redo_clear_the_search_of_a_position_no_longer_on_the_board(make_app):
    app = make_app(settings=Settings(opponent="mcts:time=60", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "4")
        for _ in range(100):  # until the first figures arrive
            await pilot.pause(0.02)
            if app.match.search is not None and app.match.search.info is not None:
                break
        assert "visits" in panel_text(app)
        await type_keys(pilot, "u")
        assert app.game.moves == ()
        assert "visits" not in panel_text(app)
        assert "not searched" in panel_text(app)
        assert "last search" not in str(app.game_screen.thinking_panel.border_title)
        await type_keys(pilot, "r")  # your 4 again: the AI answers it afresh
        assert app.game.moves == (3,) and app.thinking
        assert app.match.search.position == app.game.position


async def test_a_search_without_figures_yet_says_it_is_searching(make_app):
    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        running = ThinkingView(None, Position.start(), Limits(), "Perfect", running=True)
        app.game_screen.thinking_panel.show(running)
        assert "Searching" in panel_text(app)
        assert "not searched" not in panel_text(app)
        assert "press m" in panel_text(app)  # unbounded: say how to stop it
        timed = ThinkingView(None, Position.start(), Limits(time=1), "MCTS", running=True)
        app.game_screen.thinking_panel.show(timed)
        assert "press m" not in panel_text(app)


async def test_a_finished_search_never_shows_columns_as_still_in_progress(make_app):
    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        panel = app.game_screen.thinking_panel
        position = Position.start()
        # The perfect player cut short (m) before solving a column.
        unsolved = SearchInfo(engine="perfect", nodes=1, columns=(ColumnStat(),) * 7)
        panel.show(ThinkingView(unsolved, position, Limits(), "Perfect", running=True))
        assert "solving…" in panel_text(app)
        panel.show(ThinkingView(unsolved, position, Limits(), "Perfect", running=False))
        text = panel_text(app)
        assert "solving" not in text and "unsolved" in text
        assert "1 node" in text.splitlines() and "1 nodes" not in text
        # A column proven won whose distance is not known yet.
        partly = SearchInfo(
            engine="perfect", nodes=5, columns=(ColumnStat(proven="win"), *(ColumnStat(),) * 6)
        )
        panel.show(ThinkingView(partly, position, Limits(), "Perfect", running=True))
        assert "win, solving" in panel_text(app)
        panel.show(ThinkingView(partly, position, Limits(), "Perfect", running=False))
        text = panel_text(app)
        assert "win" in text and "solving" not in text
        # Greedy scores only the columns where something is forced: the rest are blank,
        # and nothing was "solved".
        columns = (ColumnStat(score=-20, proven="loss"), *(ColumnStat(),) * 6)
        greedy = SearchInfo(engine="greedy", depth=1, columns=columns, best=3)
        panel.show(ThinkingView(greedy, position, Limits(), "Greedy", running=False))
        text = panel_text(app)
        assert "…" not in text
        assert "solved" not in text
        assert "loss in" in text
        nothing_forced = SearchInfo(engine="greedy", depth=1, columns=(ColumnStat(),) * 7)
        panel.show(ThinkingView(nothing_forced, position, Limits(), "Greedy", running=False))
        assert panel_text(app).startswith("Greedy plays by rule")
        # NegaMax before its first depth is done: no depth finished, nothing solved.
        first = SearchInfo(engine="negamax", nodes=2, columns=(ColumnStat(score=-10),) * 7)
        panel.show(ThinkingView(first, position, Limits(depth=8), "NegaMax", running=True))
        text = panel_text(app)
        assert "solved" not in text
        assert "budget depth 0 of 8" in text
        # NegaMax mid-way through depth 3: each column shows the depth of its own score.
        stats = (ColumnStat(score=5, depth=3), *(ColumnStat(score=-1, depth=2),) * 6)
        middle = SearchInfo(engine="negamax", nodes=900, depth=2, columns=stats, best=3)
        panel.show(ThinkingView(middle, position, Limits(depth=8), "NegaMax", running=True))
        text = panel_text(app)
        assert "depth 2" in text and "searching depth 3" in text
        rows = [line.split() for line in text.splitlines() if line.strip()[:1].isdigit()]
        assert [row[-1] for row in rows[:7]] == ["3"] + ["2"] * 6, rows


async def test_the_status_says_who_chooses_a_persons_move_on_m(make_app):
    app = make_app(settings=Settings(opponent="mcts:time=60", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "m")  # your turn: MCTS picks your move
        assert app.thinking
        status = status_text(app.match.view())
        assert status.startswith("MCTS is choosing a move for you ●")
        assert "You ● is thinking" not in status
        await type_keys(pilot, "n")
        await settle(pilot)


async def test_the_figures_fit_the_narrow_panel_of_an_80_column_terminal(make_app):
    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        columns = tuple(ColumnStat(visits=400, value=0.1, uct=0.2) for _ in range(7))
        search = SearchInfo(
            engine="mcts",
            elapsed=0.1,
            iterations=3_000,
            nodes=4_313,
            depth=9,
            rate=36_786,
            columns=columns,
            best=3,
            pv=(3, 3, 4),
        )
        limits = Limits(iterations=3_000)
        figures = narrow_figures(app, ThinkingView(search, Position.start(), limits, "MCTS", False))
        for figure in ("3,000 iterations", "depth 9", "36,786/s", "3,000 of 3,000"):
            assert figure in figures, figure


async def test_a_kept_trees_figures_fit_the_narrow_panel_depth_and_exact_first(make_app):
    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        # alphazero's search of 444334 after its tree was kept: "depth 6 · exact" was
        # cut at the panel's edge behind "4 visits kept".
        columns = tuple(
            ColumnStat(visits=2, value=-1.0, proven="loss", prior=0.1) for _ in range(7)
        )
        search = SearchInfo(
            engine="alphazero",
            iterations=10,
            nodes=120,
            depth=6,
            rate=154,
            columns=columns,
            best=3,
            pv=(3, 2, 1),
            exact=True,
        )
        view = ThinkingView(
            search, Position.from_moves("444334"), Limits(iterations=64), "AZ", False
        )
        figures = narrow_figures(app, view)
        assert "10 simulations" in figures and "depth 6" in figures and "exact" in figures


async def test_a_root_proven_before_searching_says_so_and_exact_within_the_narrow_panel(make_app):
    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        # Seen in tmux after --load: "proven without searching · depth 0 ·" cut at the edge.
        columns = tuple(ColumnStat(visits=0, value=1.0, proven="win", prior=0.1) for _ in range(7))
        search = SearchInfo(
            engine="alphazero", iterations=0, depth=0, columns=columns, best=5, pv=(5,), exact=True
        )
        view = ThinkingView(
            search, Position.from_moves("4453672"), Limits(iterations=400), "AZ", False
        )
        figures = narrow_figures(app, view)
        assert "proven without searching" in figures and "exact" in figures


async def test_mcts_figures_tell_kept_visits_and_answers_known_at_once(make_app):
    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        position = Position.from_moves("445566")
        # A win in one: the root is proven before the first iteration.
        win = ColumnStat(visits=0, value=1.0, proven="win")
        columns = tuple(win if col in (2, 6) else ColumnStat(visits=0) for col in range(7))
        instant = SearchInfo(engine="mcts", iterations=0, nodes=8, columns=columns, best=2)
        view = ThinkingView(instant, position, Limits(time=1), "MCTS", running=False)
        app.game_screen.thinking_panel.show(view)
        text = panel_text(app)
        assert "proven without searching" in text
        assert "0 iterations" not in text and "/s" not in text
        # A tree kept from the last move: more visits than this search's iterations.
        kept = tuple(ColumnStat(visits=500, value=0.0, uct=0.5) for _ in range(7))
        reused = SearchInfo(engine="mcts", iterations=1_000, rate=5_000, columns=kept, best=3)
        app.game_screen.thinking_panel.show(
            ThinkingView(reused, position, Limits(time=1), "MCTS", False)
        )
        text = panel_text(app)
        assert "1,000 iterations" in text and "2,500 visits kept" in text


async def test_a_noise_handicap_move_is_called_random_not_best(make_app):
    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        columns = tuple(ColumnStat() for _ in range(7))
        played = SearchInfo(engine="greedy", columns=columns, best=0, pv=(0,), handicap=True)
        view = ThinkingView(played, Position.start(), Limits(), "Greedy", running=False)
        app.game_screen.thinking_panel.show(view)
        text = panel_text(app)
        assert "random move 1 (noise handicap)" in text and "best" not in text


async def test_the_perfect_players_bar_counts_only_the_columns_solved_exactly(make_app):
    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        position = Position.from_moves("4")
        # One column solved; six known lost, their distance still being searched.
        columns = (*(ColumnStat(proven="loss"),) * 3, ColumnStat(score=-1, proven="loss"))
        columns += (ColumnStat(proven="loss"),) * 3
        info = SearchInfo(engine="perfect", nodes=10, columns=columns, best=3)
        app.game_screen.thinking_panel.show(
            ThinkingView(info, position, Limits(), "Perfect", running=True)
        )
        text = panel_text(app)
        assert text.count("loss, solving") == 6
        assert "solved 1 of 7 columns" in text and "14%" in text
        assert "100%" not in text


async def test_the_perfect_players_line_is_shown_whole(make_app):
    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        position = Position.start()
        columns = (ColumnStat(score=-2, proven="loss"), *(ColumnStat(score=1, proven="win"),) * 6)
        info = SearchInfo(
            engine="perfect", nodes=9, columns=columns, best=3, pv=(3, 3, 3, 3, 3), exact=True
        )
        app.game_screen.thinking_panel.show(
            ThinkingView(info, position, Limits(), "Perfect", running=False)
        )
        line = panel_text(app).splitlines()[-1]
        assert line.split() == ["best", "4", "pv", "4", "4", "4", "4", "4"], line
        assert "solved 7 of 7 columns" in panel_text(app)


async def test_mcts_columns_the_book_ruled_out_show_no_invented_win_rate(make_app):
    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        searched = ColumnStat(visits=900, value=0.2, uct=0.3)
        ruled_out = ColumnStat(proven="loss", by_book=True)
        columns = (ruled_out, ruled_out, searched, searched, searched, ruled_out, ruled_out)
        info = SearchInfo(engine="mcts", iterations=2_700, columns=columns, best=3)
        view = ThinkingView(info, Position.start(), Limits(iterations=3_000), "MCTS", False)
        app.game_screen.thinking_panel.show(view)
        rows = panel_text(app).splitlines()[1:8]
        assert all("book: loss" in rows[col] and "%" not in rows[col] for col in (0, 1, 5, 6))
        # Never searched: no visits and no bar (the help says so).
        assert all(rows[col].split() == [str(col + 1), "book:", "loss"] for col in (0, 1, 5, 6))
        # The UCT value on the win rate's scale, beside the win rate: 60.0% and 65.0%.
        assert rows[3].split()[1:4] == ["900", "60.0%", "65.0%"], rows[3]


async def test_the_random_player_says_it_picked_at_random(make_app):
    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        position = Position.start()
        result = make_engine("random", seed=1).search(position)
        view = ThinkingView(result.info, position, Limits(), "Random", running=False)
        app.game_screen.thinking_panel.show(view)
        text = panel_text(app)
        assert f"picked {result.move + 1} at random" in text
        assert "best" not in text and "pv" not in text
        assert not app.game_screen.thinking_panel.border_subtitle  # no figures, so nobody's view
        # Two people: no engine judges the moves, and the label says so.
        label = str(app.query_one("#evaluation-label").render())
        assert label == "Two people: no engine judges moves", label


async def test_the_random_players_words_fit_the_panel_at_80_columns(make_app):
    """'Random picks a legal column by chanc' was cut at 80x24."""
    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        position = Position.start()
        result = make_engine("random", seed=1).search(position)
        panel = app.game_screen.thinking_panel
        panel.show(ThinkingView(result.info, position, Limits(), "Random", running=False))
        lines = [line.plain for line in panel.lines(panel.size.width)]
        assert "Random picks a column by chance:" in lines
        assert all(len(line) <= panel.size.width for line in lines), lines


async def test_the_panel_says_whose_view_its_figures_are(make_app):
    app = make_app(settings=Settings(opponent="mcts:iterations=500", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        assert not app.game_screen.thinking_panel.border_subtitle  # nothing searched yet
        await type_keys(pilot, "4")  # ● moves; MCTS (○) thinks
        await settle(pilot)
        assert app.game_screen.thinking_panel.border_subtitle == "figures from ○'s view"
        label = str(app.query_one("#evaluation-label").render())
        assert label.startswith("● wins"), label


@pytest.mark.parametrize(("spec", "title"), [("random", "Random"), ("greedy", "Greedy")])
async def test_an_opponent_that_values_no_move_is_not_awaited_under_the_moves(
    make_app, spec, title
):
    """Against Random the line under the moves said "The AI's view of the game: none
    yet" all game: it never values a move."""
    app = make_app(settings=Settings(opponent=spec, theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "4")  # ● moves; the engine (○) answers
        await settle(pilot)
        assert len(app.game.moves) == 2
        label = str(app.query_one("#evaluation-label").render())
        assert label == f"{title} does not judge moves", label


async def test_the_human_like_engine_shows_its_scores_and_chances(make_app):
    # Past the solver's time (8x7 connect 5) it scores by a shallow search: the panel
    # names those scores and the chance it gave each column, not "playouts".
    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        position = Position.from_moves("44", 8, 7, 5)
        result = make_engine("level:3", seed=1).search(position)
        assert all(s.visits is None and s.chance is not None for s in result.info.columns if s)
        assert sum(s.chance for s in result.info.columns if s) == pytest.approx(1)
        view = ThinkingView(result.info, position, Limits(time=0.5), "Level 3", running=False)
        app.game_screen.thinking_panel.show(view)
        text = panel_text(app)
        header = text.splitlines()[0].split()
        assert header[:3] == ["col", "score", "chance"], header
        assert "playouts" not in text and "%" in text.splitlines()[1]


def test_only_an_engine_that_picks_by_chances_makes_its_own_weaker_choices():
    from c4tui.engine.study.figures import chooses_by_chances

    assert chooses_by_chances(SearchInfo(engine="human"))
    for other in ("mcts", "random", "negamax", "no such engine"):
        assert not chooses_by_chances(SearchInfo(engine=other))


async def test_the_perfect_player_on_a_board_without_a_book_shows_its_time_budget(make_app):
    """Level 8 on 9x7 connect 5 solves without a book: its move has a clock, and says so."""
    settings = Settings(opponent="level:8", first="ai", width=9, height=7, connect=5)
    app = make_app(settings=replace(settings, theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.thinking, "level 8 thinking")
        await until(pilot, lambda: "budget 10 s" in panel_text(app), "the budget shown")
        app.match.stop()


async def test_a_million_visits_keep_every_row_in_line(make_app):
    # Issue 30 item 19: at a million visits the share bar was pushed out of line.
    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        visits = (1_234_567, 98_765, 4_321_000, 12_000_000, 7, 0, 999_999)
        columns = tuple(ColumnStat(visits=v, value=0.1, uct=0.2) for v in visits)
        search = SearchInfo(
            engine="mcts", iterations=20_000_000, nodes=19_500_000, depth=30, columns=columns
        )
        panel = app.game_screen.thinking_panel
        panel.show(ThinkingView(search, Position.start(), Limits(time=60), "MCTS", False))
        lines = panel_text(app).splitlines()
        rows = lines[1:8]
        # Every row's share bar starts in one column, and no row runs past the panel.
        bar = "·▏▎▍▌▋▊▉█"
        assert len({min(row.index(c) for c in bar if c in row) for row in rows}) == 1, rows
        assert max(len(row.rstrip()) for row in rows) <= panel.size.width, rows
        assert "1.23M" in rows[0] and "12.0M" in rows[3] and "98,765" in rows[1], rows
        summary = lines[9]  # in millions, so it fits the narrow panel
        assert summary.startswith("20.0M iterations") and len(summary) <= panel.size.width


async def test_mcts_says_what_its_words_mean_and_no_win_rate_for_an_untried_column(make_app):
    # Issue 30 item 27: jargon without a legend, and "0 visits, 100.0%" after a search.
    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        untried = ColumnStat(visits=0, value=1.0, uct=1.0)
        columns = (untried, *(ColumnStat(visits=100, value=0.1, uct=0.3) for _ in range(6)))
        search = SearchInfo(engine="mcts", iterations=600, columns=columns, best=3)
        panel = app.game_screen.thinking_panel
        panel.show(ThinkingView(search, Position.start(), Limits(time=1), "MCTS", False))
        lines = panel_text(app).splitlines()
        assert lines[1].split()[:2] == ["1", "0"] and len(lines[1].split()) == 3, lines[1]
        assert "100.0%" not in panel_text(app)
        assert "visits: games tried" in panel_text(app) and "UCT: win rate" in panel_text(app)
    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        panel = app.game_screen.thinking_panel
        panel.show(ThinkingView(search, Position.start(), Limits(time=1), "MCTS", False))
        assert "? says what visits and UCT mean" in panel_text(app)


async def test_not_searched_yet_is_said_whole_in_the_narrow_panel_of_80_by_24(make_app):
    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        panel = app.game_screen.thinking_panel
        panel.show(ThinkingView(None, Position.start(), Limits(), "MCTS", running=False))
        lines = panel.lines(panel.size.width)
        assert [line.plain for line in lines] in (
            ["The AI has not searched this position yet."],
            ["Not searched yet."],
        )
        assert all(len(line.plain) <= panel.size.width for line in lines)


async def test_an_outside_engines_columns_show_only_what_it_said(make_app):
    # Issue 45 item 32: columns it never mentioned showed 0 visits, and its iterations
    # (the visits it summed) were called nodes.
    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        said = ColumnStat(visits=300, value=0.2)
        columns = (None, ColumnStat(), said, said, ColumnStat(), ColumnStat(), ColumnStat())
        search = SearchInfo(engine="cmd", iterations=600, columns=columns, best=3)
        panel = app.game_screen.thinking_panel
        panel.show(ThinkingView(search, Position.start(), Limits(time=1), "bot.py", False))
        lines = panel_text(app).splitlines()
        assert [lines[row].split() for row in (2, 5, 6, 7)] == [["2"], ["5"], ["6"], ["7"]]
        assert lines[3].split()[:3] == ["3", "300", "60.0%"], lines[3]
        assert "600 iterations" in panel_text(app) and "nodes" not in panel_text(app)


@pytest.mark.parametrize("size", [SIZE, (80, 24)])
async def test_the_learned_engine_shows_priors_visits_and_the_networks_own_value(make_app, size):
    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        panel = app.game_screen.thinking_panel
        searched = ColumnStat(visits=300, value=0.2, prior=0.25)
        ruled_out = ColumnStat(proven="loss", by_book=True, prior=0.05)
        columns = (
            ruled_out,
            searched,
            searched,
            searched,
            ColumnStat(visits=0, prior=0.1),
            ruled_out,
            None,
        )
        info = SearchInfo(
            engine="alphazero", iterations=900, columns=columns, best=3, net_value=0.5
        )
        panel.show(ThinkingView(info, Position.start(), Limits(iterations=900), "AZ", False))
        lines = panel_text(app).splitlines()
        assert all(len(line.rstrip()) <= panel.size.width for line in lines), lines
        assert lines[0].split()[:4] == ["col", "prior", "visits", "win"]
        assert lines[2].split()[:4] == ["2", "25%", "300", "60.0%"]
        assert lines[1].split() == ["1", "5%", "book:", "loss"]
        assert lines[5].split()[:4] == ["5", "10%", "0", "·" * (len(lines[5].split()[3]))], (
            "no win rate for a column never tried"
        )
        assert lines[7].split() == ["7", "full"]
        assert "75% to win" in lines[8], "the network's own value, as a win rate"
        # The network alone (sims=0): its priors, no visits, and its priors as the bar.
        alone = SearchInfo(
            engine="alphazero",
            iterations=0,
            best=3,
            net_value=-1.0,
            columns=tuple(ColumnStat(prior=p) for p in (0, 0, 0, 1, 0, 0, 0)),
        )
        panel.show(ThinkingView(alone, Position.start(), Limits(), "AZ", False))
        lines = panel_text(app).splitlines()
        assert lines[4].split()[:2] == ["4", "100%"] and "█" in lines[4]
        assert "█" not in lines[3] and "0% to win" in lines[8]


async def test_a_search_proven_before_its_first_simulation_shows_each_columns_proof(make_app):
    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        # 16 stones, ● to move and lost: the search solves the root's columns as it
        # expands it, and stops; each column reads "loss" (it read nothing, as sims=0).
        position = Position.from_moves("4445554234556222")
        info = make_engine("alphazero:sims=200", seed=1).search(position).info
        assert info.iterations == 0 and info.exact
        panel = app.game_screen.thinking_panel
        panel.show(ThinkingView(info, position, Limits(iterations=200), "AZ", False))
        rows = panel_text(app).splitlines()[1:8]
        proofs = [row.split()[3] for row in rows]
        assert proofs == ["loss"] * 7, rows


async def test_no_heading_of_the_learned_engines_table_is_cut_in_a_narrow_panel(make_app):
    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        position = Position.from_moves("4453")
        info = make_engine("alphazero:sims=16", seed=1).search(position).info
        panel = app.game_screen.thinking_panel
        panel.show(ThinkingView(info, position, Limits(), "AlphaZero", running=False))
        # Whole words only, at every width the panel has from 80 columns up: "win rate
        # shar" read as a typo beside the board at 80x24.
        for width in range(30, 60):
            header = panel.lines(width)[0].plain.split()
            assert set(header) <= {"col", "prior", "visits", "win", "rate", "share", "of"}
