"""ConnectFourApp: the game screen and its keys, over a UI-free match controller.

The match (c4tui/match) decides everything about the game: whose turn, undo by turns,
search ids and stale results, hints, keeping the game on disk. The app is one small
class that composes the widgets and parts with their own state (host.py says what a
part may use of the app): the AI's turns and their search runner, the scores overlay,
the prewarmer, the study actions, the game's lines, the threat marks and the looks.
Its bindings name every key; a key calls the part that acts on it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from textual import events
from textual.app import App, ComposeResult, SystemCommand
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.theme import Theme
from textual.widgets import Footer, Header, Static

from c4tui.app.ai_turns import AiTurns
from c4tui.app.keys import KEYS, cursor_moved, cursor_start, palette
from c4tui.app.lines import GameLines
from c4tui.app.looks import Looks
from c4tui.app.messages import (
    ColumnClicked,
    HintFinished,
    SearchFailed,
    SearchFinished,
    SearchProgressed,
)
from c4tui.app.notices import STEADY_NOTICE_SECONDS, Notices
from c4tui.app.overlay import ScoresOverlay, ScoresSolved
from c4tui.app.preferences import Preferences
from c4tui.app.prewarm import Prewarmer
from c4tui.app.settings import First, Settings
from c4tui.app.status_words import outcome_text, status_text
from c4tui.app.study import StudyActions
from c4tui.app.stylesheets import STYLESHEETS
from c4tui.app.threat_marks import ThreatMarks
from c4tui.app.widgets.board import Board, BoardView
from c4tui.app.widgets.history import MoveChosen, MoveHistory
from c4tui.app.widgets.thinking import ThinkingPanel
from c4tui.engine.board.game import Game
from c4tui.engine.board.position import Position
from c4tui.engine.gil import CourteousStop, QuickSwitching, UiActivity
from c4tui.files import data_dir
from c4tui.match.controller import Match
from c4tui.match.keeping import GameKeeper
from c4tui.match.sides import GLYPHS
from c4tui.records.kept_games import GameLibrary

MIN_COLUMNS, MIN_LINES = 80, 24
FOOTER_ROOM = 100  # columns the footer needs to show every key with its normal spacing


class ConnectFourApp(App[None]):
    """Connect Four against opponents whose thinking you can watch."""

    CSS_PATH = STYLESHEETS
    TITLE = "c4tui"
    ENABLE_COMMAND_PALETTE = True

    BINDINGS = KEYS

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
        no times or rates, no pauses between AI moves, no cursor blink, no notice timing
        out. `moves` (1-based) start the game as if played; else `resume` brings back an
        unfinished kept game."""
        super().__init__()
        self.preferences = Preferences(config_dir, save=save_settings)
        self.settings = settings = self.preferences.load(settings, opponent, first)
        self.steady = steady
        self.activity = UiActivity()
        self.switching = QuickSwitching()
        self.library = GameLibrary(data_dir(games_dir))
        game = Game.from_moves(moves, settings.width, settings.height, settings.connect)
        self.match = Match(
            settings.sides(),
            game,
            seed=seed,
            make_stop=lambda: CourteousStop(self.activity),
            keeper=GameKeeper(self.library),
            delay=settings.watch_delay,
            setup=game.position.to_moves(),  # `--position`: practice, never counted
        )
        self.notices = Notices(self)
        self.match.listen(self.notices.hear)
        # The parts, each with its own state (host.py: what they may use of the app).
        self.ai = AiTurns(self)
        self.overlay = ScoresOverlay(self)
        self.study = StudyActions(self)
        self.game_lines = GameLines(self)
        self.threat_marks = ThreatMarks(self)
        self.looks = Looks(self, land=lambda: self.board.land())
        self.parts = {
            "ai": self.ai,
            "overlay": self.overlay,
            "study": self.study,
            "lines": self.game_lines,
            "threats": self.threat_marks,
        }
        self.prewarmer = Prewarmer(self)
        if not moves and resume:
            self.study.resume_kept_game()
        self.cursor = cursor_start(self.game.position.width)
        self._status = ""
        self._keys_shown = (False, False)  # (watching, paused) the footer last showed
        if steady:
            self.animation_level = "none"
        if settings.theme in self.available_themes:
            self.theme = settings.theme

    # ---- what the match holds, under the names widgets and tests use ---------------

    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def thinking(self) -> bool:
        return self.match.thinking

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

    def notify(self, message: str, *, timeout: float | None = None, **options: Any) -> None:
        timeout = STEADY_NOTICE_SECONDS if self.steady else timeout
        super().notify(message, timeout=timeout, **options)

    def on_mount(self) -> None:
        self.switching.start()  # keys stay quick while a search holds the GIL (gil.py)
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        self.board.border_title = "Board"
        self._check_size(self.size.width, self.size.height)
        if self.preferences.notice:
            self.notify(self.preferences.notice, title="Settings", severity="warning", timeout=8)
        # From now on the match starts its engines' searches, the first one now.
        self.match.attach(self.ai.runner)
        self.update()
        self.call_after_refresh(self.prewarmer.start)

    def on_unmount(self) -> None:
        # However the app ends, no search thread may outlive it.
        self.match.stop()
        self.ai.cancel()
        self.overlay.stop()
        self.preferences.at_exit(self.settings)
        self.switching.stop()

    @property
    def config_dir(self) -> Path:
        return self.preferences.config_dir

    def _theme_changed(self, theme: Theme) -> None:
        """A theme picked in the command palette is the settings' theme from now on, so
        the settings form shows it and saving the form does not switch it back."""
        if theme.name != self.settings.theme:
            self.settings = replace(self.settings, theme=theme.name)
            self.preferences.palette_theme()

    def remember(self, **changes: object) -> None:
        """Keep these settings for next time (this session has them already)."""
        self.settings = replace(self.settings, **changes)  # type: ignore[arg-type]  # changes name Settings fields, as the keys that change them do
        error = self.preferences.keep(**changes)
        if error:
            self.notify(error, severity="error")

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

    def update(self) -> None:
        """After anything changed: tell what there is to tell, and redraw."""
        self.show_notices()
        self.refresh_view()

    def show_notices(self) -> None:
        self.notices.show()

    def refresh_view(self) -> None:
        """Hand every widget the state it shows."""
        match = self.match
        pos = self.game.position
        human_turn = not pos.is_over() and not match.is_ai(pos.to_move) and not self.thinking
        # While the AI thinks, a person who moves next may already pick a column.
        waiting = self.thinking and not pos.is_over() and not match.is_ai(1 - pos.to_move)
        self.cursor = cursor_moved(self.cursor, 0, pos.width)
        result = self.game.result()
        info = match.search.info if match.search is not None else None
        scores = self.overlay.scores(pos)
        marks, self.board.border_subtitle = self.threat_marks.marks(pos, scores)
        self.board.drops_fall = self.settings.animation
        self.board.view = BoardView(
            position=pos,
            cursor=self.cursor if human_turn or waiting else None,
            waiting=waiting,
            preferred=info.best if self.thinking and info is not None else None,
            hint=match.hints.column if human_turn else None,
            winning=result.cells if result else (),
            scores=scores,
            score_numbers=self.settings.scores_numbers,
            threats=marks,
            result=outcome_text(match) or "",
            style=self.settings.board_style,
        )
        status = status_text(match)
        if status != self._status:
            self._status = status
            # The status line has a fixed height: no layout pass needed.
            self.status_line.update(status, layout=False)
        self.thinking_panel.show(self.ai.view())
        self._sync_keys()
        ai_plays = match.is_ai(0) or match.is_ai(1)
        self.history.show(self.game, *match.evaluation_line(), ai_plays)
        self.sub_title = (
            f"{self.match.sides.name(0)} {GLYPHS[0]}  vs  {self.match.sides.name(1)} {GLYPHS[1]}"
            f"   ·   {pos.width}×{pos.height}, connect {pos.connect}"
        )

    def human_drop(self, col: int) -> None:
        before = self.game.position
        self.match.drop(col)
        if self.game.position is not before:
            self.cursor = col  # the AI's moves leave the cursor where the person put it
        self.update()

    def on_column_clicked(self, message: ColumnClicked) -> None:
        self.cursor = message.column
        self.human_drop(message.column)

    def action_cursor(self, step: int) -> None:
        self.cursor = cursor_moved(self.cursor, step, self.game.position.width)
        self.refresh_view()

    def action_drop_at_cursor(self) -> None:
        self.human_drop(self.cursor)

    def action_drop(self, col: int) -> None:
        self.cursor = col if col < self.game.position.width else self.cursor
        self.human_drop(col)

    def action_new_game(self) -> None:
        self.cancel_search()
        if self.settings.alternate_first and self.settings.mode == "human-ai" and self.game.moves:
            other: First = "ai" if self.settings.first == "you" else "you"
            self.settings = replace(self.settings, first=other)  # for this session
        s = self.settings
        self.match.new_game(Game(Position.start(s.width, s.height, s.connect)), s.sides())
        self.cursor = cursor_start(s.width)
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

    def action_settings(self) -> None:
        self.cancel_search()
        self.match.pause()
        self.refresh_view()
        # Built ahead while nobody waited (prewarm.py): a fresh form took 0.1-0.4 s.
        self.push_screen(self.prewarmer.take_settings_screen(), self.apply_settings)

    def apply_settings(self, new: Settings | None) -> None:
        self.match.resume()
        self.call_after_refresh(self.prewarmer.build_spare)  # for the next `s`
        if new is None or new == self.settings:
            self.update()
            return
        old, self.settings = self.settings, new
        if new.theme in self.available_themes:
            self.theme = new.theme
        said = self.preferences.keep_all(new)
        if said is not None:
            self.notify(said.text, severity=said.severity, timeout=said.timeout)
        size_changed = (old.width, old.height, old.connect) != (new.width, new.height, new.connect)
        if size_changed or old.mode != new.mode or old.first != new.first:
            self.action_new_game()
            return
        self.match.set_sides(new.sides())
        self.update()

    def action_help(self) -> None:
        from c4tui.app.screens.help import HelpScreen

        self.push_screen(HelpScreen())

    async def action_quit(self) -> None:
        self.cancel_search()
        self.match.stop()
        self.exit()

    # ---- the parts' keys and messages ----------------------------------------------

    def cancel_search(self) -> None:
        self.ai.cancel()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "part" and parameters[0] == "ai":
            return self.ai.allows(str(parameters[1]))
        return self.ai.allows(action)

    def _sync_keys(self) -> None:
        """Show the keys that apply now in the footer: the watching keys while two
        engines play, and Space's Pause or Go on as the pause changes."""
        shown = (self.match.sides.watching, self.match.paused)
        if shown != self._keys_shown:
            self._keys_shown = shown
            self.refresh_bindings()

    def action_part(self, part: str, name: str, *arguments: int) -> None:
        """A key's action in one of the parts (keys.py names them)."""
        getattr(self.parts[part], name)(*arguments)

    def on_search_progressed(self, message: SearchProgressed) -> None:
        if not self.ai.progress(message):
            return
        view = self.board.view
        if view is not None and view.preferred != message.info.best:
            self.board.view = replace(view, preferred=message.info.best)
        self.thinking_panel.show(self.ai.view())

    def on_search_finished(self, message: SearchFinished) -> None:
        self.ai.finished(message)

    def on_search_failed(self, message: SearchFailed) -> None:
        self.ai.failed(message)

    def on_hint_finished(self, message: HintFinished) -> None:
        self.ai.hint_finished(message)

    def on_scores_solved(self, message: ScoresSolved) -> None:
        if self.overlay.solved(message):
            self.refresh_view()

    def on_move_chosen(self, message: MoveChosen) -> None:
        self.game_lines.jump_to(message.path)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from palette(self)
        yield from super().get_system_commands(screen)
