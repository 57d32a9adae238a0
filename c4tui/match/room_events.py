"""The events a room adds to the match interface's: what the service says beyond a game.

`RemoteMatch` (remote.py) tells these beside the interface's own events (interface.py):
the whole room after a change, the lobby, kept games, chat, profiles, tournaments, the
lobby's matchmaking, a move come due in another room, a name chosen or refused, and the
connection's end with why.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from c4tui.engine.board.gamefile import GameFileError, GameRecord
from c4tui.match.room_view import LobbyView, RoomView
from c4tui.server.wire import matchmaking_messages, people_messages, tournament_messages
from c4tui.server.wire import protocol as wire


@dataclass(frozen=True)
class RoomChanged:
    room: RoomView


@dataclass(frozen=True)
class LobbyChanged:
    lobby: LobbyView


@dataclass(frozen=True)
class GamesListed:
    games: tuple[tuple[str, GameRecord], ...]

    @classmethod
    def from_wire(cls, games: wire.Games) -> GamesListed:
        """The kept games the service sent, each by its name; one that is not a game
        file is left out."""
        return cls(tuple(_readable(games.games)))


@dataclass(frozen=True)
class Said:
    name: str
    text: str


@dataclass(frozen=True)
class Closed:
    reason: str


@dataclass(frozen=True)
class ProfileShown:
    """A player's profile, as asked for (`profile`), or again after a block."""

    profile: people_messages.Profile


@dataclass(frozen=True)
class Renamed:
    """This player is called `name` now (chosen here, or on another connection)."""

    name: str


@dataclass(frozen=True)
class NameRefused:
    """The name this player chose is not theirs to have; `reason` says why."""

    reason: str


@dataclass(frozen=True)
class BotTokenMade:
    """The token of this player's bot, as the server made it (shown once)."""

    name: str
    token: str


@dataclass(frozen=True)
class TournamentsChanged:
    """The tournaments on the server (after asking for them, and as they change)."""

    tournaments: tuple[tournament_messages.TournamentListed, ...]


@dataclass(frozen=True)
class TournamentChanged:
    """The tournament this client follows: its standings and boards."""

    tournament: tournament_messages.TournamentShown


@dataclass(frozen=True)
class MoveArrived:
    """It became this player's move in room `room` (not the one shown), against `against`;
    `bell`: ring the terminal bell (the player's lobby toggle)."""

    room: int
    against: str
    bell: bool


@dataclass(frozen=True)
class SeekChanged:
    seeking: matchmaking_messages.Seeking  # control None: no seek (any more)


@dataclass(frozen=True)
class ChallengesChanged:
    challenges: matchmaking_messages.Challenges


@dataclass(frozen=True)
class LeaderboardShown:
    leaderboard: matchmaking_messages.Leaderboard


RoomEvent = (
    RoomChanged
    | LobbyChanged
    | GamesListed
    | Said
    | Closed
    | TournamentsChanged
    | TournamentChanged
    | ProfileShown
    | BotTokenMade
    | MoveArrived
    | SeekChanged
    | ChallengesChanged
    | LeaderboardShown
    | Renamed
    | NameRefused
)


def _readable(games: tuple[wire.KeptGame, ...]) -> Iterator[tuple[str, GameRecord]]:
    for game in games:
        try:
            yield game.name, GameRecord.from_text(game.text)
        except GameFileError:
            continue
