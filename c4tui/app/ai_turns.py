"""The AI's turns in the app: searches and hints in thread workers, their messages back,
the thinking panel, and the keys for watching two engines play.

A mixin of ConnectFourApp. The match (c4tui/match) hands out each search with its id and
stop event and judges every result (a stale one is dropped); here the search runs in a
thread worker and talks to the UI only through messages.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from textual import work
from textual.app import SystemCommand
from textual.binding import Binding

from c4tui.app.messages import HintFinished, SearchFailed, SearchFinished, SearchProgress
from c4tui.app.widgets.thinking import ThinkingView
from c4tui.engine import gil
from c4tui.engine.players.contract import Engine, Limits, SearchInfo
from c4tui.match.controller import SearchRequest
from c4tui.match.hints import hint_reason
from c4tui.match.opponents import hint_spec
from c4tui.match.sides import engine_title

if TYPE_CHECKING:
    from c4tui.app.app import ConnectFourApp

    _Base = ConnectFourApp
else:
    _Base = object

PROGRESS_INTERVAL = 0.1  # seconds between progress messages: at most ~10 a second
M_REPEAT_GRACE = 1.0  # seconds after `m` hurried the AI in which another `m` is a repeat


class AiTurns(_Base):
    """Searches and hints for the app (mixed into it)."""

    _watch_keys_shown = (False, False)  # (watching, paused) the footer last showed
    # Shown in the footer only while two engines play (see check_action); Space says
    # what it does now: pause, or go on.
    WATCH_BINDINGS = (
        Binding("space", "pause", "Pause", key_display="␣"),
        Binding("space", "go_on", "Go on", key_display="␣"),
        Binding("full_stop", "step", "Step", key_display="."),
        Binding("minus", "speed(1)", "Speed", key_display="-+"),
        Binding("plus", "speed(-1)", "Faster", show=False),
    )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The watching keys only while two engines play; then Space pauses rather than
        drops, `.` rather than `m` moves now, and there is no hint to give."""
        watching = self.match.sides.watching
        if action in ("pause", "go_on"):
            return watching and (action == "go_on") == self.match.paused
        if action in ("step", "speed"):
            return watching
        if action in ("drop_at_cursor", "hint", "ai_move"):
            return not watching
        return True

    def watch_commands(self) -> Iterable[SystemCommand]:
        if not self.match.sides.watching:
            return
        yield SystemCommand(
            "Pause / go on", "Stop or resume the engines (Space)", self.action_pause
        )
        yield SystemCommand(
            "One move", "The engine to move plays, then pause (.)", self.action_step
        )
        yield SystemCommand(
            "Slower", "A longer pause between moves (-)", lambda: self.action_speed(1)
        )
        yield SystemCommand(
            "Faster", "A shorter pause between moves (+)", lambda: self.action_speed(-1)
        )

    def sync_watch_keys(self) -> None:
        """Show or hide the watching keys in the footer when the sides change, and
        Space's Pause or Go on when the pause does."""
        shown = (self.match.sides.watching, self.match.paused)
        if shown != self._watch_keys_shown:
            self._watch_keys_shown = shown
            self.refresh_bindings()

    def action_go_on(self) -> None:
        self.action_pause()

    def action_pause(self) -> None:
        if self.match.toggle_pause():
            self.workers.cancel_group(self, "ai")
        self.update()

    def action_step(self) -> None:
        engine = self.match.step()
        if engine is not None:
            self.start_search(engine)
        self.update()

    def action_speed(self, steps: int) -> None:
        self.remember(watch_delay=self.match.change_speed(steps))
        self.show_notices()

    def maybe_start_ai(self) -> None:
        """Start a search when it is an AI's turn and nobody is searching."""
        engine = self.match.engine_to_move()
        if engine is not None:
            self.start_search(engine)

    def start_search(self, engine: Engine) -> None:
        self.run_search(self.match.start_search(engine))
        self.refresh_view()

    def cancel_search(self) -> None:
        """Stop the running search at once; whatever it still sends is stale."""
        self.match.cancel_search()
        self.workers.cancel_group(self, "ai")

    @work(thread=True, exclusive=True, group="ai", exit_on_error=False)
    def run_search(self, request: SearchRequest) -> None:
        """Search in a thread; talk to the UI only through messages."""
        last_post = 0.0
        search_id = request.search_id

        def on_info(info: SearchInfo) -> None:
            nonlocal last_post
            now = time.monotonic()
            if now - last_post >= PROGRESS_INTERVAL:
                last_post = now
                self.post_message(SearchProgress(search_id, info))
                gil.step_aside()

        # One search per engine at a time: a cancelled search still unwinding keeps the
        # engine's tree until it sees the stop event.
        with self._engine_lock:
            if request.stop.is_set():
                return
            try:
                result = request.engine.search(request.position, on_info=on_info, stop=request.stop)
            except Exception as error:  # an engine bug must not take the game down
                self.post_message(SearchFailed(search_id, f"{type(error).__name__}: {error}"))
                return
        self.post_message(SearchFinished(search_id, result))

    def _show_thinking(self) -> None:
        """Hand the thinking panel what the running (or last) search knows."""
        match = self.match
        engine = match.search_engine or match.engines.get(1) or match.engines.get(0)
        label, limits = "", Limits()
        if engine is not None:
            limits = engine.limits
            label = engine_title(engine.spec)
            if ":" in engine.spec:  # "Greedy (greedy)" would say nothing new
                label += f" ({engine.spec})"
        self.thinking_panel.show(
            ThinkingView(
                info=match.thinking_info,
                position=match.search_position or self.game.position,
                limits=limits,
                label=label,
                running=self.thinking,
                steady=self.steady,
            )
        )

    def on_search_progress(self, message: SearchProgress) -> None:
        if not self.match.progress(message.search_id, message.info):
            return
        board = self.board
        if board.view is not None and board.view.preferred != message.info.best:
            board.view = replace(board.view, preferred=message.info.best)
        self._show_thinking()

    def on_search_finished(self, message: SearchFinished) -> None:
        if not self.match.finish_search(message.search_id, message.result):
            self.show_notices()  # stale: dropped unseen; illegal: said, and paused
            self.refresh_view()
            return
        if self.match.sides.watching and not self.steady:
            search_id = self.search_id
            self.refresh_view()
            # A pause between the moves (the speed) lets people follow the game. No
            # pause at all is the next turn after this frame: Textual's timer cannot
            # wait zero seconds (it divides by its interval).
            if self.match.delay > 0:
                self.set_timer(self.match.delay, lambda: self._continue(search_id))
            else:
                self.call_after_refresh(self._continue, search_id)
        else:
            self.update()

    def _continue(self, search_id: int) -> None:
        if search_id == self.search_id:
            self.maybe_start_ai()

    def on_search_failed(self, message: SearchFailed) -> None:
        if self.match.search_failed(message.search_id, message.error):
            self.update()

    def action_ai_move(self) -> None:
        """Make the AI move now: cut its search short, or let it play the side to move."""
        match = self.match
        if match.thinking and match.hurry():
            self._cut_short_at = time.monotonic()
            return
        mover = self.game.position.to_move
        if not match.is_ai(mover) and time.monotonic() - self._cut_short_at < M_REPEAT_GRACE:
            # An impatient second m, arriving just after the AI's move: it meant "hurry
            # up", not "play my move for me".
            self.notify("The AI has moved: your turn. (m again plays a move for you.)", timeout=2)
            self._cut_short_at = 0.0
            return
        engine = match.ai_move()
        if engine is not None:
            self.start_search(engine)
        self.update()

    def action_hint(self) -> None:
        request = self.match.request_hint(hint_spec(self.game.position))
        if request is not None:
            self.notify(f"Looking for a hint ({request.spec})…", timeout=2)
            self.run_hint(request.hint_id, request.spec, request.position, request.stop)
        self.update()

    @work(thread=True, exclusive=True, group="hint", exit_on_error=False)
    def run_hint(self, hint_id: int, spec: str, position, stop) -> None:
        try:
            column, reason = hint_reason(spec, position, stop, seed=self.match.seed)
        except Exception as error:  # no hint is better than a crash
            self.post_message(HintFinished(hint_id, None, f"{type(error).__name__}: {error}"))
            return
        self.post_message(HintFinished(hint_id, column, reason))

    def on_hint_finished(self, message: HintFinished) -> None:
        if self.match.finish_hint(message.hint_id, message.column, message.reason):
            if message.column is not None:
                self.cursor = message.column
            self.update()
