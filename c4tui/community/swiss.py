"""Swiss pairing of one round: score groups, no rematches, colours balanced, one bye each.

Connect Four is a win for the first player with perfect play, and among people the
player with ● (who moves first) wins clearly more often, so colours matter more here
than in chess. The rules, in order of weight:

- two players never meet twice (hard);
- a player's colours stay balanced: the number of games with ● minus those with ○
  stays within -2..2 (hard);
- a player gets at most one bye, and the bye goes to the lowest-placed player who has
  not had one (hard);
- players meet others of their own score first; within a score group the upper half
  meets the lower half (the Dutch system's idea: the leaders do not knock each other
  out in the first round);
- each player gets the colour they are due (the one they had less, else the other one
  than last time, so colours alternate where they can).

A round is found by a depth-first search over the players from the top of the table,
trying each one's partners best first and backing up when the rest cannot be paired,
so the first pairing found is the best by these rules and every hard rule holds. It also
looks one round ahead: a pairing after which no next round keeps the hard rules is
passed over for one that leaves a next round (in tries of 1000 tournaments of 2 to 20
players and up to n - 1 rounds, this took the tournaments that ended early for want of
a pairing from 52 to 1). The search is bounded (`BUDGET` tries); None means no pairing
keeps the hard rules, and the tournament ends early (tournament.py) rather than break one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

FIRST, SECOND = "●", "○"  # the colours, as a player's history of games lists them
MOST_APART = 2  # games with one colour minus games with the other, at most
BUDGET = 200_000  # partner tries in one round's search before it gives up
LOOK_AHEAD = 5_000  # partner tries in checking that the round after can be paired


@dataclass(frozen=True)
class Entrant:
    """A player as the pairing sees them, before a round."""

    key: str
    score: float
    rating: float = 1500.0
    colours: str = ""  # this player's games in order: ● or ○ each (byes not counted)
    met: frozenset[str] = frozenset()  # keys of the players already met
    had_bye: bool = False

    @property
    def balance(self) -> int:
        """Games with ● minus games with ○."""
        return self.colours.count(FIRST) - self.colours.count(SECOND)

    def may_play(self, colour: str) -> bool:
        """Whether this colour keeps the player's colours within the rules."""
        balance = self.balance + (1 if colour == FIRST else -1)
        return abs(balance) <= MOST_APART

    def due(self) -> str | None:
        """The colour this player should have next, None when either is as good."""
        if self.balance:
            return SECOND if self.balance > 0 else FIRST
        if self.colours:
            return SECOND if self.colours[-1] == FIRST else FIRST
        return None


@dataclass(frozen=True)
class Pairing:
    """One game of a round: who plays ● (first) and who plays ○."""

    first: str
    second: str


@dataclass(frozen=True)
class RoundPairing:
    games: tuple[Pairing, ...]
    bye: str | None = None


def table_order(entrants: Sequence[Entrant]) -> list[Entrant]:
    """The players from the top of the table: score, then rating, then key (so the
    order never depends on how the list came)."""
    return sorted(entrants, key=lambda e: (-e.score, -e.rating, e.key))


def colours_for(a: Entrant, b: Entrant, board: int) -> Pairing | None:
    """Who plays ● when `a` (placed higher) meets `b`: the one due ●, else the one
    with fewer ● so far, else alternating down the boards; None when no way keeps both
    players' colours within the rules."""
    ways = [(x, y) for x, y in ((a, b), (b, a)) if x.may_play(FIRST) and y.may_play(SECOND)]
    if not ways:
        return None

    def fit(way: tuple[Entrant, Entrant]) -> tuple[int, int, int]:
        first, second = way
        misses = (first.due() == SECOND) + (second.due() == FIRST)
        # Between two players equally due, the one with more ○ gets ●; then the boards
        # alternate, so the top half of the table is not all ● in the first round.
        return misses, first.balance - second.balance, (first is a) == (board % 2 == 1)

    first, second = min(ways, key=fit)
    return Pairing(first.key, second.key)


def pair_round(
    entrants: Sequence[Entrant], budget: int = BUDGET, *, more_rounds: bool = False
) -> RoundPairing | None:
    """The pairing of the next round for these players (see the module docstring), or
    None when none keeps the hard rules. With `more_rounds`, a pairing that leaves the
    round after it pairable is taken over a better one that does not (six players after
    three rounds can be left as two triangles of players who have all met), when there
    is one."""
    table = table_order(entrants)
    if more_rounds:
        ahead = _pair_table(table, budget, lambda pairing: _leaves_a_round(table, pairing))
        if ahead is not None:
            return ahead
    return _pair_table(table, budget, lambda pairing: True)


def _leaves_a_round(table: list[Entrant], pairing: RoundPairing) -> bool:
    return _pair_table([_after(e, pairing) for e in table], LOOK_AHEAD, lambda p: True) is not None


def _after(entrant: Entrant, pairing: RoundPairing) -> Entrant:
    """The entrant once this round is played (scores aside: the hard rules ignore them)."""
    if pairing.bye == entrant.key:
        return replace(entrant, had_bye=True)
    for game in pairing.games:
        if entrant.key in (game.first, game.second):
            first = game.first == entrant.key
            other = game.second if first else game.first
            colour = FIRST if first else SECOND
            return replace(entrant, colours=entrant.colours + colour, met=entrant.met | {other})
    return entrant


def _pair_table(
    table: list[Entrant], budget: int, accept: Callable[[RoundPairing], bool]
) -> RoundPairing | None:
    """The best pairing of the table that `accept` takes. With an odd count the bye goes
    to the lowest-placed player without one whose absence leaves such a pairing."""
    tries = [budget]
    byes: list[Entrant | None] = [None]
    if len(table) % 2:
        byes = [e for e in reversed(table) if not e.had_bye]
    for bye in byes:
        rest = [e for e in table if e is not bye]
        key = None if bye is None else bye.key

        def whole(games: list[Pairing], bye_key: str | None = key) -> bool:
            return accept(RoundPairing(tuple(games), bye_key))

        games = _search(rest, tries, [], whole)
        if games is not None:
            return RoundPairing(tuple(games), key)
        if tries[0] < 0:
            return None
    return None


def _search(
    rest: list[Entrant],
    tries: list[int],
    chosen: list[Pairing],
    accept: Callable[[list[Pairing]], bool],
) -> list[Pairing] | None:
    """The games of `rest` (in table order) after those `chosen` above them, the top
    player's best partner first, as a whole that `accept` takes."""
    if not rest:
        return chosen if accept(chosen) else None
    top, others = rest[0], rest[1:]
    for partner in _partners(top, others):
        tries[0] -= 1
        if tries[0] < 0:
            return None
        game = colours_for(top, partner, len(chosen))
        if game is None:
            continue
        remaining = [e for e in others if e is not partner]
        found = _search(remaining, tries, [*chosen, game], accept)
        if found is not None or tries[0] < 0:
            return found
    return None


def _partners(top: Entrant, others: list[Entrant]) -> list[Entrant]:
    """The players `top` may meet, best first: nearest in score, then getting the
    colours both are due, then nearest to the middle of top's score group (upper half
    meets lower half)."""
    group = [e for e in others if e.score == top.score]
    middle = len(group) // 2  # top is the group's first: its partner is half-way down
    place = {e.key: i for i, e in enumerate(group)}

    def preference(e: Entrant) -> tuple[float, int, int]:
        colours_clash = top.due() is not None and top.due() == e.due()
        return abs(top.score - e.score), colours_clash, abs(place.get(e.key, 0) - middle)

    return sorted((e for e in others if e.key not in top.met), key=preference)
