"""ConnectFourApp: the game screen, its keys, and the AI searching in a thread worker.

The app owns the one `Game`, the settings and the engines; widgets only draw what they
are handed. Each AI search runs in a thread worker on an immutable Position and gets an
id. Progress and results carry that id; anything stale is dropped, and every action that
changes the game (new game, undo, redo, settings, quit) first sets the search's stop
event and forgets its id, so a cancelled search can never play a move.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterable
from contextlib import suppress
from dataclasses import replace
from pathlib import Path
from typing import ClassVar

from textual import events, work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.theme import Theme
from textual.widgets import Footer, Header, Static

from c4tui.app import settings as settings_store
from c4tui.app.courtesy import CourteousStop, UiActivity
from c4tui.app.messages import (
    ColumnClicked,
    HintFinished,
    SearchFailed,
    SearchFinished,
    SearchProgress,
)
from c4tui.app.opponents import engine_title, evaluation_of, hint_spec
from c4tui.app.settings import Settings
from c4tui.app.widgets.board import GLYPHS, Board, BoardView
from c4tui.app.widgets.history import MoveHistory
from c4tui.app.widgets.thinking import ThinkingPanel, ThinkingView
from c4tui.engine.game import Game
from c4tui.engine.position import Position
from c4tui.engine.scores import describe_score
from c4tui.engine.search import Engine, Limits, SearchInfo
from c4tui.engine.specs import SpecError, make_engine

MIN_COLUMNS, MIN_LINES = 80, 24
FOOTER_ROOM = 100  # columns the footer needs to show every key with its normal spacing
SWITCH_INTERVAL = 0.0005  # seconds; see on_mount
PROGRESS_INTERVAL = 0.1  # seconds between progress messages: at most ~10 a second
UI_SHARE = 0.005  # seconds the search thread sleeps after each progress message
AI_VS_AI_PAUSE = 0.4  # seconds between moves when two AIs play, so people can follow
M_REPEAT_GRACE = 1.0  # seconds after `m` hurried the AI in which another `m` is a repeat
FALLBACK_SPEC = "random"


class ConnectFourApp(App[None]):
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
    ) -> None:
        """`steady` freezes everything time-dependent on screen (snapshots, screenshots):
        no elapsed times or rates, no pauses between AI moves, no cursor blink.
        `moves` starts the game from those moves (1-based notation), as if played."""
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
        self.seed = seed
        self.steady = steady
        self.game = Game.from_moves(moves, settings.width, settings.height, settings.connect)
        self.engines: dict[int, Engine] = {}
        self.cursor = settings.width // 2
        self.evaluations: dict[int, float] = {}  # ply -> the AI's value, ● side
        self.hint: int | None = None
        self.paused = False
        # The running search: its id, stop event, the position and side it searches.
        self.search_id = 0
        self.hint_id = 0
        self._stop: threading.Event | None = None
        self._hint_stop: threading.Event | None = None
        self._search_position: Position | None = None
        self._search_engine: Engine | None = None
        self._thinking_info: SearchInfo | None = None
        self._engine_lock = threading.Lock()
        self.activity = UiActivity()
        self._status = ""
        self._theme_unsaved = False  # chosen in the command palette since the last save
        self._cut_short_at = 0.0  # time.monotonic() of the last `m` that hurried the AI
        if steady:
            self.animation_level = "none"
        if settings.theme in self.available_themes:
            self.theme = settings.theme

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
        # The engine thread holds the GIL while it searches; the UI thread, waking from
        # select() many times per key, would wait up to 5 ms (the default) each time.
        # A shorter switch interval keeps typing quick at a small cost to the search.
        sys.setswitchinterval(SWITCH_INTERVAL)
        self._build_engines()
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        self.board.border_title = "Board"
        self._check_size(self.size.width, self.size.height)
        if self.settings_notice:
            self.notify(self.settings_notice, title="Settings", severity="warning", timeout=8)
        self.refresh_view()
        self.maybe_start_ai()

    def on_unmount(self) -> None:
        # However the app ends, no search thread may outlive it.
        self.cancel_search()
        self.cancel_hint()
        self._save_palette_theme()

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
        saved, _notice = settings_store.load(self.config_dir)
        with suppress(OSError):  # the app is closing: nowhere left to report it
            settings_store.save(replace(saved, theme=self.settings.theme), self.config_dir)

    async def on_event(self, event: events.Event) -> None:
        # Input first reaches the app here: from now until it is drawn, searches wait.
        if isinstance(event, (events.InputEvent, events.Resize)):
            self.activity.touch()
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

    # ---- who plays what -----------------------------------------------------------

    def is_ai(self, player: int) -> bool:
        return self.settings.ai_spec(player) is not None

    def player_name(self, player: int) -> str:
        spec = self.settings.ai_spec(player)
        if spec is not None:
            return engine_title(spec)
        if self.settings.mode == "humans":
            return f"Player {player + 1}"
        return "You"

    def _build_engines(self) -> None:
        """Fresh engines for both AI sides (seeded, so a fixed seed replays a game)."""
        self.engines = {}
        for player in (0, 1):
            spec = self.settings.ai_spec(player)
            if spec is None:
                continue
            seed = None if self.seed is None else self.seed + player
            try:
                self.engines[player] = make_engine(spec, seed=seed)
            except (SpecError, ImportError) as error:
                self.notify(
                    f"{spec}: {error}; playing {FALLBACK_SPEC} instead.",
                    title="Opponent unavailable",
                    severity="error",
                )
                self.engines[player] = make_engine(FALLBACK_SPEC, seed=seed)

    def _assistant(self) -> Engine:
        """The engine that moves for a human side when asked to (`m`)."""
        if self.engines:
            return next(iter(self.engines.values()))
        spec = self.settings.opponent
        try:
            return make_engine(spec, seed=self.seed)
        except (SpecError, ImportError):
            return make_engine(FALLBACK_SPEC, seed=self.seed)

    # ---- drawing ------------------------------------------------------------------

    def refresh_view(self) -> None:
        """Hand every widget the state it shows."""
        pos = self.game.position
        human_turn = not pos.is_over() and not self.is_ai(pos.to_move) and not self.thinking
        # While the AI thinks, a person who moves next may already pick a column.
        waiting = self.thinking and not pos.is_over() and not self.is_ai(1 - pos.to_move)
        self.cursor = max(0, min(self.cursor, pos.width - 1))
        result = self.game.result()
        self.board.view = BoardView(
            position=pos,
            cursor=self.cursor if human_turn or waiting else None,
            waiting=waiting,
            preferred=self._preferred(),
            hint=self.hint if human_turn else None,
            winning=result.cells if result else (),
        )
        status = self.status_text()
        if status != self._status:
            self._status = status
            # The status line has a fixed height: no layout pass needed.
            self.status_line.update(status, layout=False)
        self._show_thinking()
        self.history.show(
            self.game.moves, [self.evaluations[k] for k in sorted(self.evaluations)], pos.width
        )
        self.sub_title = (
            f"{self.player_name(0)} {GLYPHS[0]}  vs  {self.player_name(1)} {GLYPHS[1]}"
            f"   ·   {pos.width}×{pos.height}, connect {pos.connect}"
        )

    def _preferred(self) -> int | None:
        info = self._thinking_info
        return info.best if self.thinking and info is not None else None

    def _show_thinking(self) -> None:
        engine = self._search_engine
        if engine is None and self.engines:
            engine = self.engines.get(1) or self.engines.get(0)
        label = ""
        limits = Limits()
        if engine is not None:
            limits = engine.limits
            label = engine_title(engine.spec)
            if ":" in engine.spec:  # "Greedy (greedy)" would say nothing new
                label += f" ({engine.spec})"
        position = self._search_position or self.game.position
        self.thinking_panel.show(
            ThinkingView(
                info=self._thinking_info,
                position=position,
                limits=limits,
                label=label,
                running=self.thinking,
                steady=self.steady,
            )
        )

    def status_text(self) -> str:
        pos = self.game.position
        result = self.game.result()
        if result is not None:
            if result.winner is None:
                outcome = "Draw — the board is full."
            else:
                name = self.player_name(result.winner)
                glyph = GLYPHS[result.winner]
                outcome = f"You win with {glyph}!" if name == "You" else f"{name} {glyph} wins."
            return f"{outcome}   Press n for a new game."
        mover = pos.to_move
        name = self.player_name(mover)
        glyph = GLYPHS[mover]
        if self.thinking and not self.is_ai(mover) and self._search_engine is not None:
            # `m` on a person's turn: an engine picks that person's move.
            helper = engine_title(self._search_engine.spec)
            whom = "you" if name == "You" else name
            return f"{helper} is choosing a move for {whom} {glyph}…   (m: move now)"
        if self.thinking:
            return f"{name} {glyph} is thinking…   (m: move now)"
        if self.is_ai(mover):
            if self.paused:
                return f"{name} {glyph} to move: press m to let it play."
            return f"{name} {glyph} to move."
        keys = f"← → Enter, or 1-{pos.width}"
        if name == "You":
            other = 1 - mover
            return f"Your turn: you {glyph} vs {self.player_name(other)} {GLYPHS[other]}.   {keys}"
        return f"{name} {glyph} to move.   {keys}"

    # ---- the AI -------------------------------------------------------------------

    @property
    def thinking(self) -> bool:
        return self._stop is not None

    def maybe_start_ai(self) -> None:
        """Start a search when it is an AI's turn and nobody is searching."""
        pos = self.game.position
        if self.thinking or pos.is_over() or self.paused or not self.is_ai(pos.to_move):
            return
        self.start_search(self.engines[pos.to_move])

    def start_search(self, engine: Engine) -> None:
        self.cancel_search()
        self.search_id += 1
        stop = CourteousStop(self.activity)
        self._stop = stop
        self._search_position = self.game.position
        self._search_engine = engine
        self._thinking_info = None
        self.run_search(self.search_id, engine, self.game.position, stop)
        self.refresh_view()

    def cancel_search(self) -> None:
        """Stop the running search at once; whatever it still sends is stale."""
        if self._stop is not None:
            self._stop.set()
        self._stop = None
        self.search_id += 1
        self.workers.cancel_group(self, "ai")

    def _forget_search(self) -> None:
        """Clear the thinking panel: its search was of a position no longer on the board."""
        self._thinking_info = None
        self._search_position = None
        self._search_engine = None

    def cancel_hint(self) -> None:
        if self._hint_stop is not None:
            self._hint_stop.set()
        self._hint_stop = None
        self.hint_id += 1
        self.hint = None

    @work(thread=True, exclusive=True, group="ai", exit_on_error=False)
    def run_search(
        self, search_id: int, engine: Engine, position: Position, stop: threading.Event
    ) -> None:
        """Search in a thread; talk to the UI only through messages."""
        last_post = 0.0

        def on_info(info: SearchInfo) -> None:
            nonlocal last_post
            now = time.monotonic()
            if now - last_post >= PROGRESS_INTERVAL:
                last_post = now
                self.post_message(SearchProgress(search_id, info))
                # Step off the GIL while the UI draws this update: costs the search
                # ~5% of its time and keeps keys from queueing behind the redraw.
                time.sleep(UI_SHARE)

        # One search per engine at a time: a cancelled search still unwinding keeps the
        # engine's tree until it sees the stop event.
        with self._engine_lock:
            if stop.is_set():
                return
            try:
                result = engine.search(position, on_info=on_info, stop=stop)
            except Exception as error:  # an engine bug must not take the game down
                self.post_message(SearchFailed(search_id, f"{type(error).__name__}: {error}"))
                return
        self.post_message(SearchFinished(search_id, result))

    def on_search_progress(self, message: SearchProgress) -> None:
        if message.search_id != self.search_id or not self.thinking:
            return
        self._thinking_info = message.info
        board = self.board
        if board.view is not None and board.view.preferred != message.info.best:
            board.view = replace(board.view, preferred=message.info.best)
        self._show_thinking()

    def on_search_finished(self, message: SearchFinished) -> None:
        if message.search_id != self.search_id or not self.thinking:
            return
        position = self._search_position
        if position is None or position.path != self.game.position.path:
            return
        self._stop = None
        move = message.result.move
        self._thinking_info = message.result.info
        if not position.can_play(move) or position.is_over():
            self.notify(f"The engine chose an illegal column {move + 1}.", severity="error")
            self.refresh_view()
            return
        value = evaluation_of(message.result.info, move, position.to_move)
        if value is not None:
            self.evaluations[position.moves] = value
        self._drop(move)
        if self.settings.mode == "ai-ai" and not self.steady:
            search_id = self.search_id
            self.set_timer(AI_VS_AI_PAUSE, lambda: self._continue(search_id))
        else:
            self.maybe_start_ai()

    def _continue(self, search_id: int) -> None:
        if search_id == self.search_id:
            self.maybe_start_ai()

    def on_search_failed(self, message: SearchFailed) -> None:
        if message.search_id != self.search_id:
            return
        self._stop = None
        self.paused = True
        self.notify(
            f"The AI failed: {message.error}. Press m to retry, n for a new game.",
            severity="error",
        )
        self.refresh_view()

    # ---- moves --------------------------------------------------------------------

    def _drop(self, col: int) -> None:
        """Play `col` for the side to move and redraw (the caller checked it is legal)."""
        self.cancel_hint()
        self.game.play(col)
        self.refresh_view()

    def human_drop(self, col: int) -> None:
        pos = self.game.position
        if pos.is_over():
            self.notify("The game is over: press n for a new game.", timeout=2)
            return
        if self.thinking or self.is_ai(pos.to_move):
            self.notify("Wait for the AI's move, or press m to make it move now.", timeout=2)
            return
        if not 0 <= col < pos.width:
            self.notify(f"There is no column {col + 1}: the board has {pos.width}.", timeout=2)
            return
        if not pos.can_play(col):
            self.bell()
            self.notify(f"Column {col + 1} is full.", timeout=2)
            return
        self.paused = False
        self.cursor = col  # the AI's moves leave the cursor where the person put it
        self._drop(col)
        self.maybe_start_ai()

    def on_column_clicked(self, message: ColumnClicked) -> None:
        self.cursor = message.column
        self.human_drop(message.column)

    # ---- actions ------------------------------------------------------------------

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
        self.cancel_hint()
        s = self.settings
        self.game = Game(Position.start(s.width, s.height, s.connect))
        self.evaluations.clear()
        self._forget_search()
        self.paused = False
        self.cursor = s.width // 2
        self._build_engines()
        self.refresh_view()
        self.maybe_start_ai()

    def action_undo(self) -> None:
        """Take back your last move and the AI's reply (one move with two people)."""
        self.cancel_search()
        self.cancel_hint()
        if not self.game.can_undo():
            self.notify("Nothing to undo.", timeout=2)
            self.refresh_view()
            return
        self._forget_search()
        self._undo_one()
        while self.game.can_undo() and self.is_ai(self.game.position.to_move):
            if self.settings.mode == "ai-ai":
                break
            self._undo_one()
        # After undo in a game against the AI, wait for the person (m makes the AI move).
        self.paused = self.is_ai(self.game.position.to_move)
        self.refresh_view()

    def _undo_one(self) -> None:
        self.game.undo()
        self.evaluations.pop(self.game.position.moves, None)

    def action_redo(self) -> None:
        self.cancel_search()
        self.cancel_hint()
        if not self.game.can_redo():
            self.notify("Nothing to redo.", timeout=2)
            self.refresh_view()
            return
        self._forget_search()
        self.game.redo()
        while self.game.can_redo() and self.is_ai(self.game.position.to_move):
            if self.settings.mode == "ai-ai":
                break
            self.game.redo()
        self.paused = self.is_ai(self.game.position.to_move)
        self.refresh_view()

    def action_ai_move(self) -> None:
        """Make the AI move now: cut its search short, or let it play the side to move."""
        if self.game.position.is_over():
            self.notify("The game is over: press n for a new game.", timeout=2)
            return
        if self.thinking and self._stop is not None:
            self._stop.set()  # the engine returns its best move so far, which is played
            self._cut_short_at = time.monotonic()
            return
        mover = self.game.position.to_move
        if not self.is_ai(mover) and time.monotonic() - self._cut_short_at < M_REPEAT_GRACE:
            # An impatient second m, arriving just after the AI's move: it meant "hurry
            # up", not "play my move for me".
            self.notify("The AI has moved: your turn. (m again plays a move for you.)", timeout=2)
            self._cut_short_at = 0.0
            return
        self.paused = False
        self.start_search(self.engines.get(mover) or self._assistant())

    def action_hint(self) -> None:
        pos = self.game.position
        if pos.is_over() or self.thinking or self.is_ai(pos.to_move):
            self.notify("Hints are for your turn.", timeout=2)
            return
        self.cancel_hint()
        stop = CourteousStop(self.activity)
        self._hint_stop = stop
        spec = hint_spec(pos)
        self.notify(f"Looking for a hint ({spec})…", timeout=2)
        self.run_hint(self.hint_id, spec, pos, stop)

    @work(thread=True, exclusive=True, group="hint", exit_on_error=False)
    def run_hint(self, hint_id: int, spec: str, position: Position, stop: threading.Event) -> None:
        try:
            engine = make_engine(spec, seed=self.seed)
            result = engine.search(position, stop=stop)
        except Exception as error:  # no hint is better than a crash
            self.post_message(HintFinished(hint_id, None, f"{type(error).__name__}: {error}"))
            return
        stat = result.info.columns[result.move] if result.info.columns else None
        reason = f"by {engine_title(spec)}"
        if stat is not None and stat.score is not None and (result.info.exact or stat.proven):
            reason = f"{describe_score(position, stat.score)}, by the perfect player"
        elif result.info.engine == "perfect":
            # Out of time: the column is only known not to be worse than the others.
            known = f"a {stat.proven}" if stat is not None and stat.proven else "not proven"
            reason = f"{known}, the perfect player ran out of time"
        elif stat is not None and stat.value is not None:
            reason = f"win rate {(stat.value + 1) / 2:.0%}, by {engine_title(spec)}"
        self.post_message(HintFinished(hint_id, result.move, reason))

    def on_hint_finished(self, message: HintFinished) -> None:
        if message.hint_id != self.hint_id:
            return
        self._hint_stop = None
        if message.column is None:
            self.notify(f"No hint: {message.reason}", severity="error")
            return
        self.hint = message.column
        self.cursor = message.column
        self.notify(f"Hint: column {message.column + 1} ({message.reason}).", timeout=5)
        self.refresh_view()

    def action_settings(self) -> None:
        from c4tui.app.screens.settings import SettingsScreen

        self.cancel_search()
        self.cancel_hint()
        self.paused = True
        self.refresh_view()
        self.push_screen(
            SettingsScreen(self.settings, self._theme_names(), steady=self.steady),
            self.apply_settings,
        )

    def _theme_names(self) -> list[str]:
        return sorted(self.available_themes)

    def apply_settings(self, new: Settings | None) -> None:
        self.paused = False
        if new is None or new == self.settings:
            self.refresh_view()
            self.maybe_start_ai()
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
        self._build_engines()
        self.refresh_view()
        self.maybe_start_ai()

    def action_help(self) -> None:
        from c4tui.app.screens.help import HelpScreen

        self.push_screen(HelpScreen())

    async def action_quit(self) -> None:
        self.cancel_search()
        self.cancel_hint()
        self.exit()

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield SystemCommand("New game", "Start a new game (n)", self.action_new_game)
        yield SystemCommand("Undo", "Take back your move and the reply (u)", self.action_undo)
        yield SystemCommand("Redo", "Play the undone moves again (r)", self.action_redo)
        yield SystemCommand("Hint", "Show the best column for you (h)", self.action_hint)
        yield SystemCommand("AI move now", "Make the AI move at once (m)", self.action_ai_move)
        yield SystemCommand(
            "Settings", "Opponents, budgets, board, theme (s)", self.action_settings
        )
        yield SystemCommand("Help", "Keys and the thinking panel (?)", self.action_help)
        yield from super().get_system_commands(screen)
