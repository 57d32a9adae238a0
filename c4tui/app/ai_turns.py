"""AiTurns: the AI's turns in the app: the search runner the match is given, what the
searches' messages do, hints, and watching two engines play
(pause, step, speed).

A part of the app. The match (c4tui/match) decides when an engine searches, hands each
search to the runner with its id and stop event, and judges every result (a stale one
is dropped); the runner runs it in a thread worker and reports back here, on the UI's
thread; the keys here only send the match intents.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from textual.app import SystemCommand

from c4tui.app.keys import keyed_command
from c4tui.app.messages import HintFinished, SearchFailed, SearchFinished, SearchProgressed
from c4tui.app.part_host import Host
from c4tui.app.search_runner import WorkerSearchRunner

M_REPEAT_GRACE = 1.0  # seconds after `m` hurried the AI in which another `m` is a repeat
WATCHING_ACTIONS = ("step", "speed")  # the actions only two engines playing have


class AiTurns:
    """Searches, hints and the watching keys, for the app it is given."""

    def __init__(self, app: Host) -> None:
        self._app = app
        self.runner = WorkerSearchRunner(app)  # given to the match, which starts its searches
        # time.monotonic() of the last `m` that hurried the AI; None when no `m` is owed
        # a grace (not 0.0: a machine up for less than the grace would see one).
        self._cut_short_at: float | None = None

    # ---- which keys apply --------------------------------------------------------------

    def allows(self, action: str) -> bool:
        """The watching keys only while two engines play (pause and step until the end);
        then Space pauses (or goes on)
        rather than drops, `.` rather than `m` moves now, and there is no hint to give."""
        match = self._app.match
        watching = match.sides.watching
        if action in ("pause", "go_on", "step"):  # a finished game has nothing to pause
            if not watching or match.over:
                return False
            return action == "step" or (action == "go_on") == match.paused
        if action in WATCHING_ACTIONS:
            return watching
        if action in ("drop_at_cursor", "hint", "move_now"):
            # A game over (played to its end, or loaded finished) has nothing to drop,
            # hint or move: the footer shows what applies (new game, review, undo).
            return not watching and not match.over
        return True

    def commands(self) -> Iterable[SystemCommand]:
        if not self._app.match.sides.watching:
            return
        yield keyed_command(
            "Pause / go on", "Stop or resume the engines", "part('ai', 'pause')", self.pause
        )
        yield keyed_command(
            "One move", "The engine to move plays, then pause", "part('ai', 'step')", self.step
        )
        yield keyed_command(
            "Slower",
            "A longer pause between moves",
            "part('ai', 'speed', 1)",
            lambda: self.speed(1),
        )
        yield keyed_command(
            "Faster",
            "A shorter pause between moves",
            "part('ai', 'speed', -1)",
            lambda: self.speed(-1),
        )

    # ---- searches ----------------------------------------------------------------------

    def cancel(self) -> None:
        """Stop the running search at once; whatever it still sends is stale."""
        self._app.match.cancel_search()
        self.runner.cancel()

    def progress(self, message: SearchProgressed) -> bool:
        """Take a live snapshot; False when it is stale."""
        return self._app.match.progress(message.search_id, message.info)

    def finished(self, message: SearchFinished) -> None:
        """The move is played unless stale (an illegal one is said, and pauses); the
        match then starts the next engine's search itself."""
        self._app.match.finish_search(message.search_id, message.result)
        self._app.update()

    def failed(self, message: SearchFailed) -> None:
        if self._app.match.search_failed(message.search_id, message.error, forfeit=message.forfeit):
            self._app.update()

    # ---- the person's keys -----------------------------------------------------------

    def move_now(self) -> None:
        """`m`: cut the AI's search short, or let an engine play the side to move."""
        app, match = self._app, self._app.match
        if match.thinking:
            match.move_now()  # hurried: the search returns its best move so far
            self._cut_short_at = time.monotonic()
            return
        mover = match.position.to_move
        hurried = self._cut_short_at
        if (
            not match.is_ai(mover)
            and hurried is not None
            and time.monotonic() - hurried < M_REPEAT_GRACE
        ):
            # An impatient second m, arriving just after the AI's move: it meant "hurry
            # up", not "play my move for me".
            app.notify("The AI has moved: your turn. (m again plays a move for you.)", timeout=2)
            self._cut_short_at = None
            return
        match.move_now()
        app.update()

    def hint(self) -> None:
        self._app.match.hint()
        self._app.update()

    def hint_finished(self, message: HintFinished) -> None:
        app = self._app
        if app.match.finish_hint(message.hint_id, message.column, message.reason):
            if message.column is not None:
                app.cursor = message.column
            app.update()

    # ---- two engines playing ---------------------------------------------------------

    def pause(self) -> None:
        """Space: pause two engines playing, or let them go on."""
        if self._app.match.watching.toggle_pause():
            self.runner.cancel()
        self._app.update()

    def go_on(self) -> None:
        """Space while paused: the same key, said as what it does now."""
        self.pause()

    def step(self) -> None:
        self._app.match.step()
        self._app.update()

    def speed(self, steps: int) -> None:
        self._app.remember(watch_delay=self._app.match.watching.change_speed(steps))
        self._app.show_notices()
