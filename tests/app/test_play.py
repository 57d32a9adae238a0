"""Pilot tests: every key binding, mouse drops, the screens, the minimum size."""

from __future__ import annotations

from c4tui.app import ai_turns
from c4tui.app.notices import STEADY_NOTICE_SECONDS
from c4tui.app.screens.help import HELP_FILE, HelpScreen
from c4tui.app.screens.settings_form import SettingsScreen, join_spec, split_spec
from c4tui.app.settings import Settings, load
from c4tui.app.status_words import outcome_text, status_text
from c4tui.app.textual_internals import notifications
from c4tui.app.widgets.board import Board
from c4tui.app.widgets.disc_sizes import BIG, GIANT, MEDIUM, ROUND
from c4tui.engine.board.position import Position
from tests.app.showcase import DRAW_MOVES, open_settings, settle, type_keys, until

SIZE = (120, 40)


def humans() -> Settings:
    return Settings(mode="humans", theme="textual-dark")


async def test_digit_drops_and_the_ai_replies(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "4")
        await settle(pilot)
        assert app.game.moves[0] == 3
        assert len(app.game.moves) == 2  # the random opponent answered
        assert not app.thinking


async def test_cursor_keys_then_enter_and_space_drop(make_app):
    app = make_app(settings=humans())
    async with app.run_test(size=SIZE) as pilot:
        assert app.cursor == 3
        await type_keys(pilot, "left", "left", "enter")
        assert app.game.moves == (1,)
        await type_keys(pilot, "right", "right", "right", "space")
        assert app.game.moves == (1, 4)
        await type_keys(pilot, *["right"] * 9)
        assert app.cursor == 6  # the cursor stops at the last column


async def test_mouse_click_drops_in_the_clicked_column(make_app):
    app = make_app(settings=humans())
    async with app.run_test(size=SIZE) as pilot:
        board = app.query_one(Board)
        for target in (0, 6, 2):
            x = next(x for x in range(board.size.width) if board.column_at(x, 0) == target)
            gutter = board.styles.gutter
            await pilot.click(Board, offset=(x + gutter.left, gutter.top + 10))
        assert app.game.moves == (0, 6, 2)


async def test_full_column_and_wrong_turn_are_refused(make_app):
    app = make_app(settings=humans())
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, *"111111")
        await type_keys(pilot, "1")
        assert app.game.moves == (0,) * 6
        await type_keys(pilot, "9")  # no column 9 on a 7-column board
        assert len(app.game.moves) == 6
        assert any("no column 9" in n.message for n in notifications(app))


async def test_a_notice_stays_in_steady_mode_and_goes_after_its_time_otherwise(
    make_app, monkeypatch
):
    # Steady mode has no clock on screen (and a loaded machine's test may take longer
    # than a notice's two seconds to look at it: so the timeout handed to Textual is
    # what is checked, not a toast that may have gone already).
    from textual.app import App

    handed: list[tuple[str, float | None]] = []
    original = App.notify

    def noted(self, message, *, timeout=None, **options):
        handed.append((message, timeout))
        return original(self, message, timeout=timeout, **options)

    monkeypatch.setattr(App, "notify", noted)
    for steady, expected in ((True, STEADY_NOTICE_SECONDS), (False, 2)):
        handed.clear()
        app = make_app(settings=humans(), steady=steady)
        async with app.run_test(size=SIZE) as pilot:
            await type_keys(pilot, "9")
            said = [timeout for message, timeout in handed if "no column 9" in message]
            assert said == [expected]


async def test_undo_takes_back_your_move_and_the_reply_and_redo_replays(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "4")
        await settle(pilot)
        await type_keys(pilot, "3")
        await settle(pilot)
        played = app.game.moves
        assert len(played) == 4
        await type_keys(pilot, "u")
        assert app.game.moves == played[:2]
        await type_keys(pilot, "r")
        await settle(pilot)
        assert app.game.moves == played
        await type_keys(pilot, "u", "u")
        assert app.game.moves == ()
        await type_keys(pilot, "u")  # nothing left: a notice, no error
        assert app.game.moves == ()


async def test_new_game_clears_the_board(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "4")
        await settle(pilot)
        await type_keys(pilot, "n")
        await settle(pilot)
        assert app.game.moves == ()
        assert app.match.evaluation_line() == ([], None)


async def test_ai_moves_first_when_asked(make_app):
    app = make_app(settings=Settings(opponent="random", first="ai", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert len(app.game.moves) == 1


async def test_m_plays_for_you_and_cuts_a_long_search_short(make_app):
    app = make_app(settings=Settings(opponent="greedy", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "m")
        await settle(pilot)
        # The AI played your move, then its own reply.
        assert len(app.game.moves) == 2
    app = make_app(settings=Settings(opponent="mcts:time=60", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "4")
        await until(pilot, lambda: app.thinking, "the AI thinking")
        await type_keys(pilot, "m")
        await settle(pilot)
        assert len(app.game.moves) == 2


async def test_a_second_m_just_after_hurrying_the_ai_does_not_play_your_move(make_app, monkeypatch):
    # "Just after" is a time: a loaded machine may take more than the real second of
    # grace between the two m's (the move for you was then played), so the test's is long.
    monkeypatch.setattr(ai_turns, "M_REPEAT_GRACE", 600.0)
    app = make_app(settings=Settings(opponent="mcts:time=60", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "4")
        await until(pilot, lambda: app.thinking, "the AI thinking")
        await type_keys(pilot, "m")
        await settle(pilot)
        assert len(app.game.moves) == 2  # the AI's reply, cut short
        await type_keys(pilot, "m")  # the impatient repeat, a moment later
        await settle(pilot)
        assert len(app.game.moves) == 2 and not app.thinking
        assert any("your turn" in n.message for n in notifications(app))
        await type_keys(pilot, "m")  # asked again: now it plays your move
        assert app.thinking
        await type_keys(pilot, "n")
        await settle(pilot)


async def test_hint_marks_a_column(make_app):
    app = make_app(settings=humans())
    async with app.run_test(size=SIZE) as pilot:
        # ● has three in the bottom row: the hint must be the winning column.
        await type_keys(pilot, *"1122", "3", "7")
        await type_keys(pilot, "h")
        await settle(pilot)
        assert app.match.hints.column in (3,)
        assert app.query_one(Board).view.hint == 3
        await type_keys(pilot, "4")
        assert app.game.result() is not None
        assert app.match.hints.column is None


async def test_a_hint_cut_short_by_its_time_says_it_is_not_proven(make_app, monkeypatch):
    import c4tui.match.hints as match_module  # where the hint desk names its helper

    # A middle game the perfect player cannot solve in a hundredth of a second (one no
    # other test searches: the process-wide solver table remembers what they learnt).
    monkeypatch.setattr(match_module, "hint_spec", lambda position: "perfect:time=0.01")
    app = make_app(settings=humans())
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, *"2175216112316")
        await type_keys(pilot, "h")
        await settle(pilot)
        assert app.match.hints.column is not None
        # On the status line, not in a notice over the newest moves.
        status = str(app.game_screen.status_line.render())
        assert "Hint: column" in status and "not proven" in status
        assert not any("Hint:" in n.message for n in notifications(app))


async def test_help_screen_opens_and_closes(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await type_keys(pilot, "escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)


def test_help_names_every_setting_of_the_looks_and_its_palette_command():
    text = HELP_FILE.read_text(encoding="utf-8")
    for words in ("falling discs", "board style", '"Falling discs"', '"Board style: classic"'):
        assert words.lower() in text.lower(), words


def test_help_names_every_key_of_a_room():
    from textual.binding import Binding

    from c4tui.app.keys import KEYS, spoken

    text = HELP_FILE.read_text(encoding="utf-8")
    room = text[text.index("## In a room") : text.index("## The AI-thinking panel")]
    keys = [b for b in KEYS if isinstance(b, Binding) and "'room'" in b.action]
    assert keys
    for binding in keys:
        key = "Escape" if binding.key == "escape" else spoken(binding)
        assert f"`{key}`" in room, binding.action


async def test_q_quits(make_app):
    app = make_app(settings=Settings(opponent="mcts:time=60", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "4", "q")
        await until(pilot, lambda: not app.is_running, "the app quitting")
    assert app.game.moves == (3,)


async def test_settings_cancel_keeps_everything(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "s")
        await pilot.pause()  # let the form compose
        assert isinstance(app.screen, SettingsScreen)
        await type_keys(pilot, "escape")
        await pilot.pause()
        assert not isinstance(app.screen, SettingsScreen)
    assert load(app.config_dir)[0] == Settings()  # nothing written


async def test_settings_save_applies_and_persists(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_settings(app, pilot)
        assert isinstance(screen, SettingsScreen)
        screen.query_one("#width").value = "8"
        screen.query_one("#opponent-engine").value = "greedy"
        await pilot.pause()
        screen.action_save()
        await settle(pilot)
        assert app.settings.width == 8
        assert app.settings.opponent == "greedy"
        assert app.game.position.width == 8
    saved, notice = load(app.config_dir)
    assert notice is None
    assert (saved.width, saved.opponent) == (8, "greedy")


INVALID_FIELDS = [
    ("#width", "12"),
    ("#height", "3"),
    ("#connect", "x"),
    ("#opponent-amount", "-2"),
    ("#opponent-noise", "2"),
    ("#opponent-c", "abc"),
    ("#second_opponent-amount", "0"),
]


async def test_settings_refuse_invalid_values(make_app):
    # AI against AI: both sides play, so both are checked.
    watching = Settings(mode="ai-ai", opponent="mcts:time=1", theme="textual-dark")
    app = make_app(settings=watching)
    async with app.run_test(size=SIZE) as pilot:
        # Paused: the engines do not play a whole game behind the form (CPU the suite needs).
        await type_keys(pilot, "space")
        assert app.match.paused and not app.thinking
        screen = await open_settings(app, pilot)
        for field, value in INVALID_FIELDS:
            widget = screen.query_one(field)
            good = widget.value
            widget.value = value
            await pilot.pause()
            assert screen.query_one("#save").disabled, field
            assert widget.has_class("-invalid"), field
            section = field.rpartition("-")[0].lstrip("#") if "-" in field else "game"
            assert str(screen.query_one(f"#{section}-errors").render()).strip(), field
            screen.action_save()
            # Nothing accepted: a form saved would close itself, and the settings it
            # applied would fail the last check below.
            assert isinstance(app.screen, SettingsScreen), field
            widget.value = good
            await pilot.pause()
            assert not screen.query_one("#save").disabled, field
    assert app.settings == watching


async def test_settings_show_every_bad_field_at_once(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_settings(app, pilot)
        screen.query_one("#width").value = "11"
        screen.query_one("#height").value = "x"
        screen.query_one("#connect").value = "7"
        await pilot.pause()
        errors = str(screen.query_one("#game-errors").render())
        # Named as the form labels them ("Columns", not the file's "width").
        for field, label in (("width", "Columns"), ("height", "Rows"), ("connect", "Connect")):
            assert screen.query_one(f"#{field}").has_class("-invalid"), field
            assert f"{label}:" in errors, field
        assert "width" not in errors and "Columns: 11 is outside 4..10" in errors
        # Each good on its own, but five in a row cannot fit on a 4x4 board.
        for field, value in (("width", "4"), ("height", "4"), ("connect", "5")):
            screen.query_one(f"#{field}").value = value
        await pilot.pause()
        assert screen.query_one("#connect").has_class("-invalid")
        assert screen.query_one("#save").disabled


async def test_settings_fields_keep_one_line_in_the_smallest_terminal(make_app):
    from textual.widgets import Input, Select

    settings = Settings(opponent="negamax:depth=6", second_opponent="perfect", theme="textual-dark")
    app = make_app(settings=settings)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_keys(pilot, "s")
        await pilot.pause()
        # "negamax", "none needed", "textual-dark" must not wrap into taller boxes (an
        # outside program's field is hidden until its algorithm is chosen).
        fields = [*app.screen.query(Select), *app.screen.query(Input)]
        shown = [w for w in fields if all(a.display for a in w.ancestors_with_self)]
        heights = {w.id: w.outer_size.height for w in shown}
        assert set(heights.values()) == {1}, [i for i in heights.items() if i[1] != 1]
        # The whole form fits, buttons included: nothing to scroll, nothing cut.
        form = app.screen.query_one("#settings-form")
        assert form.max_scroll_y == 0
        for button in ("#save", "#cancel"):
            region = app.screen.query_one(button).region
            assert region.height and region.bottom <= 23, button  # above the footer


async def test_a_theme_from_the_command_palette_is_kept(tmp_path, make_app):
    from c4tui.app.settings import save

    config = tmp_path / "palette"
    save(Settings(mode="humans", opponent="greedy"), config)
    app = make_app(config_dir=config, settings=None, opponent="random")
    async with app.run_test(size=SIZE) as pilot:
        app.theme = "dracula"  # what the palette's "Change theme" does
        await pilot.pause()
        await type_keys(pilot, "s")
        await pilot.pause()
        assert app.screen.query_one("#theme").value == "dracula"  # not the old theme
        await type_keys(pilot, "escape")
        await type_keys(pilot, "q")
    saved, _notice = load(config)
    # The theme is kept; this session's --opponent (and the mode it implies) is not.
    assert saved == Settings(mode="humans", opponent="greedy", theme="dracula")


async def test_corrupt_settings_file_gives_defaults_and_a_notice(tmp_path, make_app):
    config = tmp_path / "corrupt"
    config.mkdir()
    (config / "settings.json").write_text("{ this is not json")
    app = make_app(config_dir=config, settings=None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.settings == Settings()
        assert any("using defaults" in n.message for n in notifications(app))
        await type_keys(pilot, "q")


async def test_too_small_terminal_shows_a_message(make_app):
    app = make_app()
    async with app.run_test(size=(60, 18)) as pilot:
        await pilot.pause()
        assert app.screen.has_class("-too-small")
        assert "too small" in str(app.query_one("#too-small").render()).lower()
        assert not app.query_one("#main").display or not app.query_one("#main").visible
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert not app.screen.has_class("-too-small")


async def test_notices_wait_while_the_terminal_is_too_small(make_app):
    # Issue 30 item 28: at 70x20 notices covered the "terminal too small" message.
    app = make_app()
    async with app.run_test(size=(70, 20), notifications=True) as pilot:
        app.notify("A notice that would cover the message")
        await pilot.pause()
        rack = app.screen.query_one("#textual-toastrack")  # Textual's notices
        assert rack.children and not any(notice.display for notice in rack.children)
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert rack.children and all(notice.display for notice in rack.children)


async def test_the_cursor_leaves_a_column_that_fills(make_app):
    # Issue 30 item 28: the cursor stayed on a full column.
    app = make_app(settings=humans())
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, *"444444")
        assert app.game.position.moves == 6 and app.cursor != 3
        assert app.game.position.can_play(app.cursor) and abs(app.cursor - 3) == 1
        assert app.game_screen.board.view.cursor == app.cursor


async def test_every_key_fits_in_the_footer_of_the_smallest_terminal(make_app):
    from textual.widgets._footer import FooterKey

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        # The footer's keys are placed by a later layout pass than the first frame's.
        await until(
            pilot,
            lambda: (
                {"q", "ctrl+p"} <= {key.key for key in app.query(FooterKey) if key.region.width}
            ),
            "the footer's keys laid out",
        )
        keys = {key.key: key.region for key in app.query(FooterKey)}
        # "q Quit" ends before the palette key, docked on the right, begins.
        assert 0 < keys["q"].right <= keys["ctrl+p"].x
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert not app.game_screen.footer.compact  # room enough for the roomier spacing


async def test_the_move_panel_fits_beside_a_tall_thinking_panel_at_80_by_24(make_app):
    settings = Settings(
        opponent="mcts:iterations=300", width=10, height=10, connect=5, theme="textual-dark"
    )
    app = make_app(settings=settings)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_keys(pilot, "5")
        await settle(pilot)
        history = app.game_screen.history
        # Whole, border included, above the footer; the bars give way, the figure stays.
        assert history.region.bottom <= 23, history.region
        assert not history.query_one("#evaluation").display
        assert "wins" in str(history.query_one("#evaluation-label").render())
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert history.query_one("#evaluation").display


async def test_board_scales_with_the_terminal(make_app):
    app = make_app(settings=humans())
    async with app.run_test(size=(80, 24)) as pilot:
        await type_keys(pilot, "4")
        board = app.query_one(Board)
        assert board.disc_size() is MEDIUM  # two rows a disc even in the smallest terminal
        drawing = "".join(board.render_line(y).text for y in range(board.size.height))
        assert "▄█▄" in drawing
        # The mover's disc over the cursor marker stays at the smallest size.
        assert "▼" in drawing and drawing.count("●") + drawing.count("○") == 1
        for size, expected in (((100, 30), ROUND), ((120, 40), BIG), ((200, 60), GIANT)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            assert board.disc_size() is expected, size


async def test_won_and_drawn_games_end_with_a_prompt(make_app):
    app = make_app(settings=humans(), moves="445566")
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "7")
        result = app.game.result()
        assert result is not None and result.winner == 0
        assert app.query_one(Board).view.winning == result.cells
        assert "new game" in status_text(app.match.view()).lower()
        await type_keys(pilot, "1", "2", "3")  # no move after the end, and one notice
        assert len(app.game.moves) == 7
        over = [n for n in notifications(app) if "game is over" in n.message]
        assert len(over) == 1
        board = app.query_one(Board)
        drawing = "".join(board.render_line(y).text for y in range(board.size.height))
        assert outcome_text(app.match.view()) in drawing and "n new game" in drawing, drawing
    app = make_app(settings=humans(), moves=DRAW_MOVES[:-1])
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, DRAW_MOVES[-1])
        assert app.game.position == Position.from_moves(DRAW_MOVES)
        assert app.game.position.is_draw()
        assert "draw" in status_text(app.match.view()).lower()
        await type_keys(pilot, "u")
        assert len(app.game.moves) == len(DRAW_MOVES) - 1


async def test_the_ai_keeps_thinking_and_plays_under_the_help_screen(make_app):
    app = make_app(settings=Settings(opponent="mcts:time=0.6", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "4", "question_mark")
        assert isinstance(app.screen, HelpScreen)
        await settle(pilot)  # progress and the result arrive while help is open
        assert len(app.game.moves) == 2
        await type_keys(pilot, "escape")
        assert app.game_screen.thinking_panel.has_class("-running") is False


async def test_ai_against_ai_plays_a_whole_game(make_app):
    settings = Settings(
        mode="ai-ai", opponent="greedy", second_opponent="random", theme="textual-dark"
    )
    app = make_app(settings=settings)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.game.result() is not None
        assert "new game" in status_text(app.match.view()).lower()


async def test_command_palette_offers_the_main_actions(make_app):
    app = make_app()
    async with app.run_test(size=SIZE):
        titles = {command.title for command in app.get_system_commands(app.screen)}
        assert {"New game", "Undo", "Redo", "Hint", "Settings", "Help"} <= titles


async def test_command_line_choices_override_the_saved_settings(make_app):
    app = make_app(settings=None, opponent="greedy", first="ai")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert (app.settings.opponent, app.settings.first) == ("greedy", "ai")
        assert len(app.game.moves) == 1  # greedy moved first
    # Saved as a two-people or AI-against-AI game: the flags still mean "play this AI".
    for mode in ("humans", "ai-ai"):
        app = make_app(settings=Settings(mode=mode), opponent="greedy", first="ai")
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            assert app.settings.mode == "human-ai"
            assert app.match.sides.name(0) == "Greedy" and app.match.sides.name(1) == "You"
            assert len(app.game.moves) == 1


async def test_settings_by_keyboard_switch_to_ai_against_ai(make_app):
    settings = Settings(opponent="greedy", second_opponent="random", theme="textual-dark")
    app = make_app(settings=settings)
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "s")
        await pilot.pause()
        await type_keys(pilot, "enter", "down", "enter")  # Mode: AI against AI
        await pilot.pause()
        await type_keys(pilot, "ctrl+s")
        await settle(pilot)
        assert app.settings.mode == "ai-ai"
        assert app.game.result() is not None  # greedy and random played it out
    assert load(app.config_dir)[0].mode == "ai-ai"


async def test_settings_form_round_trips_specs_without_changing_them(make_app):
    for spec in (
        "mcts:time=2,c=1.2",
        "negamax:depth=4,noise=0.1",
        "flat:playouts=500",
        "negamax:depth=8,time=1",  # two budgets: the second rides along unseen
        "mcts:time=2,iterations=500,c=1.2,noise=0.25",
    ):
        assert join_spec(*split_spec(spec)) == spec
    app = make_app(settings=Settings(opponent="perfect", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "s")
        await pilot.pause()
        assert app.screen.spec_of("opponent") == "perfect"  # no budget slipped in


async def test_settings_form_keeps_a_second_budget_until_it_is_replaced(make_app):
    app = make_app(settings=Settings(opponent="negamax:depth=8,time=1", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_settings(app, pilot)
        assert screen.spec_of("opponent") == "negamax:depth=8,time=1"
        assert "negamax:depth=8,time=1" in str(screen.query_one("#opponent-spec").render())
        screen.query_one("#opponent-budget").value = "time"  # the form now holds the time
        await pilot.pause()
        assert screen.spec_of("opponent") == "negamax:time=1"
        screen.query_one("#opponent-engine").value = "mcts"
        await pilot.pause()
        assert screen.spec_of("opponent") == "mcts:time=1"  # MCTS's own default, spelled out


async def test_a_new_algorithm_brings_its_own_default_budget(make_app):
    app = make_app(settings=Settings(opponent="random", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_settings(app, pilot)
        budget = screen.query_one("#opponent-budget")
        for engine, spec, kind in (
            ("negamax", "negamax:time=1", "time"),
            ("flat", "flat:time=1", "time"),
            ("perfect", "perfect", "none"),
            ("random", "random", "none"),
            ("mcts", "mcts:time=1", "time"),
        ):
            screen.query_one("#opponent-engine").value = engine
            await pilot.pause()
            assert budget.value == kind, engine
            assert screen.spec_of("opponent") == spec, engine
            assert f"spec: {spec}" in str(screen.query_one("#opponent-spec").render()), engine
        # The "no budget" choice says what it means, never a bare "default".
        screen.query_one("#opponent-engine").value = "negamax"
        await pilot.pause()
        labels = [str(prompt) for prompt, _ in budget._options]
        assert "default (1 s)" in labels, labels


async def test_every_bad_field_of_a_side_is_marked_at_once(make_app):
    app = make_app(settings=Settings(opponent="mcts:time=1", theme="textual-dark"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_settings(app, pilot)
        for field, value in (("amount", "-1"), ("c", "abc"), ("noise", "2")):
            screen.query_one(f"#opponent-{field}").value = value
        screen.query_one("#width").value = "99"
        await pilot.pause()
        for field in ("opponent-amount", "opponent-c", "opponent-noise", "width"):
            assert screen.query_one(f"#{field}").has_class("-invalid"), field
        errors = str(screen.query_one("#opponent-errors").render())
        assert "time=-1" in errors and "c='abc'" in errors and "noise=2" in errors, errors
        assert "Columns" in str(screen.query_one("#game-errors").render())
        assert not screen.query_one("#second_opponent-errors").display
        assert screen.query_one("#save").disabled


async def test_settings_follow_the_mode(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_settings(app, pilot)
        title = lambda side: str(screen.query_one(f"#{side}-title").render())  # noqa: E731
        assert title("opponent") == "Opponent — plays against you"
        assert not screen.query_one("#first").disabled
        assert screen.query_one("#second_opponent-row").disabled
        for mode, first, second in (("ai-ai", False, False), ("humans", True, True)):
            screen.query_one("#mode").value = mode
            await pilot.pause()
            assert screen.query_one("#first").disabled  # nobody chooses who moves first
            assert screen.query_one("#opponent-row").disabled == first, mode
            assert screen.query_one("#second_opponent-row").disabled == second, mode
            assert "against you" not in title("opponent"), mode
        assert "not playing" in title("opponent") and "not playing" in title("second_opponent")


async def test_settings_save_specs_as_the_engines_write_them(make_app):
    app = make_app(settings=Settings(opponent="mcts:time=1", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_settings(app, pilot)
        screen.query_one("#opponent-amount").value = "00.5"  # typed into a field holding 0
        await pilot.pause()
        screen.action_save()
        await pilot.pause()
    assert app.settings.opponent == "mcts:time=0.5"


async def test_ctrl_s_with_a_bad_field_says_why_nothing_was_saved(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_settings(app, pilot)
        screen.query_one("#width").value = "11"
        screen.query_one("#opponent-engine").focus()
        await pilot.pause()
        await type_keys(pilot, "ctrl+s")
        await pilot.pause()
        assert app.screen is screen
        assert any("Not saved: Columns: 11" in n.message for n in notifications(app))
        assert screen.focused is screen.query_one("#width")


async def test_settings_never_say_you_move_first_when_you_do_not_play(make_app):
    """Watching two AIs (or two people playing), the first field says who really starts."""
    watching = Settings(mode="ai-ai", opponent="greedy", theme="textual-dark")
    app = make_app(settings=watching)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_settings(app, pilot)

        def first_field() -> str:
            field = screen.query_one("#first-field")
            shown = [w for w in field.query("*") if all(n.display for n in w.ancestors_with_self)]
            return " ".join(str(w.render()) for w in shown)

        assert "You" not in first_field() and "First AI" in first_field()
        screen.query_one("#mode").value = "humans"
        await pilot.pause()
        assert "You" not in first_field() and "●" in first_field()
        screen.query_one("#mode").value = "human-ai"
        await pilot.pause()
        assert "You" in first_field()


def test_a_hint_fits_the_status_line_of_the_smallest_terminal():
    # Issue 30 item 28: the hint line was cut at 80x24.
    from c4tui.engine.board.game import Game
    from c4tui.match.interface import MatchView
    from c4tui.match.sides import Sides

    view = MatchView(
        game=Game(),
        sides=Sides(None, None),
        names=("Player 1", "Player 2"),
        movers=frozenset((0, 1)),
        paused=False,
        thinking=False,
        search=None,
        hint=3,
        hint_reason="win in 7, by the perfect player",
        over=False,
        winner=None,
        how=None,
        evaluations=(),
        evaluator=None,
    )
    assert status_text(view) == "Hint: column 4, win in 7, by the perfect player"
    assert status_text(view, 36) == "Hint: column 4, win in 7"


async def test_a_finished_game_between_two_engines_offers_no_pause_or_step(make_app):
    """The engines have nothing left to play: Pause and Step leave the key bar."""
    watching = Settings(mode="ai-ai", opponent="greedy", theme="textual-dark")
    app = make_app(settings=watching, moves="4455667")  # ● has four in a row
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.match.over
        shown = {b.binding.description for b in app.screen.active_bindings.values()}
        assert not {"Pause", "Go on", "Step"} & shown


async def test_settings_left_unchanged_keep_the_ai_panel(make_app):
    """Escape out of the settings changes nothing: the AI's last search stays on show."""
    app = make_app(settings=Settings(opponent="greedy", theme="textual-dark"))
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "4")
        await settle(pilot)
        shown = app.match.view().search
        assert shown is not None and shown.info is not None
        await open_settings(app, pilot)
        await type_keys(pilot, "escape")
        await settle(pilot)
        assert app.match.view().search == shown


def test_the_status_line_fits_the_narrow_board_panel_whole():
    # At 80x24 the status line has 36 characters: "You win with ●!   n: new game · v:
    # revie…" was cut mid-word; a shorter form says the keys whole.
    from dataclasses import replace

    from c4tui.app.status_words import status_text
    from c4tui.engine.board.game import Game
    from c4tui.match.interface import MatchView
    from c4tui.match.sides import Sides

    view = MatchView(
        game=Game(),
        sides=Sides(None, "level:4"),
        names=("You", "Level 4"),
        movers=frozenset((0,)),
        paused=False,
        thinking=False,
        search=None,
        hint=None,
        hint_reason="",
        over=True,
        winner=0,
        how="line",
        evaluations=(),
        evaluator=None,
    )
    assert status_text(view) == "You win with ●!   n: new game · v: review it"
    assert status_text(view, 36) == "You win with ●!  n: new · v: review"
    thinking = replace(view, over=False, winner=None, how=None, thinking=True)
    thinking = replace(thinking, game=Game.from_moves("4"))
    assert status_text(thinking) == "Level 4 ○ is thinking…   (m: move now)"
    assert status_text(thinking, 36) == "Level 4 ○ is thinking… (m: now)"
