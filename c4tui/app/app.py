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
from textual.app import App, SystemCommand
from textual.screen import Screen
from textual.theme import Theme
from textual.widgets import DataTable, OptionList

from c4tui.app.ai_turns import AiTurns
from c4tui.app.key_order import KeyOrder
from c4tui.app.keys import cursor_start, palette
from c4tui.app.lines import GameLines
from c4tui.app.looks import Looks
from c4tui.app.messages import (
    HintFinished,
    SearchFailed,
    SearchFinished,
    SearchProgressed,
)
from c4tui.app.notices import STEADY_NOTICE_SECONDS, Notices
from c4tui.app.overlay import ScoresOverlay, ScoresSolved
from c4tui.app.preferences import Preferences
from c4tui.app.prewarm import Prewarmer
from c4tui.app.reader.log import Spoken
from c4tui.app.reader.mode import asked_by_environment, reading
from c4tui.app.reader.switch import cursor_follows, cursor_on, reader_command, set_reading
from c4tui.app.reader.words import notice_line
from c4tui.app.screens.game import GameScreen
from c4tui.app.settings import First, Settings
from c4tui.app.study import StudyActions
from c4tui.app.stylesheets import STYLESHEETS
from c4tui.app.textual_internals import exiting
from c4tui.app.threat_marks import ThreatMarks
from c4tui.engine.board.game import Game
from c4tui.engine.board.position import Position
from c4tui.engine.gil import CourteousStop, QuickSwitching, UiActivity
from c4tui.files import data_dir
from c4tui.match.controller import Match
from c4tui.match.exact_scores import ColumnScores
from c4tui.match.keeping import GameKeeper
from c4tui.records.kept_games import GameLibrary


class ConnectFourApp(App[None]):
    """Connect Four against opponents whose thinking you can watch."""

    CSS_PATH = STYLESHEETS
    TITLE = "c4tui"
    ENABLE_COMMAND_PALETTE = True

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
        screen_reader: bool = False,
    ) -> None:
        """`steady` freezes everything time-dependent on screen (snapshots, screenshots):
        no times or rates, no pauses between AI moves, no cursor blink, no notice timing
        out. `moves` (1-based) start the game as if played; else `resume` brings back an
        unfinished kept game. `screen_reader` (or $C4TUI_SCREEN_READER) turns the
        screen-reader mode on for this session, whatever the settings say."""
        super().__init__()
        self.preferences = Preferences(config_dir, save=save_settings)
        self.settings = settings = self.preferences.load(settings, opponent, first)
        if screen_reader or asked_by_environment():
            self.settings = settings = replace(settings, screen_reader=True)
        self.steady = steady
        self.activity = UiActivity()
        self.key_order = KeyOrder(self)
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
        self.looks = Looks(self, land=lambda: self.game_screen.board.land())
        self.parts = {
            "ai": self.ai,
            "overlay": self.overlay,
            "study": self.study,
            "lines": self.game_lines,
            "threats": self.threat_marks,
        }
        self.prewarmer = Prewarmer(self)
        self.spoken = Spoken()  # the screen-reader mode's lines (reader/)
        self.game_screen = GameScreen(self.match, spoken=self.spoken)
        if not moves and resume:
            self.study.resume_kept_game()
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

    @property
    def cursor(self) -> int:
        """The column the person's cursor is on (the game screen's)."""
        return self.game_screen.cursor

    @cursor.setter
    def cursor(self, column: int) -> None:
        self.game_screen.cursor = column

    def get_default_screen(self) -> Screen[Any]:
        return self.game_screen

    def notify(self, message: str, *, timeout: float | None = None, **options: Any) -> None:
        if reading(self):  # a line among the others, not a toast over them
            self.spoken.say(notice_line(message, options.get("title", "")))
            return
        timeout = STEADY_NOTICE_SECONDS if self.steady else timeout
        super().notify(message, timeout=timeout, **options)

    def on_mount(self) -> None:
        self.switching.start()  # keys stay quick while a search holds the GIL (gil.py)
        set_reading(self, self.settings.screen_reader)
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        if self.preferences.notice:
            self.notify(self.preferences.notice, title="Settings", severity="warning", timeout=8)
        # From now on the match starts its engines' searches, the first one now.
        self.match.attach(self.ai.runner)
        self.update()
        self.call_after_refresh(self.prewarmer.start)

    def review_in_lines(self, game: Position, people: set[int]) -> bool:
        if not reading(self):
            return False
        self.game_screen.reader.studying().review(game, people)
        return True

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        cursor_on(self, event.widget)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        cursor_follows(self, event.option_list)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        # After the refresh: a table's first row is highlighted before it is laid out.
        self.call_after_refresh(cursor_follows, self, event.data_table)

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
        if self.key_order.holds(event):  # its turn comes when the key before it is done
            return
        # Input first reaches the app here: from now until it is drawn, searches wait.
        if isinstance(event, (events.InputEvent, events.Resize)):
            self.activity.touch()
        # A key or click acts at once, on a board that shows what it acts on.
        if isinstance(event, (events.Key, events.MouseDown)) and self.game_screen.is_mounted:
            self.game_screen.board.land()
        await super().on_event(event)

    # ---- the game screen's shell (screens/game.py) ---------------------------------

    def update(self) -> None:
        """After anything changed: tell what there is to tell, and redraw."""
        self.show_notices()
        self.refresh_view()

    def show_notices(self) -> None:
        self.notices.show()

    def refresh_view(self) -> None:
        """Hand every widget the state it shows (none once the app is closing: a search
        that ends as the app quits finds the screen's widgets being taken down, still
        mounted, their children gone)."""
        if self.game_screen.is_mounted and not exiting(self):
            self.game_screen.draw()

    def marks(self) -> App[None]:
        return self

    def scores(self, position: Position) -> ColumnScores | None:
        return self.overlay.scores(position)

    def threats(self, position: Position) -> tuple[tuple[tuple[int, int, int], ...], str]:
        # The frame's parity line defers to the overlay's exact scores when shown.
        return self.threat_marks.marks(position, self.overlay.scores(position))

    def act(self, action: str) -> None:
        getattr(self, action if action == "update" else f"action_{action}")()

    def allows(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "part":
            if parameters[0] not in self.parts:
                return False  # a room's keys
            if parameters[0] == "ai":
                return self.ai.allows(str(parameters[1]))
        return self.ai.allows(action)

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
        set_reading(self, new.screen_reader)
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

    def action_quit(self) -> None:  # type: ignore[override]
        self.cancel_search()
        self.match.stop()
        self.exit()

    # ---- the parts' keys and messages ----------------------------------------------

    def cancel_search(self) -> None:
        self.ai.cancel()

    def on_search_progressed(self, message: SearchProgressed) -> None:
        self.ai.progress(message)  # the match tells the game screen

    def on_search_finished(self, message: SearchFinished) -> None:
        self.ai.finished(message)

    def on_search_failed(self, message: SearchFailed) -> None:
        self.ai.failed(message)

    def on_hint_finished(self, message: HintFinished) -> None:
        self.ai.hint_finished(message)

    def on_scores_solved(self, message: ScoresSolved) -> None:
        if self.overlay.solved(message):
            self.refresh_view()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from palette(self)
        yield reader_command(self)
        yield from super().get_system_commands(screen)
