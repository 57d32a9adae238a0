"""ConnectFourApp: the game screen and its keys, over a UI-free match controller.

The match (c4tui/match) decides everything about the game: whose turn, undo by turns,
search ids and stale results, hints, keeping the game on disk. The app composes the
screens and widgets, forwards keys and clicks to the match, runs the searches it hands
out in thread workers, and draws what the match holds.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from contextlib import suppress
from dataclasses import replace
from pathlib import Path
from typing import ClassVar

from textual import events
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.theme import Theme
from textual.widgets import Footer, Header, Static

from c4tui.app import settings as settings_store
from c4tui.app.ai_turns import AiTurns
from c4tui.app.lines import GameLines
from c4tui.app.looks import Looks
from c4tui.app.messages import ColumnClicked
from c4tui.app.overlay import ScoresOverlay
from c4tui.app.prewarm import Prewarm
from c4tui.app.settings import Settings
from c4tui.app.study import StudyCommands
from c4tui.app.threat_marks import ThreatMarks
from c4tui.app.widgets.board import Board, BoardView
from c4tui.app.widgets.history import MoveHistory
from c4tui.app.widgets.thinking import ThinkingPanel
from c4tui.engine.board.game import Game
from c4tui.engine.board.position import Position
from c4tui.engine.gil import CourteousStop, QuickSwitching, UiActivity
from c4tui.files import data_dir
from c4tui.match.controller import Match
from c4tui.match.library import GameLibrary
from c4tui.match.sides import GLYPHS, Sides

MIN_COLUMNS, MIN_LINES = 80, 24
FOOTER_ROOM = 100  # columns the footer needs to show every key with its normal spacing


def sides_of(settings: Settings) -> Sides:
    return Sides(settings.ai_spec(0), settings.ai_spec(1))


class ConnectFourApp(
    AiTurns, StudyCommands, GameLines, ThreatMarks, ScoresOverlay, Looks, Prewarm, App[None]
):
    """Connect Four against opponents whose thinking you can watch."""

    CSS_PATH = Path(__file__).resolve().parent / "app.tcss"
    TITLE = "c4tui"
    ENABLE_COMMAND_PALETTE = True

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1)", "←", show=False),
        Binding("right", "cursor(1)", "→", show=False),
        Binding("enter,space", "drop_at_cursor", "Drop", key_display="⏎"),
        *(
            Binding(str((col + 1) % 10), f"drop({col})", f"Column {col + 1}", show=False)
            for col in range(10)
        ),
        Binding("u", "undo", "Undo"),
        Binding("r", "redo", "Redo"),
        Binding("n", "new_game", "New"),
        Binding("h", "hint", "Hint"),
        Binding("m", "ai_move", "AI move"),
        *StudyCommands.STUDY_BINDINGS,
        *GameLines.LINE_BINDINGS,
        *ThreatMarks.THREAT_BINDINGS,
        *AiTurns.WATCH_BINDINGS,
        *ScoresOverlay.OVERLAY_BINDINGS,
        Binding("s", "settings", "Settings"),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(
        self,
        *,
        config_dir: str | Path | None = None,
        opponent: str | None = None,
        first: str | None = None,
        settings: Settings | None = None,
        seed: int | None = None,
        steady: bool = False,
        save_settings: bool = True,
        moves: str = "",
        games_dir: str | Path | None = None,
        resume: bool = True,
    ) -> None:
        """`steady` freezes everything time-dependent on screen (snapshots, screenshots):
        no elapsed times or rates, no pauses between AI moves, no cursor blink.
        `moves` starts the game from those moves (1-based notation), as if played;
        without them and with `resume`, an unfinished kept game comes back."""
        super().__init__()
        self.config_dir = settings_store.config_dir(config_dir)
        self.save_settings = save_settings
        self.settings_notice: str | None = None
        if settings is None:
            settings, self.settings_notice = settings_store.load(self.config_dir)
        # Command-line choices win over the saved settings for this session only. Both
        # are about a game against the AI, so they also choose that mode: otherwise a
        # saved two-people or AI-against-AI mode would silently ignore them.
        if opponent is not None:
            settings = replace(settings, mode="human-ai", opponent=opponent)
        if first is not None:
            settings = replace(settings, mode="human-ai", first=first)
        self.settings = settings
        self.steady = steady
        self.activity = UiActivity()
        self.switching = QuickSwitching()
        self._engine_lock = threading.Lock()
        self.library = GameLibrary(data_dir(games_dir))
        game = Game.from_moves(moves, settings.width, settings.height, settings.connect)
        self.match = Match(
            sides_of(settings),
            game,
            seed=seed,
            make_stop=lambda: CourteousStop(self.activity),
            library=self.library,
            delay=settings.watch_delay,
        )
        if not moves and resume:
            self.resume_kept_game()
        self.cursor = self.game.position.width // 2
        self._status = ""
        self._theme_unsaved = False  # chosen in the command palette since the last save
        self._cut_short_at = 0.0  # time.monotonic() of the last `m` that hurried the AI
        if steady:
            self.animation_level = "none"
        if settings.theme in self.available_themes:
            self.theme = settings.theme

    # ---- what the match holds, under the names widgets and tests use ---------------

    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def search_id(self) -> int:
        return self.match.search_id

    @property
    def thinking(self) -> bool:
        return self.match.thinking

    # ---- layout -------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        # Kept as attributes: updates must reach the game screen's widgets even while a
        # modal screen (help, settings) is on top, when app.query_one would search that.
        self.board = Board(id="board")
        self.status_line = Static(id="status")
        self.thinking_panel = ThinkingPanel(id="thinking")
        self.history = MoveHistory(id="history")
        self.too_small = Static(id="too-small")
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="play"):
                yield self.board
                yield self.status_line
            with Vertical(id="side"):
                yield self.thinking_panel
                yield self.history
        yield self.too_small
        self.footer = Footer()
        yield self.footer

    def on_mount(self) -> None:
        self.switching.start()  # keys stay quick while a search holds the GIL (gil.py)
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        self.board.border_title = "Board"
        self._check_size(self.size.width, self.size.height)
        if self.settings_notice:
            self.notify(self.settings_notice, title="Settings", severity="warning", timeout=8)
        self.update()
        self.call_after_refresh(self.start_prewarm)

    def on_unmount(self) -> None:
        # However the app ends, no search thread may outlive it.
        self.match.stop()
        self.workers.cancel_group(self, "ai")
        self.stop_scores()
        self._save_palette_theme()
        self.switching.stop()

    def _theme_changed(self, theme: Theme) -> None:
        """A theme picked in the command palette is the settings' theme from now on, so
        the settings form shows it and saving the form does not switch it back."""
        if theme.name != self.settings.theme:
            self.settings = replace(self.settings, theme=theme.name)
            self._theme_unsaved = True

    def _save_palette_theme(self) -> None:
        """Keep a palette-chosen theme for next time; saved once, at exit, because the
        palette previews every theme it passes over. Only the theme: the saved file, not
        this session's command-line choices, holds the rest."""
        if not (self._theme_unsaved and self.save_settings):
            return
        with suppress(OSError):  # the app is closing: nowhere left to report it
            settings_store.save_changes(self.config_dir, theme=self.settings.theme)

    def remember(self, **changes: object) -> None:
        """Keep these settings for next time (this session has them already)."""
        self.settings = replace(self.settings, **changes)  # type: ignore[arg-type]
        if self.save_settings:
            try:
                settings_store.save_changes(self.config_dir, **changes)
            except OSError as error:
                self.notify(f"Could not save settings: {error}", severity="error")

    async def on_event(self, event: events.Event) -> None:
        # Input first reaches the app here: from now until it is drawn, searches wait.
        if isinstance(event, (events.InputEvent, events.Resize)):
            self.activity.touch()
        # A key or click acts at once, on a board that shows what it acts on.
        if isinstance(event, (events.Key, events.MouseDown)) and hasattr(self, "board"):
            self.board.land()
        await super().on_event(event)

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int, height: int) -> None:
        small = width < MIN_COLUMNS or height < MIN_LINES
        self.board.screen.set_class(small, "-too-small")
        # Below 100 columns the roomy footer pushes "q Quit" off the edge.
        self.footer.compact = width < FOOTER_ROOM
        if small:
            self.too_small.update(
                f"Terminal too small\n\n{width} × {height} — c4tui needs at least "
                f"{MIN_COLUMNS} × {MIN_LINES}.\nMake the window larger, or press q to quit."
            )

    # ---- drawing ------------------------------------------------------------------

    def update(self) -> None:
        """After anything changed: tell what there is to tell, redraw, start the AI."""
        self.show_notices()
        self.refresh_view()
        self.maybe_start_ai()

    def show_notices(self) -> None:
        for notice in self.match.take_notices():
            if notice.bell:
                self.bell()
            # A column pressed five times after the end gives one notice, not five.
            if any(n.message == notice.text for n in self._notifications):
                continue
            self.notify(
                notice.text, title=notice.title, severity=notice.severity, timeout=notice.timeout
            )

    def refresh_view(self) -> None:
        """Hand every widget the state it shows."""
        match = self.match
        pos = self.game.position
        human_turn = not pos.is_over() and not match.is_ai(pos.to_move) and not self.thinking
        # While the AI thinks, a person who moves next may already pick a column.
        waiting = self.thinking and not pos.is_over() and not match.is_ai(1 - pos.to_move)
        self.cursor = max(0, min(self.cursor, pos.width - 1))
        result = self.game.result()
        info = match.thinking_info
        self.board.drops_fall = self.settings.animation
        self.board.view = BoardView(
            position=pos,
            cursor=self.cursor if human_turn or waiting else None,
            waiting=waiting,
            preferred=info.best if self.thinking and info is not None else None,
            hint=match.hint_column if human_turn else None,
            winning=result.cells if result else (),
            scores=self.overlay_words(),
            threats=self.threat_marks(),
            result=match.outcome_text() or "",
            style=self.settings.board_style,
        )
        status = match.status_text()
        if status != self._status:
            self._status = status
            # The status line has a fixed height: no layout pass needed.
            self.status_line.update(status, layout=False)
        self._show_thinking()
        self.sync_watch_keys()
        ai_plays = match.is_ai(0) or match.is_ai(1)
        self.history.show(self.game, *match.evaluation_line(), ai_plays)
        self.sub_title = (
            f"{self.match.sides.name(0)} {GLYPHS[0]}  vs  {self.match.sides.name(1)} {GLYPHS[1]}"
            f"   ·   {pos.width}×{pos.height}, connect {pos.connect}"
        )

    # ---- moves --------------------------------------------------------------------

    def human_drop(self, col: int) -> None:
        if self.match.human_move(col):
            self.cursor = col  # the AI's moves leave the cursor where the person put it
        self.update()

    def on_column_clicked(self, message: ColumnClicked) -> None:
        self.cursor = message.column
        self.human_drop(message.column)

    def action_cursor(self, step: int) -> None:
        self.cursor = max(0, min(self.game.position.width - 1, self.cursor + step))
        self.refresh_view()

    def action_drop_at_cursor(self) -> None:
        self.human_drop(self.cursor)

    def action_drop(self, col: int) -> None:
        self.cursor = col if col < self.game.position.width else self.cursor
        self.human_drop(col)

    def action_new_game(self) -> None:
        self.cancel_search()
        if self.settings.alternate_first and self.settings.mode == "human-ai" and self.game.moves:
            other = "ai" if self.settings.first == "you" else "you"
            self.settings = replace(self.settings, first=other)  # for this session
        s = self.settings
        self.match.sides = sides_of(s)
        self.match.new_game(Game(Position.start(s.width, s.height, s.connect)))
        self.cursor = s.width // 2
        self.update()

    def action_undo(self) -> None:
        """Take back your last move and the AI's reply (one move with two people)."""
        self.cancel_search()
        self.match.undo()
        self.update()

    def action_redo(self) -> None:
        self.cancel_search()
        self.match.redo()
        self.update()

    # ---- settings, help, quit -----------------------------------------------------

    def action_settings(self) -> None:
        self.cancel_search()
        self.match.cancel_hint()
        self.match.paused = True
        self.refresh_view()
        # Built ahead while nobody waited (prewarm.py): a fresh form took 0.1-0.4 s.
        self.push_screen(self.take_settings_screen(), self.apply_settings)

    def apply_settings(self, new: Settings | None) -> None:
        self.match.paused = False
        self.call_after_refresh(self.build_spare_settings)  # for the next `s`
        if new is None or new == self.settings:
            self.update()
            return
        old, self.settings = self.settings, new
        if new.theme in self.available_themes:
            self.theme = new.theme
        if self.save_settings:
            try:
                path = settings_store.save(new, self.config_dir)
            except OSError as error:
                self.notify(f"Could not save settings: {error}", severity="error")
            else:
                self._theme_unsaved = False
                self.notify(f"Settings saved to {path}.", timeout=3)
        size_changed = (old.width, old.height, old.connect) != (new.width, new.height, new.connect)
        if size_changed or old.mode != new.mode or old.first != new.first:
            self.action_new_game()
            return
        self.match.set_sides(sides_of(new))
        self.update()

    def action_help(self) -> None:
        from c4tui.app.screens.help import HelpScreen

        self.push_screen(HelpScreen())

    async def action_quit(self) -> None:
        self.cancel_search()
        self.match.stop()
        self.exit()

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield SystemCommand("New game", "Start a new game (n)", self.action_new_game)
        yield SystemCommand("Undo", "Take back your move and the reply (u)", self.action_undo)
        yield SystemCommand("Redo", "Play the undone moves again (r)", self.action_redo)
        yield SystemCommand("Hint", "Show the best column for you (h)", self.action_hint)
        yield SystemCommand("AI move now", "Make the AI move at once (m)", self.action_ai_move)
        yield from self.watch_commands()
        yield from self.study_commands()
        yield from self.line_commands()
        yield from self.threat_commands()
        yield from self.looks_commands()
        yield SystemCommand(
            "Settings", "Opponents, budgets, board, theme (s)", self.action_settings
        )
        yield SystemCommand("Help", "Keys and the thinking panel (?)", self.action_help)
        yield from super().get_system_commands(screen)
