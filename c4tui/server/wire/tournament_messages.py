"""The room protocol's tournament messages (protocol.py has the rest; desks/tournaments.py
answers them).

Client to service:
    tournaments  AskTournaments {}            the tournaments, and their changes from now on
    make_tournament  MakeTournament {name, control, rounds, minutes}   a Swiss starting in
                                              `minutes`; its maker enters it
    enter_tournament, withdraw, begin_tournament {tournament}   enter one; leave it (or
                                              stop being paired in it); its maker begins it
    follow_tournament  FollowTournament {tournament}   its pairings and standings, as they
                                              change (0: none)

Service to client:
    tournaments  TournamentsListed {tournaments: [TournamentListed]}
    tournament   TournamentShown {...}          one tournament's players, rounds and games
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from c4tui.server.wire.codec import Between, Text
from c4tui.server.wire.protocol import (
    AnyText,
    Count,
    Message,
)

TournamentNumber = Annotated[int, Between(1, 1 << 31)]


@dataclass(frozen=True)
class AskTournaments(Message):
    KIND = "tournaments"


@dataclass(frozen=True)
class MakeTournament(Message):
    KIND = "make_tournament"
    name: Annotated[str, Text(40)]
    control: Annotated[str, Text(12)]  # "5+3", as clocks.TimeControl reads it
    rounds: Annotated[int, Between(1, 15)]
    minutes: Annotated[int, Between(0, 7 * 24 * 60)]  # from now to its start


@dataclass(frozen=True)
class EnterTournament(Message):
    KIND = "enter_tournament"
    tournament: TournamentNumber


@dataclass(frozen=True)
class Withdraw(Message):
    KIND = "withdraw"
    tournament: TournamentNumber


@dataclass(frozen=True)
class BeginTournament(Message):
    KIND = "begin_tournament"
    tournament: TournamentNumber


@dataclass(frozen=True)
class FollowTournament(Message):
    KIND = "follow_tournament"
    tournament: Annotated[int, Between(0, 1 << 31)]


Phase = Literal["registration", "playing", "finished", "cancelled"]


@dataclass(frozen=True)
class TournamentListed:
    """A tournament as the list shows it."""

    number: Count
    name: AnyText
    maker: AnyText
    control: AnyText
    rounds: Count  # planned
    starts_at: float  # Unix seconds
    phase: Phase
    round: Count  # the round under way (or the last played), 0 before the first
    players: Count
    entered: bool  # the client is in it (and not withdrawn)
    next_round_at: float | None = None  # Unix seconds: the pause between rounds ends then


@dataclass(frozen=True)
class TournamentsListed(Message):
    KIND = "tournaments"
    tournaments: tuple[TournamentListed, ...]


@dataclass(frozen=True)
class PlaceShown:
    """One line of the standings."""

    place: Count
    name: AnyText
    points: float
    buchholz: float
    sonneborn_berger: float
    wins: Count
    draws: Count
    losses: Count
    byes: Count
    withdrawn: bool


@dataclass(frozen=True)
class BoardShown:
    """One game of a round: ● against ○, its room, and how it stands."""

    round: Count
    first: AnyText
    second: AnyText
    room: Count | None
    points: float | None  # ●'s, once over
    how: AnyText | None
    moves: Count  # played so far (the room's, while it is open)


@dataclass(frozen=True)
class TournamentShown(Message):
    KIND = "tournament"
    tournament: TournamentListed
    note: AnyText | None
    maker_is_you: bool
    standings: tuple[PlaceShown, ...]
    boards: tuple[BoardShown, ...]  # every round's, the latest round first
    byes: dict[str, AnyText]  # round number (as text) -> the name that had the bye
