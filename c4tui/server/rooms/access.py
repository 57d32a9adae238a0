"""Who may do what: one-time tokens, room and seat codes, and limits on guessing them.

- A token binds one client process to the identity its front established (an ssh key
  or name). It is good once, and only for `ttl` seconds: a token seen in a log or left
  in an environment cannot be used again.
- Room codes are what players pass on to pair up: 6 characters from 29 that cannot be
  mistaken for each other (no 0/O, 1/I/L, 5/S) give 595 million codes. Wrong codes are
  limited per identity (by default 5 at once, then one every 12 s) and per address (30
  at once, then also one every 12 s; `c4tui serve --code-guesses` and
  `--code-guesses-per-address` set the first figures). Many people may share an address
  (a NAT, the recommended proxy): one person's guessing uses up their own 5 and locks
  out nobody else there, while made-up identities at one address share its allowance,
  at which finding any of the 150 codes of 50 rooms (room and seat codes) takes about a
  year and a half. A seat code (as long) reclaims a seat from another browser or terminal.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from c4tui.server.rooms.room import Room
from c4tui.server.wire.identity import RoomLimits

CODE_ALPHABET = "ABCDEFGHJKMNPQRTUVWXYZ2346789"
CODE_LENGTH = 6
GUESSES = 5  # wrong codes in a row allowed at once (RoomLimits.code_guesses)...
GUESS_REFILL = 12.0  # ...then one more every this many seconds


def new_code(taken: Callable[[str], bool] = lambda code: False) -> str:
    """A fresh code ("K7M-Q2X" as shown) that `taken` says is not in use."""
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if not taken(code):
            return code


def show_code(code: str) -> str:
    """A code as people read it out: two halves, "K7MQ2X" as "K7M-Q2X"."""
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


def normal_code(typed: str) -> str:
    """A code as typed ("k7m q2x", "K7M-Q2X") in its stored form ("K7MQ2X")."""
    return "".join(ch for ch in typed.upper() if ch.isalnum())


@dataclass(frozen=True)
class Grant:
    """What a token stands for until it expires."""

    subject: object
    expires: float


class Tokens:
    """One-time tokens that stand for an identity for a short while."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._grants: dict[str, Grant] = {}

    def issue(self, subject: object, ttl: float) -> str:
        self._forget_expired()
        token = secrets.token_urlsafe(24)
        self._grants[token] = Grant(subject, self.clock() + ttl)
        return token

    def redeem(self, token: str) -> object | None:
        """The token's subject, once; None when unknown, used or expired."""
        grant = self._grants.pop(token, None)
        if grant is None or grant.expires < self.clock():
            return None
        return grant.subject

    def _forget_expired(self) -> None:
        now = self.clock()
        for token in [t for t, grant in self._grants.items() if grant.expires < now]:
            del self._grants[token]


class GuessLimit:
    """A bucket of wrong guesses per key (an identity, or an address): `guesses` at
    once, one more every `refill` seconds."""

    def __init__(
        self,
        guesses: int = GUESSES,
        refill: float = GUESS_REFILL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.guesses, self.refill, self.clock = guesses, refill, clock
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, when)

    def wait(self, key: str) -> float:
        """Seconds until `key` may guess again (0 when it may now)."""
        tokens = self._tokens(key)
        return 0.0 if tokens >= 1 else (1 - tokens) * self.refill

    def missed(self, key: str) -> None:
        """`key` guessed a code that is not there."""
        self._buckets[key] = (self._tokens(key) - 1, self.clock())
        if len(self._buckets) % 1024 == 0:  # a flood of new keys: forget the full ones
            for full in [k for k in self._buckets if self._tokens(k) >= self.guesses]:
                del self._buckets[full]

    def _tokens(self, key: str) -> float:
        tokens, when = self._buckets.get(key, (self.guesses, self.clock()))
        return min(self.guesses, tokens + (self.clock() - when) / self.refill)


def new_room_refusal(
    rooms: Iterable[Room],
    key: str,
    address: str,
    limits: RoomLimits,
    correspondence: bool = False,
) -> str | None:
    """Why this person may not make one more room now (a `correspondence` one), or None
    when they may.

    Rooms are counted where a seat is theirs (a held one too: they may come back to
    it), and per address, so that one machine cannot fill the server's rooms with
    made-up identities (the caller leaves out the room it is about to give up).
    Correspondence games are counted apart, under limits of their own (per player; per
    address, that many times the rooms per address): a player has many at once, and
    they wait days for a move.
    """
    rooms = list(rooms)
    mine = [room for room in rooms if room.seat_of(key) is not None]
    by_post = sum(1 for room in mine if room.control is not None and room.control.correspondence)
    if correspondence and by_post >= limits.correspondence_games:
        return (
            f"You play {by_post} correspondence games, the most one player may: "
            "finish or resign one first."
        )
    if not correspondence and len(mine) - by_post >= limits.rooms_per_player:
        return (
            f"You have a seat in {len(mine) - by_post} rooms, the most one player may have: "
            "finish, resign or leave one first."
        )
    here = sum(
        1
        for room in rooms
        if any(seat.address == address for seat in room.seats)
        and (room.control is not None and room.control.correspondence) == correspondence
    )
    limit = limits.rooms_per_address * (limits.correspondence_games if correspondence else 1)
    if address and here >= limit:
        return f"{here} rooms have players from your address, the most allowed: try again later."
    return None
