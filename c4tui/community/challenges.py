"""Challenges: one player asks another for a game with a time control, rated or casual.

Pure: no I/O, and the clock (wall-clock seconds, so a challenge outlives a restart) is
handed in. The room service keeps one `ChallengeBook`; bots answer the same objects
through their API. A `Challenge` is a small frozen value that goes to and from JSON as
it is (`as_json`, `from_json`), for the store, the protocol and the bot API alike.

- A game played now (minutes and seconds) needs the other player online; the
  challenge waits `LIVE_SECONDS` for an answer, and goes when either player leaves.
- A correspondence game (days per move) may be asked of a player who is away: the
  challenge waits in their lobby for `CORRESPONDENCE_DAYS`.
- Never between players of whom one blocks the other; never to oneself; one open
  challenge per two players; at most `MAX_OPEN` open challenges made by one player.
- The one challenged accepts or declines; the challenger may cancel; either way the
  challenge is gone from the book, and what happened is the caller's to say.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from c4tui.community.automatch import Blocked, nobody_blocked

LIVE_SECONDS = 120.0  # an answer to a challenge for a game now
CORRESPONDENCE_DAYS = 7  # a correspondence challenge waits this long in a lobby
MAX_OPEN = 5  # open challenges one player may have made


class ChallengeRefused(ValueError):
    """A challenge that cannot be made or answered; the message says why, in words."""


@dataclass(frozen=True)
class Challenge:
    """One open challenge (see the module docstring)."""

    id: int
    challenger: str  # identity keys...
    challenger_name: str  # ...and the names shown
    opponent: str
    opponent_name: str
    control: str  # the time control as the lobby names it: "3+2", "1d"
    rated: bool
    correspondence: bool
    made: float  # wall-clock seconds
    expires: float

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Challenge:
        return cls(**data)

    def terms(self) -> str:
        """What is offered, in words: '3+2, rated'."""
        return f"{self.control}, {'rated' if self.rated else 'casual'}"


@dataclass
class ChallengeBook:
    """The open challenges of a server, by id."""

    clock: Callable[[], float]
    blocked: Blocked = nobody_blocked
    open: dict[int, Challenge] = field(default_factory=dict)
    live_seconds: float = LIVE_SECONDS  # how long a challenge for a game now waits
    issued: int = 0  # the highest number given: an answered challenge's is not given again

    def make(
        self,
        challenger: tuple[str, str],
        opponent: tuple[str, str],
        control: str,
        *,
        rated: bool,
        correspondence: bool,
        opponent_online: bool,
    ) -> Challenge:
        """A new challenge from `challenger` to `opponent` (each a key and a name)."""
        (key, name), (other, other_name) = challenger, opponent
        if key == other:
            raise ChallengeRefused("You cannot challenge yourself.")
        if self.blocked(key, other) or self.blocked(other, key):
            raise ChallengeRefused(f"You cannot challenge {other_name}.")
        if not correspondence and not opponent_online:
            raise ChallengeRefused(
                f"{other_name} is not online: challenge them to a correspondence game."
            )
        if any({c.challenger, c.opponent} == {key, other} for c in self.open.values()):
            raise ChallengeRefused(f"A challenge between you and {other_name} is open already.")
        if len(self.made_by(key)) >= MAX_OPEN:
            raise ChallengeRefused(f"You have {MAX_OPEN} open challenges: cancel one first.")
        now = self.clock()
        wait = CORRESPONDENCE_DAYS * 86400.0 if correspondence else self.live_seconds
        self.issued = max(self.issued, max(self.open, default=0)) + 1
        challenge = Challenge(
            self.issued,
            key,
            name,
            other,
            other_name,
            control,
            rated,
            correspondence,
            now,
            now + wait,
        )
        self.open[challenge.id] = challenge
        return challenge

    def restore(self, challenge: Challenge) -> None:
        """A challenge kept from before a restart."""
        self.open[challenge.id] = challenge

    def _answered(self, number: int, key: str, by: str) -> Challenge:
        challenge = self.open.get(number)
        if challenge is None or challenge.expires <= self.clock():
            raise ChallengeRefused("That challenge is no longer open.")
        if getattr(challenge, by) != key:
            raise ChallengeRefused("That challenge is not yours to answer.")
        del self.open[number]
        return challenge

    def accept(self, number: int, key: str) -> Challenge:
        """The one challenged says yes: the caller makes the game."""
        return self._answered(number, key, "opponent")

    def decline(self, number: int, key: str) -> Challenge:
        return self._answered(number, key, "opponent")

    def cancel(self, number: int, key: str) -> Challenge:
        return self._answered(number, key, "challenger")

    def expired(self) -> list[Challenge]:
        """The challenges whose time is up (still in the book)."""
        now = self.clock()
        return [c for c in self.open.values() if c.expires <= now]

    def expire(self) -> list[Challenge]:
        """The challenges whose time is up, out of the book."""
        gone = self.expired()
        for challenge in gone:
            del self.open[challenge.id]
        return gone

    def left(self, key: str) -> list[Challenge]:
        """A player went offline: their challenges for a game now go (both ways)."""
        gone = [
            c
            for c in self.open.values()
            if not c.correspondence and key in (c.challenger, c.opponent)
        ]
        for challenge in gone:
            del self.open[challenge.id]
        return gone

    def made_by(self, key: str) -> list[Challenge]:
        return sorted((c for c in self.open.values() if c.challenger == key), key=lambda c: c.id)

    def made_to(self, key: str) -> list[Challenge]:
        return sorted((c for c in self.open.values() if c.opponent == key), key=lambda c: c.id)
