"""Pilot tests: the thinking panel and status line say only what is true right now."""

from __future__ import annotations

from c4tui.app.settings import Settings
from c4tui.app.showcase import settle, type_keys
from c4tui.app.widgets.thinking import ThinkingView
from c4tui.engine.position import Position
from c4tui.engine.search import ColumnStat, Limits, SearchInfo

SIZE = (120, 40)


def panel_text(app) -> str:
    panel = app.thinking_panel
    return "\n".join(line.plain for line in panel.lines(panel.size.width))


async def test_undo_and_redo_clear_the_search_of_a_position_no_longer_on_the_board(make_app):
    app = make_app(settings=Settings(opponent="mcts:time=60", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "4")
        for _ in range(100):  # until the first figures arrive
            await pilot.pause(0.02)
            if app._thinking_info is not None:
                break
        assert "visits" in panel_text(app)
        await type_keys(pilot, "u")
        assert app.game.moves == ()
        assert "visits" not in panel_text(app)
        assert "not searched" in panel_text(app)
        assert "last search" not in str(app.thinking_panel.border_title)
        await type_keys(pilot, "r")  # your 4 again; the AI waits for m
        assert app.game.moves == (3,) and not app.thinking
        assert "visits" not in panel_text(app)


async def test_a_search_without_figures_yet_says_it_is_searching(make_app):
    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        running = ThinkingView(None, Position.start(), Limits(), "Perfect", running=True)
        app.thinking_panel.show(running)
        assert "Searching" in panel_text(app)
        assert "not searched" not in panel_text(app)
        assert "press m" in panel_text(app)  # unbounded: say how to stop it
        timed = ThinkingView(None, Position.start(), Limits(time=1), "MCTS", running=True)
        app.thinking_panel.show(timed)
        assert "press m" not in panel_text(app)


async def test_a_finished_search_never_shows_columns_as_still_in_progress(make_app):
    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        panel = app.thinking_panel
        position = Position.start()
        # The perfect player cut short (m) before solving a column.
        unsolved = SearchInfo(engine="perfect", nodes=1, columns=(ColumnStat(),) * 7)
        panel.show(ThinkingView(unsolved, position, Limits(), "Perfect", running=True))
        assert "solving…" in panel_text(app)
        panel.show(ThinkingView(unsolved, position, Limits(), "Perfect", running=False))
        text = panel_text(app)
        assert "solving" not in text and "unsolved" in text
        assert "1 node" in text.splitlines() and "1 nodes" not in text
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


async def test_the_status_says_who_chooses_a_persons_move_on_m(make_app):
    app = make_app(settings=Settings(opponent="mcts:time=60", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "m")  # your turn: MCTS picks your move
        assert app.thinking
        status = app.status_text()
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
        app.thinking_panel.show(ThinkingView(search, Position.start(), limits, "MCTS", False))
        width = app.thinking_panel.size.width
        lines = panel_text(app).splitlines()
        assert all(len(line.rstrip()) <= width for line in lines), (width, lines)
        figures = "\n".join(lines)
        for figure in ("3,000 iterations", "depth 9", "36,786/s", "3,000 of 3,000"):
            assert figure in figures, figure
