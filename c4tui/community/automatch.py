"""Automatch: players who seek a game with a time control, paired by rating.

Pure: no I/O, and the clock is handed in, so tests move time as they like. The room
service (c4tui/server/desks/matchmaking.py) keeps one `SeekQueue`, adds and cancels
seeks as players ask, and calls `pair` about once a second; each `Pairing` it gets back
becomes a room.

The rules, in the order they decide:
- Only seeks of the same time control meet (one queue per control).
- Never two players of whom one blocks the other (`blocked(a, b)`, handed in by the
  people's module; asked both ways round).
- The rating gap must be within the range of the one who has waited longer: a seek
  starts at ±`Widening.start` and widens by `step` every `every` seconds up to
  `widest`, and after one more step it takes anyone. The longer waiter has earned the
  wider range, and a newcomer near a long waiter's rating should not keep them waiting.
- Not the same two players twice in a row while someone else waits who could play
  either of them (someone not blocked): they would rather meet somebody new, but two
  players alone in a queue still get their rematch.
- Fair order: the longest waiter chooses first, and takes the closest rating (the
  longer waiter among equals).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

Blocked = Callable[[str, str], bool]  # blocked(a, b): does a block b?


def nobody_blocked(a: str, b: str) -> bool:
    return False


@dataclass(frozen=True)
class Widening:
    """How the range of ratings a seek accepts grows with the time it has waited."""

    start: float = 100.0  # ± rating points at once
    step: float = 50.0  # wider by this...
    every: float = 5.0  # ...every this many seconds
    widest: float = 500.0  # the range stops growing here; one step later it is anyone

    def range(self, waited: float) -> float:
        """The rating gap a seek accepts after `waited` seconds (math.inf: anyone)."""
        steps = int(max(0.0, waited) // self.every)
        steps_to_widest = math.ceil((self.widest - self.start) / self.step)
        if steps > steps_to_widest:
            return math.inf
        return min(self.start + steps * self.step, self.widest)

    def words(self, waited: float) -> str:
        """The range as a player reads it: '±150' or 'anyone'."""
        width = self.range(waited)
        return "anyone" if width == math.inf else f"±{width:.0f}"


@dataclass(frozen=True)
class Seek:
    """One player waiting for a game with one time control."""

    key: str  # the player's identity
    name: str
    rating: float  # in the rating class of this time control
    control: Hashable  # the time control sought, as the service names it ("3+2")
    since: float  # when the seek began, on the queue's clock


@dataclass(frozen=True)
class Pairing:
    """Two seeks that meet: `first` waited longer (the service chooses colours)."""

    first: Seek
    second: Seek


@dataclass
class SeekQueue:
    """Every waiting seek, and the last opponent of each player (see the module docstring)."""

    clock: Callable[[], float]
    blocked: Blocked = nobody_blocked
    widening: Widening = field(default_factory=Widening)
    seeks: dict[str, Seek] = field(default_factory=dict)  # by player key: one seek each
    last_opponent: dict[str, str] = field(default_factory=dict)

    def seek(self, key: str, name: str, rating: float, control: Hashable) -> Seek:
        """Start (or replace) this player's seek; a new control starts the wait anew."""
        old = self.seeks.get(key)
        since = old.since if old is not None and old.control == control else self.clock()
        self.seeks[key] = Seek(key, name, rating, control, since)
        return self.seeks[key]

    def cancel(self, key: str) -> Seek | None:
        return self.seeks.pop(key, None)

    def waited(self, seek: Seek) -> float:
        return self.clock() - seek.since

    def range_of(self, seek: Seek) -> float:
        return self.widening.range(self.waited(seek))

    def played(self, a: str, b: str) -> None:
        """Two players met (here or in a challenge): next time, others first."""
        self.last_opponent[a], self.last_opponent[b] = b, a

    def waiting(self, control: Hashable) -> list[Seek]:
        """The seeks of one time control, the longest waiter first."""
        same = [s for s in self.seeks.values() if s.control == control]
        return sorted(same, key=lambda s: (s.since, s.key))

    def others_for(self, seek: Seek) -> list[Seek]:
        """The others waiting whom `seek` may ever meet: its time control, not blocked
        by it nor blocking it (the rating range and rematches only wait)."""
        return [
            s
            for s in self.waiting(seek.control)
            if s.key != seek.key and not self._blocks(s.key, seek.key)
        ]

    # ---- pairing ------------------------------------------------------------------

    def pair(self, most: int | None = None) -> list[Pairing]:
        """Every pairing the rules allow now (at most `most`: the rooms the server has
        left); those seeks leave the queue."""
        pairings: list[Pairing] = []
        for control in sorted({s.control for s in self.seeks.values()}, key=repr):
            left = None if most is None else most - len(pairings)
            pairings += self._pair_control(control, left)
        return pairings

    def _pair_control(self, control: Hashable, most: int | None) -> list[Pairing]:
        pairings: list[Pairing] = []
        # Until nothing changes: a pairing may free two others to rematch (no one else
        # waits for them any more).
        found = True
        while found and (most is None or len(pairings) < most):
            found = False
            queue = self.waiting(control)
            for seeker in queue:
                partner = self._partner(seeker, queue)
                if partner is not None:
                    pairings.append(Pairing(seeker, partner))
                    self.cancel(seeker.key)
                    self.cancel(partner.key)
                    self.played(seeker.key, partner.key)
                    found = True
                    break
        return pairings

    def _partner(self, seeker: Seek, queue: list[Seek]) -> Seek | None:
        """The best partner for `seeker` among `queue` (which it is in), or None."""
        fits = [other for other in queue if self.may_meet(seeker, other, queue)]
        if not fits:
            return None
        return min(fits, key=lambda o: (abs(o.rating - seeker.rating), o.since, o.key))

    def may_meet(self, a: Seek, b: Seek, queue: list[Seek]) -> bool:
        """Whether the rules let `a` and `b` play now, with `queue` waiting."""
        if a.key == b.key or a.control != b.control or self._blocks(a.key, b.key):
            return False
        if abs(a.rating - b.rating) > max(self.range_of(a), self.range_of(b)):
            return False
        if self.rematch(a.key, b.key):
            others = [s for s in queue if s.key not in (a.key, b.key)]
            if any(not self._blocks(o.key, p.key) for o in others for p in (a, b)):
                return False
        return True

    def rematch(self, a: str, b: str) -> bool:
        """Whether either player's last game was against the other."""
        return self.last_opponent.get(a) == b or self.last_opponent.get(b) == a

    def _blocks(self, a: str, b: str) -> bool:
        return self.blocked(a, b) or self.blocked(b, a)
