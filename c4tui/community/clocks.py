"""Time controls and the clock a server keeps for a game: pure, the time always handed in.

A `TimeControl` is minutes per side plus seconds added after each move ("5+3"), or days
per move for correspondence ("3d"). Its `rating_class` sorts it by the length of game
it makes: the base time plus MOVES_PER_SIDE increments (a 7x6 game has at most 21 moves
per side; most last 15-20), under 3 minutes bullet, under 8 blitz, else rapid; days per
move are correspondence. There is no classical class: Connect Four games are short, and
four pools of players are already thin on one server.

A `Clock` holds each side's time left. Only the side to move has its time running
(`running`), from `since`; every method takes `now` (seconds, any steady origin), so
the tests move time by hand. After a move its mover gets the increment (correspondence:
its days per move again) and the other side's time runs. A side whose time is gone has
lost (`flagged`): Connect Four has no rule like chess's insufficient material, since
either side can still make four as long as the board has room, so running out of time
always loses (see `flag_ending`).

Kept and resumed (`kept`, `Clock.resumed`): the kept form is each side's time left as
of its last charge (a move, or `charge`), with no timestamp, so a restarted server
starts the running side's time again from its restart. The time the server was down is
never charged; nor is the time between the last charge and the stop (the room service
charges and keeps a running clock every CLOCK_KEEP seconds, so that part is short),
except when another server takes the room over: it charges up to the dead server's last
heartbeat, or to where a relayed player saw their own time stopped (the time the player
saw run: server/rooms/leasing.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

MOVES_PER_SIDE = 20  # the moves a side makes in a long game, for a control's class
DAY = 86400.0
# Estimated game length (seconds per side) below which a control is of a class.
CLASS_LIMITS = (("bullet", 180.0), ("blitz", 480.0))
RATING_CLASSES = ("bullet", "blitz", "rapid", "correspondence")
CLOCK_KEEP = 30.0  # seconds between keeps of a running clock (the room service's)
_TEXT = re.compile(r"\s*(\d+(?:\.\d+)?)\s*\+\s*(\d+)\s*|\s*(\d+)\s*d(?:ays?)?\s*")


@dataclass(frozen=True)
class TimeControl:
    """Minutes per side plus seconds per move, or (days > 0) days per move."""

    minutes: float = 0.0
    increment: int = 0
    days: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "minutes", float(self.minutes))  # 5 and 5.0 are one control
        if self.days:
            if self.minutes or self.increment or not 1 <= self.days <= 30:
                raise ValueError("a correspondence time control is 1-30 days a move")
        elif not (0 < self.minutes <= 180 and 0 <= self.increment <= 180):
            raise ValueError(
                "a time control is more than 0 and at most 180 minutes, plus 0-180 seconds"
            )

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """ "5+3" (minutes + seconds a move), "1.5+0", "3d" (days a move); ValueError
        quoting the text otherwise."""
        found = _TEXT.fullmatch(text)
        if found is None:
            raise ValueError(f"a time control is like 5+3 or 3d, not {text[:30]!r}")
        minutes, increment, days = found.groups()
        try:
            if days is not None:
                return cls(days=int(days) or -1)  # "0d" is no correspondence control
            return cls(float(minutes), int(increment))
        except ValueError as error:
            raise ValueError(f"{error} (given {text.strip()[:30]!r})") from None

    @property
    def correspondence(self) -> bool:
        return self.days > 0

    @property
    def text(self) -> str:
        """As a person writes it: "5+3", "3d"."""
        return f"{self.days}d" if self.days else f"{self.minutes:g}+{self.increment}"

    @property
    def words(self) -> str:
        """ "5+3 blitz", "3 days a move"."""
        if self.days:
            return f"{self.days} day{'s' if self.days > 1 else ''} a move"
        return f"{self.text} {self.rating_class}"

    @property
    def start_seconds(self) -> float:
        """Each side's time at the start (correspondence: the first move's)."""
        return self.days * DAY if self.days else self.minutes * 60.0

    @property
    def estimated_seconds(self) -> float:
        """How long a side's share of a long game takes: the base plus its increments."""
        if self.days:
            return self.days * DAY * MOVES_PER_SIDE
        return self.minutes * 60.0 + MOVES_PER_SIDE * self.increment

    @property
    def rating_class(self) -> str:
        """bullet, blitz, rapid or correspondence (the rule in the module docstring)."""
        if self.days:
            return "correspondence"
        for name, below in CLASS_LIMITS:
            if self.estimated_seconds < below:
                return name
        return "rapid"

    def to_wire(self) -> dict[str, Any]:
        return {"minutes": self.minutes, "increment": self.increment, "days": self.days}

    @classmethod
    def from_wire(cls, data: Any) -> TimeControl:
        """From `to_wire`'s form; ValueError when it is not one."""
        if not isinstance(data, dict) or set(data) != {"minutes", "increment", "days"}:
            raise ValueError("a time control is {minutes, increment, days}")
        minutes, increment, days = data["minutes"], data["increment"], data["days"]
        if not (_number(minutes) and _whole(increment) and _whole(days)):
            raise ValueError("a time control's minutes, increment and days are numbers")
        return cls(float(minutes), increment, days)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def grace_seconds(
    control: TimeControl | None, longest: float, share: float, shortest: float
) -> float | None:
    """How long a player who left a game under way is waited for before the other side
    may claim it: `share` of the control's estimated game length, at least `shortest`,
    at most `longest` (a game without a clock waits `longest`). None for correspondence:
    coming and going is how it is played, and its days per move are the only limit."""
    if control is None:
        return longest
    if control.correspondence:
        return None
    return max(shortest, min(longest, share * control.estimated_seconds))


def never_moved(side: int, moves: int) -> bool:
    """True when `side` (0 ●, 1 ○) has made no move of a game `moves` moves long."""
    return moves <= side


def flag_ending(side: int, moves: int) -> tuple[str, int]:
    """How the game ends when `side` runs out of time with `moves` made, and who wins:
    ("time", the other side); a side that never moved ("forfeit", the other side), which
    changes no rating. The flagging side always loses (see the module docstring)."""
    return ("forfeit" if never_moved(side, moves) else "time"), 1 - side


@dataclass
class Clock:
    """Both sides' time; the running side's counts down from `since` (see the module)."""

    control: TimeControl
    left: list[float]  # seconds each side had when its time last stopped or started
    running: int | None = None  # the side whose time runs, if any
    since: float = 0.0  # when the running side's time started

    @classmethod
    def new(cls, control: TimeControl) -> Clock:
        return cls(control, [control.start_seconds, control.start_seconds])

    def remaining(self, side: int, now: float) -> float:
        """The side's time left at `now`; never below 0."""
        left = self.left[side]
        if self.running == side:
            left -= max(0.0, now - self.since)
        return max(0.0, left)

    def start(self, side: int, now: float) -> None:
        """`side`'s time runs from `now` (the game is on, or resumed)."""
        self.stop(now)
        self.running, self.since = side, now

    def stop(self, now: float) -> None:
        """No time runs from `now` (the game is over); the running side is charged to it."""
        if self.running is not None:
            self.left[self.running] = self.remaining(self.running, now)
        self.running = None

    def moved(self, side: int, now: float) -> None:
        """`side` has moved at `now`: it gets its increment (correspondence: its days per
        move again), and the other side's time runs."""
        self.stop(now)
        if self.control.correspondence:
            self.left[side] = self.control.start_seconds
        else:
            self.left[side] += self.control.increment
        self.start(1 - side, now)

    def flagged(self, now: float) -> int | None:
        """The side whose time has run out by `now`, if any (only a running side's can)."""
        if self.running is not None and self.remaining(self.running, now) <= 0:
            return self.running
        return None

    def falls_at(self) -> float | None:
        """When the running side's time runs out if it does not move (None: none runs)."""
        return None if self.running is None else self.since + self.left[self.running]

    def charge(self, now: float) -> None:
        """Take the running side's time so far off its figure (its time runs on), so
        that what is kept is up to date."""
        if self.running is not None:
            self.start(self.running, now)

    def kept(self) -> dict[str, Any]:
        """The clock as kept on disk: each side's time left as of its last charge (a
        move, `charge`, `stop`), and whose runs."""
        left = [round(x, 3) for x in self.left]
        return {"control": self.control.to_wire(), "left": left, "running": self.running}

    def resume(self, now: float) -> None:
        """After a restart: the running side's time runs again from `now` (which may be
        later than the present: nothing runs until then); the time since the clock was
        last charged is not charged."""
        self.since = now

    @classmethod
    def resumed(cls, kept: Any, now: float) -> Clock:
        """A kept clock, its running side's time running again from `now` (the time
        since it was kept is not charged); ValueError when `kept` is not a kept clock."""
        if not isinstance(kept, dict) or set(kept) != {"control", "left", "running"}:
            raise ValueError("a kept clock is {control, left, running}")
        control = TimeControl.from_wire(kept["control"])
        left, running = kept["left"], kept["running"]
        if not (isinstance(left, list) and len(left) == 2 and all(_number(x) for x in left)):
            raise ValueError("a kept clock's time left is two numbers")
        if not all(0 <= x <= 1e9 for x in left):  # increments may add up past the start
            raise ValueError("a kept clock's time left is out of range")
        if running not in (None, 0, 1) or isinstance(running, bool):
            raise ValueError("a kept clock's running side is 0, 1 or null")
        return cls(control, [float(x) for x in left], running, now)
