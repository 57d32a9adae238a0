"""What the fronts hand the room service: who a client is, and the service's limits.

`Identity` and `RoomLimits` are part of the seam with c4tui/server/fronts (docs/serve-contract.md);
c4tui.server.service.service, where the fronts import them from, re-exports both.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Identity:
    """Who a client is, as its front established it."""

    key: str  # stable: "ssh-key:SHA256:<fingerprint>", "ssh-name:<name>", "web:<id>"
    name: str  # display name (sanitised by the service: printable, <= 20 characters)
    address: str  # peer address, for logs and per-address limits


@dataclass(frozen=True)
class RoomLimits:
    rooms: int = 50  # rooms at once
    rooms_per_player: int = 3  # rooms one identity has a seat in (a held seat counts)
    rooms_per_address: int = 10  # rooms with a seat taken from one address (a NAT, a proxy)
    code_guesses: int = 5  # wrong room codes one identity may try at once (then 1 per 12 s)
    code_guesses_per_address: int = 30  # the same for everyone at one address together
    ai_seconds: float = 2.0  # cap on any AI seat's budget per move
    ai_workers: int = 2  # worker processes for AI searches
    seat_hold: float = 300.0  # seconds a dropped player's seat is held (the longest grace)
    grace_share: float = 0.1  # of a timed game's length: a dropped player's grace
    grace_least: float = 15.0  # seconds: the shortest grace of a timed game
    correspondence_games: int = 20  # correspondence games one player may have at once
    max_line: int = 64 * 1024  # bytes per protocol line
    # The operator's engines for the AI seat, (name, spec): outside ones (cmd:, ...) may
    # be among them; a client names one ("server:NAME") and never types a spec that runs.
    engines: tuple[tuple[str, str], ...] = ()
    bot_games: int = 4  # games one bot plays at once
    bot_moves_per_second: float = 2.0  # moves of one bot, all its games together
    # The operator's tournaments (c4tui serve --tournament): (name, control, rounds, the
    # start in Unix seconds), each made at start unless one of its name is on already.
    tournaments: tuple[tuple[str, str, int, float], ...] = ()
    # seconds a room's lease runs unrenewed: a dead server's rooms move after it (room_leases.py)
    lease_seconds: float = 15.0
    store_timeout: float = 5.0  # seconds a PostgreSQL statement may take (postgres_store.py)
    # PostgreSQL connections writing the rooms' changes at once (store/writer.py); SQLite
    # has one write lock, so it always takes one
    store_writers: int = 4
    # seconds between a tournament's rounds: its players see how their game ended first
    round_pause: float = 15.0


MOST_ROUND_PAUSE = 3600  # seconds: the longest pause an operator may set (--round-pause)


def display_name(name: str) -> str:
    """A name others can be shown: printable characters only, at most 20, never empty."""
    cleaned = " ".join("".join(ch for ch in name if ch.isprintable()).split())
    return cleaned[:20].strip() or "guest"
