"""Colour is never the only carrier of meaning: the focused field, a ticked box and the
chosen column are told apart by shape or text style, in both modes."""

from __future__ import annotations

from textual.widgets import Input, Select

from c4tui.app.reader.words import column_line
from c4tui.app.widgets.board import Board
from c4tui.app.widgets.tick_box import ON_MARK, TickBox
from tests.app.showcase import humans, open_settings, settle, type_keys


def underlined(style) -> bool:
    return bool(style.underline) and bool(style.bold)


async def test_the_focused_field_is_bold_and_underlined_not_only_tinted(make_app):
    app = make_app(settings=humans())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        form = await open_settings(app, pilot)
        mode = form.query_one("#mode", Select)
        first = form.query_one("#first", Select)
        mode.focus()
        await pilot.pause()
        current = mode.query_one("SelectCurrent")
        assert underlined(current.rich_style)
        assert not underlined(first.query_one("SelectCurrent").rich_style)
        width = form.query_one("#width", Input)
        width.focus()
        await pilot.pause()
        assert underlined(width.rich_style)
        assert not underlined(current.rich_style)


async def test_a_focused_tick_box_is_underlined_and_a_ticked_one_says_so(make_app):
    app = make_app(settings=humans())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        form = await open_settings(app, pilot)
        box = TickBox("Example", id="example")
        await form.mount(box)
        box.focus()
        await pilot.pause()
        assert underlined(box.get_component_rich_style("toggle--label"))
        assert ON_MARK not in str(box.render())
        box.value = True
        await pilot.pause()
        assert ON_MARK in str(box.render())


async def test_the_chosen_column_is_a_glyph_on_the_board_and_words_in_lines(make_app):
    app = make_app(settings=humans())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await type_keys(pilot, "right")
        board = app.query_one(Board)
        assert board.view is not None and board.view.cursor == 4
        shown = app.export_screenshot()
        assert "▼" in shown  # the chosen column's marker, a shape above it
        assert column_line(app.game.position, 4) == "column 5: empty, room for 6"
