"""GameClock: both sides' time in a game on a clock, counting down the side to move.

It draws the `ClockView` handed to it (the service's figures and when they came), never
keeps time of its own: between two views it counts the running side down from the
figure it was sent, so every screen shows what the server counts. The running side is
marked by a glyph (▸), not by colour alone; a side under LOW seconds is marked too.
"""

from __future__ import annotations

import time

from rich.text import Text
from textual.timer import Timer
from textual.widgets import Static

from c4tui.match.room_view import ClockView
from c4tui.match.sides import GLYPHS

LOW = 10.0  # seconds: below this a side's time shows tenths, marked as short
DAY = 86400.0


def clock_words(seconds: float, correspondence: bool = False) -> str:
    """Time left as a clock shows it: "4:05", "1:02:03", "0:07.3" under LOW, "2d 05h"
    from a day up; days a move in hours and minutes under a day ("23h 59m"), so that its
    two sides read alike, never "23:59:56" beside "1d 00h"."""
    if seconds >= DAY:
        days, rest = divmod(int(seconds), int(DAY))
        return f"{days}d {rest // 3600:02d}h"
    if correspondence:
        hours, rest = divmod(int(seconds), 3600)
        return f"{hours}h {rest // 60:02d}m"
    if seconds < LOW:
        return f"0:{seconds:04.1f}"
    hours, rest = divmod(int(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def clock_text(clock: ClockView, names: tuple[str, str], now: float) -> Text:
    """One line: each side's glyph, name and time, the running one marked (the time
    control's words go on the room's frame)."""
    text = Text(no_wrap=True, overflow="ellipsis")
    for side in (0, 1):
        left = clock.remaining(side, now)
        running = clock.running == side
        mark = "▸" if running else " "
        style = "bold" if running else ""
        if left < LOW and clock.running is not None:
            style += " reverse"
        text.append(f"{mark}{GLYPHS[side]} {names[side]} ", style=style.strip())
        words = clock_words(left, clock.correspondence)
        text.append(words, style=("bold " + style).strip())
        text.append("   " if side == 0 else "")
    return text


class GameClock(Static):
    """The clock line of a room on a clock (hidden without one)."""

    DEFAULT_CSS = """
    GameClock { height: auto; }
    """

    def __init__(self) -> None:
        super().__init__(id="game-clock")
        self._clock: ClockView | None = None
        self._names: tuple[str, str] = ("", "")
        self._shown: Text | None = None
        self._timer: Timer | None = None
        self.display = False

    def on_mount(self) -> None:
        # Tenths show under LOW seconds: a tenth of a second keeps them true. The timer
        # runs only while a clock runs: a room without one, or a finished game, has
        # nothing that changes by itself.
        self._timer = self.set_interval(0.1, self._tick, pause=True)
        self._run_timer()

    def show(self, clock: ClockView | None, names: tuple[str, str]) -> None:
        self._clock, self._names = clock, names
        self.display = clock is not None
        self._tick()
        self._run_timer()

    def _run_timer(self) -> None:
        if self._timer is None:
            return  # not mounted yet: on_mount runs it
        if self._clock is not None and self._clock.running is not None:
            self._timer.resume()
        else:
            self._timer.pause()

    def _tick(self) -> None:
        if self._clock is not None:
            # Ten ticks a second, the words change once (tenths only near the end): a
            # repaint only then, and no layout pass (one line, never wrapped).
            text = clock_text(self._clock, self._names, time.monotonic())
            if text != self._shown:
                first, self._shown = self._shown is None, text
                self.update(text, layout=first)
