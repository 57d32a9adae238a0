"""Who plays in a session: the identity a front established, and one live session each."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Player:
    """Who a session belongs to, as the front established it."""

    key: str  # "ssh-key:SHA256:...", "ssh-name:<name>" or "web:<id>"
    name: str
    address: str


# The room service's side of a new session: the client's environment variables that
# let it in (the socket, and a one-time token bound to the player).
Credentials = Callable[[Player], dict[str, str]]


class Players:
    """The players with a live session on one front.

    A second session of one identity while the first is live is another player (its key
    and name get a number: `...#2`, `ann-2`), so two terminals of one account can play
    each other instead of sharing a seat. A session that comes back after its connection
    died finds its number free again, and so its identity and its seat.
    """

    def __init__(self) -> None:
        self.numbers: defaultdict[str, set[int]] = defaultdict(set)
        self.entered: dict[Player, tuple[str, int]] = {}

    def enter(self, player: Player) -> Player:
        """The player this session plays as (numbered if the identity is in use)."""
        base = player.key
        taken = self.numbers[base]
        number = next(n for n in range(1, len(taken) + 2) if n not in taken)
        taken.add(number)
        if number > 1:
            player = Player(f"{base}#{number}", f"{player.name}-{number}", player.address)
        self.entered[player] = (base, number)
        return player

    def leave(self, player: Player) -> None:
        """The session of `player` (as `enter` returned it) has ended; call it once."""
        key, number = self.entered.pop(player)
        self.numbers[key].discard(number)
        if not self.numbers[key]:
            del self.numbers[key]
