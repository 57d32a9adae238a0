"""What a redraw paints: only what changed, so a served client's move costs little.

Each served player runs a client process whose CPU per move limits how many players a
machine holds (docs/deployment.md). These tests pin the savings: the board repaints
only its changed lines, the key bar keeps its keys, the screen-reader lines are not laid
out while hidden, the room panel and the clock repaint only new words. The board's
check also compares the screen with what a full repaint shows.
"""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from c4tui.app.reader.log import ReaderLog
from c4tui.app.reader.switch import set_reading
from c4tui.app.screens.lobby import LobbyScreen
from c4tui.app.widgets.board import Board
from c4tui.app.widgets.clock import GameClock
from c4tui.app.widgets.history import MoveList
from c4tui.app.widgets.key_bar import KeyBar
from c4tui.match.room_view import ClockView
from tests.app.showcase import humans, settle, type_keys, until
from tests.app.test_lobby_rows import two_public_rooms
from tests.app.test_served import served_app, service  # noqa: F401  # a fixture
from tests.rooms.support import login, room_where

SIZE = (120, 40)


def painted(widget: Widget) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
    """Record the widget's refresh calls from now on: (regions, options) each."""
    calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    refresh = widget.refresh

    def recorded(*regions: Any, **options: Any) -> Widget:
        calls.append((regions, options))
        return refresh(*regions, **options)

    widget.refresh = recorded  # type: ignore[method-assign]
    return calls


async def test_a_cursor_step_repaints_only_the_lines_it_changes(make_app):
    app = make_app(settings=humans(), moves="4453")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = app.query_one(Board)
        calls = painted(board)
        await type_keys(pilot, "right")
        await settle(pilot)
        assert calls and all(regions for regions, _ in calls)  # never the whole board
        lines = {y for regions, _ in calls for r in regions for y in r.line_range}
        assert 1 <= len(lines) <= 2  # the disc over the cursor and its arrow
        partly = app.export_screenshot()
        board.refresh()
        await settle(pilot)
        assert app.export_screenshot() == partly  # no line left as it was
        calls.clear()
        await type_keys(pilot, "1")  # a move: the cursor's lines, the cell, the last mark
        await until(pilot, lambda: app.game.moves[-1:] == (0,), "the move played")
        await settle(pilot)
        assert all(regions for regions, _ in calls)
        partly = app.export_screenshot()
        board.refresh()
        await settle(pilot)
        assert app.export_screenshot() == partly


@pytest.mark.slow  # over 0.3 s of CPU (an app)
async def test_a_cursor_step_tells_the_board_and_draws_nothing_else(make_app):
    """A player steps to a column before each drop: the match's view, the move list
    and the panels are the same after the step, and drawing them cost a move's worth."""
    app = make_app(settings=humans(), moves="4453")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.game_screen
        shown: list[object] = []
        screen.history.show = lambda *args: shown.append(args)  # type: ignore[method-assign]
        screen.thinking_panel.show = shown.append  # type: ignore[method-assign]
        await type_keys(pilot, "right", "right", "left")
        await settle(pilot)
        assert shown == []
        assert screen.cursor == 4
        assert app.query_one(Board).view.cursor == 4


@pytest.mark.slow  # over 0.3 s of CPU (an app)
async def test_a_cursor_step_works_out_only_the_lines_the_board_made_anew(make_app):
    """The board hands over the rows it kept as the same objects: what each looks like
    (its words and styles) is not worked out again to see that it has not changed."""
    app = make_app(settings=humans(), moves="4453")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = app.query_one(Board)
        faced: list[object] = []
        face = board._face
        board._face = lambda placed, line: (faced.append(line), face(placed, line))[1]  # type: ignore[method-assign]
        await type_keys(pilot, "right")
        await settle(pilot)
        made = len(board.drawing()[0])
        assert faced and len(faced) <= made - 6 * 4  # not one of the six rows of 4 lines
        partly = app.export_screenshot()
        board._strips_key, board._texts, board._drawn = None, [], []  # every line anew
        board.refresh()
        await settle(pilot)
        assert app.export_screenshot() == partly


@pytest.mark.slow  # over 0.3 s of CPU (an app)
async def test_a_paint_of_the_board_renders_no_line_of_the_panels_around_it(make_app):
    """Textual renders whole every container a paint reaches: those with nothing of
    their own to draw are blank lines at once, not lines through a style cache."""
    app = make_app(settings=humans(), moves="4453")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        rendered: list[str] = []
        for area in ("#main", "#play", "#side"):
            widget = app.game_screen.query_one(area)
            cache = widget._styles_cache
            render = cache.render_widget
            cache.render_widget = lambda *a, _n=area, _r=render: (rendered.append(_n), _r(*a))[1]  # type: ignore[method-assign]
        await type_keys(pilot, "right")
        await settle(pilot)
        assert app.game_screen.cursor == 4 and rendered == []


class Keys(Screen[None]):
    """Keys that come and go with `shown`, like a room's with the turn; those also in
    `dimmed` are shown dimmed, as a player's Drop while the other side moves."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "drop", "Drop"),
        Binding("u", "take_back", "Take back"),
        Binding("c", "say", "Say"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, bar: Footer) -> None:
        super().__init__()
        self.bar = bar
        self.shown = {"drop", "say", "quit"}
        self.dimmed: set[str] = set()

    def compose(self) -> ComposeResult:
        yield self.bar

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.dimmed:
            return None
        return action in self.shown

    def turn(self, shown: set[str], dimmed: set[str] | None = None) -> None:
        self.shown, self.dimmed = shown, dimmed or set()
        self.refresh_bindings()

    def action_drop(self) -> None: ...
    def action_take_back(self) -> None: ...
    def action_say(self) -> None: ...


def faces(bar: Footer) -> list[tuple[str, str, bool]]:
    """Each key on show: its key, its words, and whether it is drawn dimmed."""
    return [
        (key.key_display, key.description, drawn_dim(key))
        for key in bar.query(FooterKey)
        if key.display
    ]


def drawn_dim(key: FooterKey) -> bool:
    parts = [s for s in key.render().render(key.app.console) if s.text.strip()]
    return all(s.style is not None and s.style.dim for s in parts)


def restyles(app: App[None]) -> list[object]:
    """Record the nodes whose styles the app works out again from now on."""
    restyled: list[object] = []
    update_styles = app.update_styles

    def recorded(node: Any, animate: bool = True) -> None:
        restyled.append(node)
        update_styles(node, animate)

    app.update_styles = recorded  # type: ignore[method-assign]
    return restyled


def left_for_after_the_paint(widget: Widget) -> list[object]:
    """Record what the widget leaves to do after the screen's next paint, from now on."""
    left: list[object] = []
    call_after_refresh = widget.call_after_refresh

    def recorded(*what: Any) -> bool:
        left.append(what)
        return call_after_refresh(*what)

    widget.call_after_refresh = recorded  # type: ignore[method-assign]
    return left


async def test_the_key_bar_shows_what_a_footer_shows_and_keeps_its_keys():
    turns = [
        {"take_back", "say", "quit"},
        {"drop", "take_back", "say", "quit"},
        {"say", "quit"},
        {"drop", "say", "quit"},
        ({"drop", "say", "quit"}, {"drop"}),
        {"drop", "say", "quit"},
        {"take_back", "say", "quit"},
    ]
    shown: dict[str, list[list[tuple[str, str, bool]]]] = {}
    kept: list[Widget] = []
    for bar in (Footer(), KeyBar()):
        app: App[None] = App()
        async with app.run_test(size=SIZE) as pilot:
            screen = Keys(bar)
            await app.push_screen(screen)
            await pilot.pause()
            seen = [faces(bar)]
            restyled = restyles(app)
            later = left_for_after_the_paint(bar)
            for index, turn in enumerate(turns):
                keys, dimmed = turn if isinstance(turn, tuple) else (turn, set())
                restyled.clear()
                later.clear()
                screen.turn(keys, dimmed)
                screen.turn(keys, dimmed)  # twice at once: no key twice
                await pilot.pause()
                await pilot.pause()
                seen.append(faces(bar))
                if isinstance(bar, KeyBar) and index in (4, 5):  # Drop dimmed, then lit
                    assert restyled == []  # dimmed and lit by drawing: no stylesheet
                    assert later == []  # in the paint of the change, not one after it
                if not kept and isinstance(bar, KeyBar) and index == 1:
                    kept = list(bar.query(FooterKey))  # every key has been shown once
            shown[type(bar).__name__] = seen
            if isinstance(bar, KeyBar):
                assert list(bar.query(FooterKey)) == kept  # none built again
    assert shown["KeyBar"] == shown["Footer"]
    assert ("⏎", "Drop", True) in shown["KeyBar"][5]  # dimmed, and drawn so
    assert [d for _, d, _ in shown["KeyBar"][1]] == ["Take back", "Say", "Quit", "palette"]


async def test_the_reader_lines_wait_hidden_until_the_mode_is_on(make_app):
    app = make_app(settings=humans())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        lines = app.screen.query_one(ReaderLog)
        calls = painted(lines)
        await type_keys(pilot, "4", "4")
        await settle(pilot)
        assert app.spoken.lines[-1] == "your move, ●"
        assert calls == []  # nothing laid out while nobody sees it
        set_reading(app, True)
        await settle(pilot)
        assert "your move, ●" in str(lines.render())


def test_the_clock_repaints_only_when_its_words_change():
    clock = GameClock()
    updates: list[bool] = []
    clock.update = lambda text, *, layout=True: updates.append(layout)  # type: ignore[method-assign,assignment,misc]
    stopped = ClockView("5+3", "5+3 blitz", (300.0, 300.0), None, 0.0)
    clock.show(stopped, ("ann", "bob"))
    for _ in range(10):  # a second of ticks, nobody's time running
        clock._tick()
    assert updates == [True]  # laid out once, when it first shows
    clock.show(ClockView("5+3", "5+3 blitz", (299.0, 300.0), None, 0.0), ("ann", "bob"))
    assert updates == [True, False]  # new words on the same one line


async def test_a_redraw_with_nothing_new_repaints_nothing_of_the_room(service):  # noqa: F811
    app = served_app(service)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await pilot.press("r")
        await until(pilot, lambda: app.screen is app.room_screen and app.match.room, "a room")
        await pilot.pause()
        panel = app.room_panel
        calls = painted(panel), painted(panel.seats), painted(app.room_screen.board)
        for _ in range(3):
            app.room_screen.draw()
        await pilot.pause()
        assert calls == ([], [], [])


async def with_bob(pilot: Any, app: Any, service: Any) -> Any:  # noqa: F811
    """The app's player opens a room from the lobby and bob takes its other seat: bob's
    connection."""
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    await pilot.press("r")
    await until(pilot, lambda: app.screen is app.room_screen and app.match.room, "a room")
    bob = await login(service, "bob")
    await bob.send("join", code=app.match.room.code)
    await until(pilot, lambda: not app.match.room.alone(), "bob in the room")
    return bob


@pytest.mark.slow  # over 0.3 s of CPU (a served app or two players)
async def test_a_move_draws_the_room_once_for_the_opponent_and_once_for_the_movers_key(
    service,  # noqa: F811
):
    """One draw per event: the room the server sends back, and the mover's key (its
    cursor may have moved), never a second draw of the same change."""
    app = served_app(service)
    async with app.run_test(size=SIZE) as pilot:
        bob = await with_bob(pilot, app, service)
        await pilot.pause()
        screen = app.room_screen
        draws: list[int] = []  # the moves on the board at each draw
        draw = screen.draw

        def counted() -> None:
            draws.append(len(app.match.room.position.path))
            draw()

        screen.draw = counted  # type: ignore[method-assign]
        await pilot.press("4")  # ann's move, shown when the room comes back
        await until(pilot, lambda: app.match.room.position.path == (3,), "ann's move back")
        await room_where(bob, lambda m: m["moves"] == "4")
        await pilot.pause()
        assert draws == [0, 1]  # the key, then the room with the move
        draws.clear()
        await bob.send("drop", column=2, ply=1)
        await until(pilot, lambda: app.match.room.position.path == (3, 2), "bob's move")
        await pilot.pause()
        assert draws == [2]
        await bob.close()


@pytest.mark.slow  # over 0.3 s of CPU (a served app or two players)
async def test_a_move_repaints_only_the_move_lists_lines_it_changes(make_app):
    app = make_app(settings=humans(), moves="445362")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        moves = app.query_one(MoveList)
        calls = painted(moves)
        await type_keys(pilot, "1")  # 4. ● 1: the fourth round's line, and the third's mark
        await until(pilot, lambda: app.game.moves[-1:] == (0,), "the move played")
        await settle(pilot)
        assert calls and all(regions for regions, _ in calls), calls  # never the whole list
        lines = {y for regions, _ in calls for r in regions for y in r.line_range}
        assert lines == {2, 3}
        partly = app.export_screenshot()
        moves.refresh()
        await settle(pilot)
        assert app.export_screenshot() == partly  # no line left as it was
        assert moves.parent is not None
        panel = painted(moves.parent)
        calls.clear()
        await type_keys(pilot, "2")  # ○ 2 on the same line as ● 1
        await until(pilot, lambda: app.game.moves[-1:] == (1,), "the move played")
        await settle(pilot)
        assert {y for regions, _ in calls for r in regions for y in r.line_range} == {3}
        # The frame's title and move string: its top and bottom lines, not the panel.
        assert panel and all(regions for regions, _ in panel), panel
        frame = {y for regions, _ in panel for r in regions for y in r.line_range}
        height, top = moves.parent.outer_size.height, moves.parent.content_offset.y
        assert frame == {-top, height - 1 - top}
        partly = app.export_screenshot()
        moves.parent.refresh()
        await settle(pilot)
        assert app.export_screenshot() == partly


@pytest.mark.slow  # over 0.3 s of CPU (a served app or two players)
async def test_a_players_drop_key_is_dimmed_not_hidden_while_the_other_side_moves(
    service,  # noqa: F811
):
    """A key that comes and goes lays the whole screen out again: at every move."""
    app = served_app(service)
    async with app.run_test(size=SIZE) as pilot:
        bob = await with_bob(pilot, app, service)
        bar = app.room_screen.footer

        def drop_key() -> FooterKey:
            return next(k for k in bar.query(FooterKey) if k.action == "drop_at_cursor")

        def dimmed() -> bool:
            return drawn_dim(drop_key())

        await pilot.press("4")  # the first moves bring keys of their own (take back)
        await until(pilot, lambda: app.match.room.position.path == (3,), "ann's move back")
        await bob.send("drop", column=2, ply=1)
        await until(pilot, lambda: app.match.room.position.path == (3, 2), "bob's move")
        await until(pilot, lambda: drop_key().display and not dimmed(), "⏎ Drop")
        calls = [painted(key) for key in bar.query(FooterKey)]
        # Dimmed and lit as the room is drawn, so painted with it (not in a paint after).
        screen, drawn = app.room_screen, []
        draw = screen.draw

        def draw_and_look() -> None:
            draw()
            drawn.append((dimmed(), screen.match.view().moves_now()))

        screen.draw = draw_and_look  # type: ignore[method-assign]
        await pilot.press("4")
        await until(pilot, lambda: len(app.match.room.position.path) == 3, "ann's move back")
        await until(pilot, dimmed, "⏎ Drop dimmed")
        assert drop_key().display  # still there, dimmed: bob's turn
        await bob.send("drop", column=2, ply=3)
        await until(pilot, lambda: not dimmed(), "⏎ Drop lit again")
        assert not [options for made in calls for _, options in made if options.get("layout")]
        assert drawn and all(dim == (not mine) for dim, mine in drawn), drawn
        await bob.close()


def falls_asked(board: Board) -> list[bool]:
    """Record whether each position the board is handed is asked to fall."""
    asked: list[bool] = []
    follow = board._falls.follow

    def recorded(position: Any, now: float, *, animate: bool) -> None:
        asked.append(animate)
        follow(position, now, animate=animate)

    board._falls.follow = recorded  # type: ignore[method-assign]
    return asked


@pytest.mark.slow  # over 0.3 s of CPU (a served app and two players)
async def test_discs_land_at_once_for_a_player_too_unless_chosen(service):  # noqa: F811
    """A fall's frames cost a player's client half its CPU a move (docs/deployment.md),
    and a spectator's as much: discs fall for whoever chose them in the palette."""
    app = served_app(service)
    # As a person's session starts (served_app's is steady: nothing moves by itself).
    app.steady, app.animation_level = False, "full"
    async with app.run_test(size=SIZE) as pilot:
        bob = await with_bob(pilot, app, service)
        asked = falls_asked(app.room_screen.board)
        await pilot.press("4")
        await until(pilot, lambda: app.match.room.position.path == (3,), "ann's move back")
        await bob.send("drop", column=2, ply=1)
        await until(pilot, lambda: app.match.room.position.path == (3, 2), "bob's move")
        await pilot.pause()
        assert asked and not any(asked)
        app.looks.toggle_animation()  # chosen in the palette: falling discs
        await pilot.press("4")
        await until(pilot, lambda: len(app.match.room.position.path) == 3, "ann's move back")
        await pilot.pause()
        assert asked[-1]
        await bob.close()


@pytest.mark.slow  # over 0.3 s of CPU (an app)
async def test_a_move_makes_again_only_the_board_rows_it_changes(make_app):
    app = make_app(settings=humans(animation=False), moves="4453")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = app.query_one(Board)
        made: list[object] = []
        row_lines = board._row_lines

        def counted(cells: Any, *rest: Any) -> Any:
            made.append(cells)
            return row_lines(cells, *rest)

        board._row_lines = counted  # type: ignore[method-assign]
        await type_keys(pilot, "1")  # the bottom row's new disc; the last mark leaves row 2
        await until(pilot, lambda: app.game.moves[-1:] == (0,), "the move played")
        await settle(pilot)
        assert 1 <= len(made) <= 2
        partly = app.export_screenshot()
        board._rows.clear()  # every row made again: the same board
        board.refresh()
        board._strips_key = None
        await settle(pilot)
        assert app.export_screenshot() == partly


@pytest.mark.slow  # an app or a service run: about 1 s
async def test_a_seat_taken_in_the_lobby_repaints_that_rooms_row_alone(service):  # noqa: F811
    """A lobby client is told of every room whose seats or watchers change: the table
    repaints the changed row's lines (DataTable's own cell update repaints every row),
    and the online line, the same words, is neither repainted nor laid out again."""
    bob, cy, dan, made = await two_public_rooms(service)
    app = served_app(service)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        lobby = app.lobby_screen
        await until(pilot, lambda: len(lobby.rooms) == 2, "both rooms listed")
        await pilot.pause()
        table = lobby.query_one("#rooms")
        row = table._get_row_region(0)  # the first room's lines, as the table places them
        rendered: list[int] = []  # the table's lines rendered again, by y
        render_line = table.render_line

        def recorded(y: int) -> Any:
            rendered.append(y)
            return render_line(y)

        table.render_line = recorded
        online = painted(lobby.query_one("#online"))
        await dan.send("join", code=made["code"])
        await until(pilot, lambda: lobby.rooms[0].players[1] is not None, "dan seated")
        await pilot.pause()
        assert rendered and set(rendered) <= set(row.line_range)  # not the other rows
        assert online == []
        partly = app.export_screenshot()
        table.refresh()
        await pilot.pause()
        assert app.export_screenshot() == partly  # the row shows what a full repaint does
    for person in (bob, cy, dan):
        await person.close()


@pytest.mark.slow  # an app or a service run: about 1 s
async def test_someone_coming_online_repaints_the_online_line_without_a_layout(service):  # noqa: F811
    """The online line is one line cut to its width: new words are painted in place,
    with no layout pass of the whole lobby screen."""
    app = served_app(service)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        lobby = app.lobby_screen
        await until(pilot, lambda: lobby.match.lobby.online == ("ann",), "ann online")
        await pilot.pause()
        online = painted(lobby.query_one("#online"))
        bob = await login(service, "bob")
        await until(pilot, lambda: "bob" in lobby.match.lobby.online, "bob online")
        await pilot.pause()
        assert online and not any(options.get("layout") for _, options in online)
        assert "Online (2): ann, bob" in str(lobby.query_one("#online").render())
        await bob.close()
