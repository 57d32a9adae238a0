"""Two engines playing while people watch: pausing them, one move at a time, and the
pause between their moves. A part of the match (controller.py), which hands its
intents here."""

from __future__ import annotations

from typing import Protocol

from c4tui.engine.players.contract import Engine
from c4tui.match.part import EnginesOwner
from c4tui.match.search_requests import GAME_OVER

WATCH_DELAYS = (0.0, 0.2, 0.4, 1.0, 2.0)  # seconds between moves when two engines play


def next_delay(delay: float, steps: int) -> float:
    """The pause `steps` along WATCH_DELAYS from the one nearest `delay` (positive:
    slower), kept within them."""
    nearest = min(range(len(WATCH_DELAYS)), key=lambda i: abs(WATCH_DELAYS[i] - delay))
    return WATCH_DELAYS[max(0, min(len(WATCH_DELAYS) - 1, nearest + steps))]


class Owner(EnginesOwner, Protocol):
    """What the watching keys ask of their match."""

    def pause(self) -> None: ...
    def resume(self) -> None: ...
    def hurry(self) -> bool: ...
    def run(self, engine: Engine) -> bool: ...


class Watching:
    """Pause, step and speed, for the match it is given."""

    def __init__(self, match: Owner) -> None:
        self._match = match

    def _refused(self, what: str) -> bool:
        """Say so when two engines are not playing: the keys are theirs."""
        if self._match.sides.watching:
            return False
        self._match.notify(
            f"{what} is for two engines playing: {{move_now}} makes the AI move.", timeout=3
        )
        return True

    def toggle_pause(self) -> bool:
        """Pause two engines playing (the running search stops; its move is not played),
        or let them go on. Returns whether the match is now paused."""
        match = self._match
        if not self._refused("Pause"):
            if match.paused:
                match.resume()
            else:
                match.pause()
        return match.paused

    def step(self) -> None:
        """The engine to move plays one move now (a running search is hurried) and the
        match then pauses (with a notice when there is nothing to step)."""
        match = self._match
        if self._refused("Stepping"):
            return
        if match.position.is_over():
            match.notify(GAME_OVER, timeout=2)
            return
        match.hold()
        # A running search is hurried: its move is played as soon as it returns.
        if not match.hurry():
            match.run(match.engines[match.position.to_move])

    def change_speed(self, steps: int) -> float:
        """Move the pause between two engines' moves `steps` along WATCH_DELAYS (positive:
        slower); returns the new pause in seconds, and says it."""
        match = self._match
        match.delay = next_delay(match.delay, steps)
        # One title: the newest speed replaces the notice of the one before.
        match.notify(f"{match.delay:g} s between moves.", timeout=2, title="Speed")
        return match.delay
