"""The classic board style: round holes in a solid frame at every disc size, the setting
that chooses it (form, palette, file), and the modern board under NO_COLOR."""

from __future__ import annotations

import pytest
from rich.color import Color
from rich.console import Console

from c4tui.app.settings import Settings, load
from c4tui.app.widgets.board import Board
from c4tui.app.widgets.classic import Paints, classic_cell
from c4tui.app.widgets.disc_sizes import COMPACT, SIZES
from tests.app.showcase import open_settings

PAINTS = Paints(
    frame=Color.parse("#0000ff"),
    hole=Color.parse("#000000"),
    discs=(Color.parse("#ff0000"), Color.parse("#ffff00")),
    ring_centre=Color.parse("#808000"),
    star=Color.parse("#101010"),
    last=Color.parse("#ffffff"),
)


def pixels(lines) -> list[list[Color]]:
    """The colour of each half-character pixel of a classic cell, top to bottom."""
    rows = []
    for line in lines:
        top, bottom = [], []
        for segment in line.render(Console()):
            for char in segment.text:
                style = segment.style
                upper = style.color if char == "▀" else style.bgcolor
                top.append(upper)
                bottom.append(style.bgcolor)
        rows += [top, bottom]
    return rows


@pytest.mark.parametrize("size", [s for s in SIZES if s is not COMPACT], ids=lambda s: str(s.width))
def test_every_size_has_a_round_hole_inside_a_frame(size):
    grid = pixels(classic_cell(size, None, PAINTS))
    assert len(grid) == 2 * size.height and {len(row) for row in grid} == {size.width}
    hole = [(x, y) for y, row in enumerate(grid) for x, c in enumerate(row) if c == PAINTS.hole]
    assert hole and set(c for row in grid for c in row) == {PAINTS.frame, PAINTS.hole}
    # A pixel of frame left, right and above every hole; mirror-symmetric left to right.
    assert all(0 < x < size.width - 1 and y > 0 for x, y in hole)
    assert all(row == row[::-1] for row in grid)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: str(s.width))
def test_the_discs_differ_by_shape_too(size):
    first = classic_cell(size, 0, PAINTS)
    second = classic_cell(size, 1, PAINTS)
    if size is COMPACT:
        assert (first[0].plain, second[0].plain) == (" ● ", " ◉ ")
        return
    colours = {c for row in pixels(second) for c in row}
    assert PAINTS.ring_centre in colours and PAINTS.discs[1] in colours  # a ring
    assert PAINTS.ring_centre not in {c for row in pixels(first) for c in row}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: str(s.width))
def test_the_winning_four_carry_a_star_and_the_last_disc_its_marks(size):
    won = "".join(line.plain for line in classic_cell(size, 0, PAINTS, win=True))
    assert ("★" in won) if size is not COMPACT else ("[" in won and "]" in won)
    last = [line.plain for line in classic_cell(size, 1, PAINTS, last=True)]
    assert any(line.startswith("›") and line.endswith("‹") for line in last)


def classic() -> Settings:
    return Settings(mode="humans", theme="textual-dark", board_style="classic")


def board_text(app) -> str:
    board = app.query_one(Board)
    return "\n".join(board.render_line(y).text for y in range(board.size.height))


def frame_painted(app) -> bool:
    board = app.query_one(Board)
    frame = board._paints().frame
    return any(
        segment.style is not None and segment.style.bgcolor == frame
        for y in range(board.size.height)
        for segment in board.render_line(y)
    )


async def test_the_classic_board_fills_its_frame_at_every_terminal_size(make_app):
    for size in ((80, 24), (120, 40), (200, 60)):
        app = make_app(settings=classic(), moves="4453")
        async with app.run_test(size=size):
            board = app.query_one(Board)
            assert board.disc_size() is not None
            assert frame_painted(app), size
            assert "╭" not in board_text(app)  # no modern frame


async def test_no_color_keeps_the_modern_board(make_app):
    app = make_app(settings=classic(), moves="4453")
    app.no_color = True  # as NO_COLOR in the environment sets it
    async with app.run_test(size=(120, 40)):
        assert not frame_painted(app)
        assert "╭" in board_text(app)


async def test_board_style_and_falling_discs_round_trip_through_form_and_palette(make_app):
    from c4tui.app.screens.settings_form import SettingsScreen

    app = make_app(settings=Settings(mode="humans", theme="textual-dark"))
    async with app.run_test(size=(120, 40)) as pilot:
        assert not frame_painted(app)
        screen = await open_settings(app, pilot)
        assert isinstance(screen, SettingsScreen)
        assert screen.query_one("#board_style").value == "modern"
        assert screen.query_one("#animation").value == "on"
        screen.query_one("#board_style").value = "classic"
        screen.query_one("#animation").value = "off"  # falling discs, in the same form
        await pilot.pause()
        screen.action_save()
        await pilot.pause()
        assert (app.settings.board_style, app.settings.animation) == ("classic", False)
        saved = load(app.config_dir)[0]
        assert (saved.board_style, saved.animation) == ("classic", False)
        assert frame_painted(app)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Board style: modern" in titles
        app.looks.toggle_board_style()  # the palette's command
        await pilot.pause()
        assert load(app.config_dir)[0].board_style == "modern"
        assert not frame_painted(app)


def test_an_unknown_board_style_in_the_file_gives_defaults_and_a_notice(tmp_path):
    (tmp_path / "settings.json").write_text('{"board_style": "wood"}')
    settings, notice = load(tmp_path)
    assert settings == Settings() and notice is not None and "board_style" in notice


def test_a_marker_row_centres_each_marked_columns_glyph_over_its_cell():
    from rich.style import Style

    from c4tui.app.widgets.board import marker_row

    bold = Style(bold=True)
    row = marker_row({1: ("▼", bold)}, 3, 5)
    assert row.plain == " " + " " * 5 + "  ▼  " + " " * 5
    assert [span.style for span in row.spans] == [bold]
    assert marker_row({}, 2, 3).plain == " " * 7
