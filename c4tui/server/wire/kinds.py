"""Every kind of message of the room protocol, by direction, and the lines read with them.

The service reads a client's line against `CLIENT_MESSAGES` (`parse_client_line`), a
client reads the service's against `SERVICE_MESSAGES` (`parse_service_line`); a kind
not in its direction's table is a `ProtocolError`. The messages themselves are declared
by family: protocol.py (rooms and the lobby), tournament_messages.py,
matchmaking_messages.py and people_messages.py.
"""

from __future__ import annotations

from typing import Any

from c4tui.server.wire.codec import ShapeError, from_wire
from c4tui.server.wire.lobby_messages import Lobby, LobbyDiff
from c4tui.server.wire.matchmaking_messages import (
    AnswerChallenge,
    AskLeaderboard,
    CancelChallenge,
    Challenges,
    Leaderboard,
    MakeChallenge,
    Seek,
    Seeking,
    Unseek,
)
from c4tui.server.wire.people_messages import (
    AskProfile,
    Block,
    BotToken,
    ChallengeBot,
    ChooseName,
    MakeBotToken,
    Named,
    Profile,
    SetPassword,
)
from c4tui.server.wire.protocol import (
    Answer,
    AskGames,
    AskLobby,
    Bell,
    Bye,
    Claim,
    Create,
    Drop,
    Games,
    Hello,
    Hurry,
    Join,
    Leave,
    Message,
    Notice,
    OfferDraw,
    Progress,
    ProtocolError,
    Refused,
    Rematch,
    Resign,
    RoomShown,
    Said,
    Say,
    TakeBack,
    Watch,
    Welcome,
    YourMove,
    escaped,
    parse_line,
)
from c4tui.server.wire.tournament_messages import (
    AskTournaments,
    BeginTournament,
    EnterTournament,
    FollowTournament,
    MakeTournament,
    TournamentShown,
    TournamentsListed,
    Withdraw,
)

CLIENT_MESSAGES: dict[str, type[Message]] = {
    kind.KIND: kind
    for kind in (
        Hello,
        AskLobby,
        Create,
        Join,
        Watch,
        Leave,
        Drop,
        Hurry,
        Resign,
        OfferDraw,
        TakeBack,
        Rematch,
        Answer,
        AskGames,
        Say,
        AskTournaments,
        MakeTournament,
        EnterTournament,
        Withdraw,
        BeginTournament,
        FollowTournament,
        ChallengeBot,
        MakeBotToken,
        Claim,
        Bell,
        AskProfile,
        Block,
        SetPassword,
        ChooseName,
        Seek,
        Unseek,
        MakeChallenge,
        AnswerChallenge,
        CancelChallenge,
        AskLeaderboard,
    )
}


SERVICE_MESSAGES: dict[str, type[Message]] = {
    kind.KIND: kind
    for kind in (
        Welcome,
        Lobby,
        LobbyDiff,
        RoomShown,
        Progress,
        Notice,
        Refused,
        Games,
        Said,
        Bye,
        TournamentsListed,
        TournamentShown,
        BotToken,
        Profile,
        YourMove,
        Seeking,
        Challenges,
        Leaderboard,
        Named,
    )
}


def parse_client_line(line: bytes) -> Message:
    """A line from a client, checked against its kind's declaration."""
    return parse_line(line, CLIENT_MESSAGES)


def parse_service_line(line: bytes) -> Message:
    """A line from the service, read as its kind's declaration."""
    return parse_line(line, SERVICE_MESSAGES)


def client_message(kind: str, **body: Any) -> Message:
    """A client message by its kind and fields, checked as the service will check it."""
    shape = CLIENT_MESSAGES.get(kind)
    if shape is None:
        raise ProtocolError(f"unknown kind {escaped(kind, 30)}")
    try:
        return from_wire(shape, body, kind)
    except ShapeError as error:
        raise ProtocolError(str(error)) from None
