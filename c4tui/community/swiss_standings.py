"""The standings of a Swiss tournament: points, then Buchholz, then Sonneborn-Berger.

A win is 1 point, a draw ½, a loss 0, a bye 1 (the player was ready to play; the
pairing gives the bye to the lowest-placed player, so it rarely decides a place).

Ties are broken, in order, by:
1. Buchholz: the sum of the opponents' points (who you met says how hard your path was;
   it is the tie-break that suits few rounds with many equal scores, as a Swiss has);
2. Sonneborn-Berger: the points of the opponents you beat, plus half of those you drew
   with (beating strong players counts more than beating weak ones);
3. wins with ○: Connect Four favours the player who moves first, so a win with ○ is the
   harder one;
4. the rating the player came in with.
Players equal on points and on the first three tie-breaks share a place. A bye counts
in Buchholz and Sonneborn-Berger as a win against a player with the bye-taker's own
points (FIDE's "virtual opponent"), so a bye neither helps nor hurts a tie-break.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

WIN, DRAW, LOSS = 1.0, 0.5, 0.0
BYE = WIN


@dataclass(frozen=True)
class Result:
    """A finished game of the tournament: `points` are the ● player's (1, ½ or 0)."""

    first: str
    second: str
    points: float


@dataclass(frozen=True)
class Standing:
    """One line of the table."""

    place: int
    key: str
    points: float
    buchholz: float
    sonneborn_berger: float
    wins: int
    draws: int
    losses: int
    byes: int
    second_wins: int  # wins with ○


def standings(
    players: Sequence[str],
    results: Iterable[Result],
    byes: Iterable[str] = (),
    ratings: dict[str, float] | None = None,
) -> list[Standing]:
    """The table of these players after these games and byes, best first."""
    ratings = ratings or {}
    games: dict[str, list[tuple[str, float, bool]]] = {key: [] for key in players}
    for result in results:
        games[result.first].append((result.second, result.points, False))
        games[result.second].append((result.first, 1.0 - result.points, True))
    bye_count = {key: 0 for key in players}
    for key in byes:
        bye_count[key] += 1
    points = {key: sum(p for _, p, _ in games[key]) + BYE * bye_count[key] for key in players}

    def line(key: str) -> Standing:
        mine = games[key]
        virtual = points[key] * bye_count[key]  # the byes' virtual opponents
        buchholz = sum(points[other] for other, _, _ in mine) + virtual
        beaten = sum(points[other] * p for other, p, _ in mine) + virtual
        return Standing(
            0,
            key,
            points[key],
            buchholz,
            beaten,
            sum(p == WIN for _, p, _ in mine),
            sum(p == DRAW for _, p, _ in mine),
            sum(p == LOSS for _, p, _ in mine),
            bye_count[key],
            sum(p == WIN and second for _, p, second in mine),
        )

    lines = [line(key) for key in players]

    def rank(s: Standing) -> tuple[float, float, float, int]:
        return (-s.points, -s.buchholz, -s.sonneborn_berger, -s.second_wins)

    lines.sort(key=lambda s: (*rank(s), -ratings.get(s.key, 0.0), s.key))
    table: list[Standing] = []
    for index, s in enumerate(lines):
        shared = table and rank(table[-1]) == rank(s)
        table.append(replace(s, place=table[-1].place if shared else index + 1))
    return table
