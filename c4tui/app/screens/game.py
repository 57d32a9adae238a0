"""GameScreen: the one game screen, for a game of one's own and for every seat of a room.

It talks to its match only through the match interface (c4tui/match/interface.py): it
draws the match's `view()`, redraws when the match's events say something changed, and
sends the person's drops as intents. The same screen plays on an in-process `Match`
(the local app) and on a `RemoteMatch` (a player or a spectator of `c4tui serve`); a
room adds its panel beside the board (`panel`).

What differs between the two is the app around the screen, its shell (`GameShell`):
which keys apply now, the parts that act on them (the AI's turns, the study keys, the
room's offers and chat), what the board marks beyond the game (scores, threats) and the
looks it keeps. The screen owns what every game has: the board, its cursor and drops,
the status line, the thinking panel, the move list, the guard against a terminal too
small, the footer's keys and help.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar, Protocol

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Header, Static

from c4tui.app.keys import KEYS, cursor_moved, cursor_start
from c4tui.app.messages import ColumnClicked
from c4tui.app.reader.log import Spoken
from c4tui.app.reader.mode import reading
from c4tui.app.reader.view import ReaderView
from c4tui.app.settings import Settings
from c4tui.app.status_words import outcome_text, room_outcome_text, room_status_text, status_text
from c4tui.app.threat_marks import caption_in
from c4tui.app.widgets.board import Board, BoardView
from c4tui.app.widgets.history import MoveChosen, MoveHistory
from c4tui.app.widgets.key_bar import KeyBar
from c4tui.app.widgets.thinking import ThinkingPanel, ThinkingView
from c4tui.engine.board.position import Position
from c4tui.engine.players.contract import Limits
from c4tui.match.exact_scores import ColumnScores
from c4tui.match.interface import MatchEvent, MatchInterface, MatchView, SearchProgress
from c4tui.match.opponents import values_columns
from c4tui.match.sides import GLYPHS

MIN_COLUMNS, MIN_LINES = 80, 24
FOOTER_ROOM = 100  # columns the footer needs to show every key with its normal spacing
ROOM_NEXT_STEPS = "n rematch · esc lobby"


class BoardMarks(Protocol):
    """What a shell marks on the board beyond the game: each column's exact score and
    each side's threats (none in a room: they would tell a player the answers)."""

    def scores(self, position: Position) -> ColumnScores | None: ...
    def threats(self, position: Position) -> tuple[tuple[tuple[int, int, int], ...], str]: ...


class GameShell(Protocol):
    """What the game screen asks of the app around it (the module docstring)."""

    settings: Settings  # the board's looks: style, falling discs, scores as numbers
    steady: bool  # nothing time-dependent on screen (snapshots)
    parts: dict[str, Any]  # the parts that act on `part(...)` keys, by name

    def allows(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Whether a key applies now (False: not shown)."""

    def marks(self) -> BoardMarks | None: ...
    def act(self, action: str) -> None:
        """One of the shell's own keys: new_game, undo, redo, settings, quit."""


class Panels(Horizontal):
    """The board's column beside the side panels: nothing of its own to draw. Marked
    blank, Textual paints it as blank lines at once rather than line by line through its
    style cache; a paint renders whole every container it reaches (docs/deployment.md)."""

    BLANK = True


class PanelColumn(Vertical):
    """A column of panels, with nothing of its own to draw (as `Panels`)."""

    BLANK = True


class GameScreen(Screen[None]):
    """The board, its status line, the thinking panel and the moves (module docstring)."""

    AUTO_FOCUS = ""  # the keys are the screen's; a room's chat line takes focus on `c`
    BINDINGS: ClassVar[list[BindingType]] = KEYS

    def __init__(
        self, match: MatchInterface, *, panel: Widget | None = None, spoken: Spoken | None = None
    ) -> None:
        """`spoken`: the app's lines of the screen-reader mode (reader/), which this
        screen's match adds to from now on."""
        super().__init__()
        self.match = match
        self.panel = panel
        self.reader = ReaderView(match, spoken or Spoken(), id="reader")
        self.cursor = cursor_start(match.position.width)
        self._status = ""
        self._keys_shown: tuple[object, ...] = ()
        self._redraw_due = False
        self._progress: SearchProgress | None = None
        match.listen(self.heard)

    @property
    def shell(self) -> GameShell:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        self.board = Board(id="board")
        self.status_line = Static(id="status")
        self.thinking_panel = ThinkingPanel(id="thinking")
        self.history = MoveHistory(id="history")
        self.too_small = Static(id="too-small")
        yield Header()
        with Panels(id="main"):
            with PanelColumn(id="play"):
                yield self.board
                yield self.status_line
            with PanelColumn(id="side"):
                if self.panel is not None:
                    yield self.panel
                yield self.thinking_panel
                yield self.history
        yield self.too_small
        yield self.reader
        self.footer = KeyBar()
        yield self.footer

    def on_mount(self) -> None:
        self.board.border_title = "Board"
        self.check_size(self.app.size.width, self.app.size.height)
        self.draw()
        self.reader.start()

    def on_screen_resume(self) -> None:
        self.reader.mode_changed()  # perhaps turned on or off while another screen showed
        if reading(self.app):
            self.reader.take_focus()

    def on_resize(self, event: events.Resize) -> None:
        self.check_size(event.size.width, event.size.height)

    def check_size(self, width: int, height: int) -> None:
        small = width < MIN_COLUMNS or height < MIN_LINES
        self.set_class(small, "-too-small")
        # Below 100 columns the roomy footer pushes "q Quit" off the edge.
        self.footer.compact = width < FOOTER_ROOM
        if small:
            self.too_small.update(
                f"Terminal too small\n\n{width} × {height} — c4tui needs at least "
                f"{MIN_COLUMNS} × {MIN_LINES}.\nMake the window larger, or press q to quit."
            )

    # ---- what the match says --------------------------------------------------------

    def heard(self, event: MatchEvent) -> None:
        """A listener of the match: redraw once the change is whole (a move, then the
        engine's search, arrive as several events); of the search's progress only the
        newest is drawn, so a slow terminal skips snapshots instead of falling behind."""
        if isinstance(event, SearchProgress):
            waiting = self._progress is not None
            self._progress = event
            if not waiting:
                self.call_later(self._show_progress)
        else:
            self.redraw_soon()

    def redraw_soon(self) -> None:
        """Draw once the change under way is whole: what asks for a draw before then (a
        key's own redraw, the room the server sends back) shares that one."""
        if not self._redraw_due:
            self._redraw_due = True
            self.call_later(self._redraw)

    def _redraw(self) -> None:
        self._redraw_due = False
        if self.is_mounted:
            self.draw()

    def _show_progress(self) -> None:
        event, self._progress = self._progress, None
        if event is None or not self.is_mounted:
            return
        view = self.match.view()
        self.thinking_panel.show(self._thinking(view))
        shown = self.board.view
        if shown is not None and view.thinking and shown.preferred != event.info.best:
            self.board.view = replace(shown, preferred=event.info.best)

    # ---- drawing --------------------------------------------------------------------

    def draw(self) -> None:
        """Hand every widget what it shows of the match now."""
        view = self.match.view()
        pos = view.position
        shell = self.shell
        settings = shell.settings
        mine, waiting = view.moves_now(), view.waits()
        self.cursor = playable(cursor_moved(self.cursor, 0, pos.width), pos)
        result = pos.winning_cells() if pos.winner() is not None else ()
        info = view.search.info if view.search is not None else None
        marks = shell.marks()
        threats, threat_words = marks.threats(pos) if marks is not None else ((), "")
        if self.board.size.width:  # in the frame, less its corners and spaces
            threat_words = caption_in(threat_words, self.board.size.width - 4)
        if threat_words != self.board.border_subtitle:  # setting it repaints the board
            self.board.border_subtitle = threat_words
        room = view.room
        extra = {} if room is None or not room.playing else {"next_steps": ROOM_NEXT_STEPS}
        if room is not None and not room.playing:
            extra = {"next_steps": "esc lobby"}
        self.board.drops_fall = settings.animation
        self.board.view = BoardView(
            position=pos,
            cursor=self.cursor if mine or waiting else None,
            waiting=waiting,
            preferred=info.best if view.thinking and info is not None else None,
            hint=view.hint if mine else None,
            winning=result,
            scores=marks.scores(pos) if marks is not None else None,
            score_numbers=settings.scores_numbers,
            threats=threats,
            result=(room_outcome_text(room) if room is not None else outcome_text(view)) or "",
            style=settings.board_style,
            **extra,
        )
        width = self.status_line.content_size.width or None
        status = room_status_text(room, KEYS) if room is not None else status_text(view, width)
        if status != self._status:
            self._status = status
            # The status line has a fixed height: no layout pass needed; names are
            # shown as they are, never read as markup.
            self.status_line.update(Text(status), layout=False)
        # With no engine in the game the panel says how to call one, where the match
        # lets the person (two people in a room: nothing to show).
        self.thinking_panel.display = view.search is not None or not (
            {"move_now", "hint"} <= view.refused
        )
        self.thinking_panel.show(self._thinking(view))
        ai_plays = view.is_ai(0) or view.is_ai(1)
        search = view.search
        # An engine that has searched and valued no column (Random, Greedy) never will.
        silent = (
            search.title
            if search is not None and search.info is not None and not values_columns(search.info)
            else None
        )
        self.history.show(view.game, list(view.evaluations), view.evaluator, ai_plays, silent)
        self.sub_title = subtitle(view)
        if self.panel is not None and hasattr(self.panel, "show"):
            self.panel.show(view)
        self._sync_keys(view)

    def _thinking(self, view: MatchView) -> ThinkingView:
        """What the thinking panel shows: the search on show, with the figures of the
        position it searched (whose side they are is that position's side to move)."""
        search = view.search
        if search is None:
            return ThinkingView(None, view.position, Limits(), "", False, self.shell.steady)
        label = search.title
        if ":" in search.spec:  # "Greedy (greedy)" would say nothing new
            label += f" ({search.spec})"
        return ThinkingView(
            info=search.info,
            position=search.position,
            limits=search.limits,
            label=label,
            running=view.thinking,
            steady=self.shell.steady,
        )

    def _sync_keys(self, view: MatchView) -> None:
        """Show the keys that apply now in the footer (they change with the turn, the
        pause, the end of the game, a seat)."""
        room = view.room
        shown = (
            view.sides.watching,
            view.paused,
            view.over,
            view.thinking,
            view.position.to_move,
            view.refused,
            None if room is None else room.playing,
        )
        if shown != self._keys_shown:
            self._keys_shown = shown
            self.footer.change_in_place()  # a key dimmed or lit: painted with this draw
            self.refresh_bindings()

    # ---- keys -----------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.shell.allows(action, parameters)

    def action_part(self, part: str, name: str, *arguments: int) -> None:
        """A key's action in one of the shell's parts (keys.py names them)."""
        getattr(self.shell.parts[part], name)(*arguments)

    def action_cursor(self, step: int) -> None:
        self.cursor = cursor_moved(self.cursor, step, self.match.position.width)
        self._show_cursor()
        if reading(self.app):
            self.reader.chosen(self.cursor)

    def _show_cursor(self) -> None:
        """Only the cursor moved: the board is told, and nothing else is drawn (a whole
        draw made the match's view, the move list and the panels again, twice a move for
        a player who steps to a column before dropping)."""
        shown = self.board.view
        if shown is None:
            self.draw()
            return
        if self._redraw_due:
            return  # a change is about to be drawn, with the cursor where it is now
        self.cursor = playable(self.cursor, shown.position)
        if shown.cursor is not None and shown.cursor != self.cursor:
            self.board.view = replace(shown, cursor=self.cursor)

    def action_drop_at_cursor(self) -> None:
        self.drop(self.cursor)

    def action_drop(self, column: int) -> None:
        # A column off the board (typed 0 or 99) is the match's to refuse, in words; the
        # chosen column stays on the board.
        self.cursor = column if 0 <= column < self.match.position.width else self.cursor
        self.drop(column)

    def on_column_clicked(self, message: ColumnClicked) -> None:
        self.cursor = message.column
        self.drop(message.column)

    def on_move_chosen(self, message: MoveChosen) -> None:
        lines = self.shell.parts.get("lines")
        if lines is not None:
            lines.jump_to(message.path)

    def drop(self, column: int) -> None:
        before = self.match.position
        self.match.drop(column)
        if self.match.position is not before:
            self.cursor = column  # the AI's moves leave the cursor where the person put it
        self.shell.act("update")

    def action_new_game(self) -> None:
        self.shell.act("new_game")

    def action_undo(self) -> None:
        self.shell.act("undo")

    def action_redo(self) -> None:
        self.shell.act("redo")

    def action_settings(self) -> None:
        self.shell.act("settings")

    def action_quit(self) -> None:
        self.shell.act("quit")

    def action_help(self) -> None:
        from c4tui.app.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())


def playable(cursor: int, position: Position) -> int:
    """The cursor's column, or the nearest column with room when it is full (a cursor
    on a full column only earns a refusal)."""
    if position.is_over() or position.can_play(cursor):
        return cursor
    by_distance = sorted(range(position.width), key=lambda col: (abs(col - cursor), col))
    return next((col for col in by_distance if position.can_play(col)), cursor)


def subtitle(view: MatchView) -> str:
    """The header's line: who plays whom, and where."""
    room = view.room
    if room is not None:
        names = f"{room.seats[0].title} {GLYPHS[0]}  vs  {room.seats[1].title} {GLYPHS[1]}"
        role = "playing" if room.playing else "watching"
        rated = " · rated" if room.rated else ""  # the result moves both ratings
        return f"Room {room.number} · {names}{rated} · you are {role}"
    pos = view.position
    return (
        f"{view.names[0]} {GLYPHS[0]}  vs  {view.names[1]} {GLYPHS[1]}"
        f"   ·   {pos.width}×{pos.height}, connect {pos.connect}"
    )
