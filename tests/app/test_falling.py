"""Falling discs: the rows a dropped disc is drawn in, a key that lands it, an undo that
forgets it, and the settings that turn it off."""

from __future__ import annotations

import pytest

from c4tui.app.settings import Settings
from c4tui.app.widgets import falling as falling_module
from c4tui.app.widgets.board import Board
from c4tui.app.widgets.falling import FULL_FALL, Falls
from c4tui.engine.board.position import Position
from tests.app.showcase import type_keys, until

SIZE = (120, 40)
ROW_TIME = FULL_FALL / 5  # a 7x6 board: five rows from the top to the bottom


def test_a_dropped_disc_passes_every_row_down_to_its_cell():
    falls = Falls()
    start = Position.from_moves("44")
    falls.follow(start, 0.0, animate=True)
    after = start.play(3)  # lands in row 2 (0 = bottom)
    falls.follow(after, 10.0, animate=True)
    (fall,) = falls.now(10.0)
    assert (fall.column, fall.row, fall.player) == (3, 2, 0)  # column 4, row 3, ●
    rows = [[f.shown for f in falls.now(10.0 + k * ROW_TIME + 1e-6)] for k in range(5)]
    assert rows == [[5], [4], [3], [], []]


def test_only_the_newest_of_several_new_discs_falls():
    falls = Falls()
    falls.follow(Position.start(), 0.0, animate=True)
    falls.follow(Position.from_moves("45"), 0.0, animate=True)  # a redo of two moves
    assert [(f.column, f.row, f.player) for f in falls.now(0.0)] == [(4, 0, 1)]


def test_undo_new_game_or_animation_off_end_every_fall():
    for taken_back in (Position.from_moves("4"), Position.start(), Position.start(8, 7, 4)):
        falls = Falls()
        falls.follow(Position.from_moves("4"), 0.0, animate=True)
        falls.follow(Position.from_moves("44"), 0.0, animate=True)
        assert falls.now(0.0)
        falls.follow(taken_back, 0.0, animate=True)
        assert falls.now(0.0) == ()  # the undone disc is never drawn again
    falls = Falls()
    falls.follow(Position.start(), 0.0, animate=False)
    falls.follow(Position.from_moves("4"), 0.0, animate=False)
    assert falls.now(0.0) == ()


def test_a_disc_dropped_into_the_top_row_does_not_fall():
    falls = Falls()
    falls.follow(Position.from_moves("44444"), 0.0, animate=True)
    falls.follow(Position.from_moves("444444"), 0.0, animate=True)
    assert falls.now(0.0) == ()


@pytest.fixture
def slow_fall(monkeypatch):
    """Falls of a thousand seconds: no loaded machine lets a disc leave its first row
    before the test looks (five seconds, a second a row, were outlived on a fresh clone)."""
    monkeypatch.setattr(falling_module, "FULL_FALL", 1000.0)


def animated(make_app, moves: str = "", **options):
    app = make_app(settings=Settings(mode="humans", theme="textual-dark", **options), moves=moves)
    app.animation_level = "full"  # steady mode turns animation off, as snapshots need
    return app


def falling(app) -> list[tuple[int, int, int]]:
    return [(f.column, f.row, f.shown) for f in app.query_one(Board)._falling]


async def test_the_disc_falls_while_the_game_has_it_at_once(make_app, slow_fall):
    app = animated(make_app)
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "4")
        assert app.game.moves == (3,)  # the move did not wait for the drawing
        assert falling(app) == [(3, 0, 5)]
        board = app.query_one(Board)
        drawn = [y for y in range(board.size.height) if "█" in board.render_line(y).text]
        assert drawn and max(drawn) < board.size.height // 2  # in the top row, not the bottom


async def test_the_disc_lands_by_itself(make_app):
    app = animated(make_app)
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "4")
        await until(pilot, lambda: falling(app) == [], "the disc landing by itself")
        assert app.query_one(Board)._fall_timer is None  # no ticking once it landed


async def test_a_key_lands_the_disc_at_once_and_still_acts(make_app, slow_fall):
    app = animated(make_app)
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "4")
        assert falling(app)
        await type_keys(pilot, "right")
        assert falling(app) == []
        assert app.cursor == 4
        await type_keys(pilot, "4", "5")  # each drop lands the one before it
        assert app.game.moves == (3, 3, 4)
        assert [f[:2] for f in falling(app)] == [(4, 0)]


async def test_undo_during_the_fall_never_draws_the_undone_disc(make_app, slow_fall):
    app = animated(make_app)
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "4", "u")
        board = app.query_one(Board)
        assert app.game.moves == ()
        assert falling(app) == []
        board._next_frame()  # a late tick of the old fall's timer draws nothing
        assert board._falling == ()
        assert not any("█" in board.render_line(y).text for y in range(board.size.height))


async def test_redo_drops_the_disc_again(make_app, slow_fall):
    app = animated(make_app)
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "4", "u")
        await type_keys(pilot, "r")
        assert app.game.moves == (3,)
        assert [f[:2] for f in falling(app)] == [(3, 0)]


async def test_no_fall_when_the_setting_or_textual_says_so(make_app):
    app = animated(make_app, animation=False)
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "4")
        assert falling(app) == []
    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    app.animation_level = "basic"  # TEXTUAL_ANIMATIONS=basic: no motion that delays
    async with app.run_test(size=SIZE) as pilot:
        await type_keys(pilot, "4")
        assert falling(app) == []


async def test_the_palette_turns_falling_discs_off_and_on_and_keeps_it(make_app):
    # The settings form's field: tests/app/test_classic.py saves it with the board style.
    from c4tui.app.settings import load

    app = animated(make_app)
    async with app.run_test(size=SIZE) as pilot:
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Falling discs" in titles
        app.looks.toggle_animation()
        assert load(app.config_dir)[0].animation is False
        await type_keys(pilot, "4")
        assert falling(app) == []
        app.looks.toggle_animation()
        assert load(app.config_dir)[0].animation is True


def test_a_falling_discs_setting_that_is_not_true_or_false_is_refused(tmp_path):
    from c4tui.app.settings import load

    (tmp_path / "settings.json").write_text('{"animation": "yes"}')
    settings, notice = load(tmp_path)
    assert settings == Settings() and notice is not None and "animation" in notice


async def test_the_result_waits_for_the_winning_disc_to_land(make_app, slow_fall):
    app = animated(make_app, moves="445566")
    async with app.run_test(size=SIZE) as pilot:
        board = app.query_one(Board)
        await type_keys(pilot, "7")  # ● wins with 4 5 6 7 on the bottom row
        assert app.game.position.is_over()
        text = "".join(board.render_line(y).text for y in range(board.size.height))
        assert "wins" not in text and "★" not in text
        await type_keys(pilot, "left")  # any key lands it
        text = "".join(board.render_line(y).text for y in range(board.size.height))
        assert "wins" in text and "★" in text
