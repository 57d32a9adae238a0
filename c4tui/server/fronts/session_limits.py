"""The fronts' limits: how many sessions, from where, how fast, and how much each client may use.

One `Gate` is shared by the ssh and the web front, so "sessions at once" counts both.
Every refusal comes with the sentence the person refused is shown. (`c4tui --help` reads
the defaults here, so this module stays light: no asyncio.)
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class ServeLimits:
    """What one server allows; each is a `c4tui serve` flag (see commands/serve.py)."""

    sessions: int = 64  # sessions at once, ssh and web together
    sessions_per_address: int = 8  # sessions at once from one IP address
    connects_per_minute: int = 30  # new connections from one address per minute (floods)
    login_timeout: float = 30.0  # seconds to finish ssh authentication
    idle_timeout: float = 1800.0  # seconds without a key press before a session is closed
    client_memory_mb: int = 1024  # address-space cap of each client process
    client_nice: int = 10  # niceness added to each client process (lower CPU priority)
    password_guesses: int = 5  # wrong ssh passwords one name, or one address, may try at once
    password_wait: float = 60.0  # seconds, then one more guess each (the right one too)
    request_timeout: float = 10.0  # seconds for a web request's head to arrive whole
    connections_per_address: int = 32  # web connections open at once from one IP address
    refusal_lines: int = 10  # log lines of one kind of refusal from one address a minute

    @property
    def client_memory(self) -> int:
        return self.client_memory_mb * 1024 * 1024


class Gate:
    """Admits sessions within the limits and refuses connection floods, per address."""

    def __init__(self, limits: ServeLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self.open_sessions: Counter[str] = Counter()
        self.recent_connects: defaultdict[str, deque[float]] = defaultdict(deque)
        self.recent_refusals: defaultdict[str, deque[float]] = defaultdict(deque)

    @property
    def total(self) -> int:
        return sum(self.open_sessions.values())

    def connect(self, address: str) -> str | None:
        """Count a new connection from `address`; the reason to refuse it, or None."""
        refusal = self.flooding(address)
        if refusal is None:
            self.count(address)
        return refusal

    def flooding(self, address: str) -> str | None:
        """The reason to refuse a new connection from `address` (nothing is counted)."""
        if len(self._recent(address, self.recent_connects)) >= self.limits.connects_per_minute:
            return (
                f"too many connections from {address} "
                f"(more than {self.limits.connects_per_minute} a minute); wait a minute"
            )
        return None

    def count(self, address: str) -> None:
        """One more connection from `address` towards the limit per minute."""
        self._recent(address, self.recent_connects).append(self.clock())

    def refuse_politely(self, address: str) -> bool:
        """Whether a refused connection may be told why in its own protocol (which costs a
        key exchange): yes for as many a minute as the limit lets in, then a flood is
        dropped at once."""
        refused = self._recent(address, self.recent_refusals)
        refused.append(self.clock())
        return len(refused) <= self.limits.connects_per_minute

    def _recent(self, address: str, history: defaultdict[str, deque[float]]) -> deque[float]:
        """`address`'s times in `history` of the last minute (older ones dropped)."""
        now = self.clock()
        if len(history) > 4096:
            self.forget_quiet_addresses()
        recent = history[address]
        while recent and now - recent[0] >= 60.0:
            recent.popleft()
        return recent

    def admit(self, address: str) -> str | None:
        """Open a session for `address`, or say why not (the caller shows it and closes)."""
        if self.total >= self.limits.sessions:
            return f"the server is full ({self.limits.sessions} sessions); try again later"
        if self.open_sessions[address] >= self.limits.sessions_per_address:
            return (
                f"too many sessions from {address} "
                f"({self.limits.sessions_per_address} at once); close one first"
            )
        self.open_sessions[address] += 1
        return None

    def release(self, address: str) -> None:
        """A session admitted for `address` has ended."""
        self.open_sessions[address] -= 1
        if self.open_sessions[address] <= 0:
            del self.open_sessions[address]

    def forget_quiet_addresses(self) -> None:
        """Drop the connection history of addresses quiet for a minute (bounded memory)."""
        now = self.clock()
        for history in (self.recent_connects, self.recent_refusals):
            for address in [a for a, r in history.items() if not r or now - r[-1] >= 60]:
                del history[address]
