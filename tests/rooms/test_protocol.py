"""The protocol's declarations: every message the service sends reads back as itself on
the client's side, and a client's message the same on the service's (one declaration)."""

from __future__ import annotations

import pytest

from c4tui.engine.players.contract import ColumnStat, SearchInfo
from c4tui.server.wire import (
    kinds,
    lobby_messages,
    matchmaking_messages,
    people_messages,
    tournament_messages,
)
from c4tui.server.wire import protocol as wire
from c4tui.server.wire.kinds import parse_client_line, parse_service_line
from c4tui.server.wire.protocol import ProtocolError, encode

INFO = SearchInfo(
    "mcts",
    0.5,
    1200,
    300,
    None,
    float("inf"),  # JSON has no infinity: it goes as null
    (ColumnStat(visits=3, value=0.5, proven="win"), None, ColumnStat(score=-2, by_book=True)),
    0,
    (0, 2),
)
SEAT = wire.SeatShown("ann", None, False, True, 12.5)
ROOM = wire.RoomShown(
    room=3, code="K7M-Q2X", public=False, seat=0, seat_code="ABC-DEF",
    seats=(SEAT, wire.SeatShown("Level 3", "level:3", False, True, None)),
    width=7, height=6, connect=4, moves="445", over=False, ended=None, winner=None,
    offers={"draw": 1}, rematch=(), thinking=True, paused=False, thinking_spec="level:3",
    search=4, info=INFO, trouble=None, watchers=("cy",),
)  # fmt: skip
ANN = lobby_messages.PlayerListed("ann", None)
LISTED = lobby_messages.RoomListed(3, None, (ANN, None), False, True, 1)
TOURNAMENT = tournament_messages.TournamentListed(
    1, "Swiss", "ann", "3+2", 3, 1.8e9, "playing", 1, 3, True
)
SERVICE = [
    wire.Welcome(1, wire.Identity("ssh-name:ann", "ann"), 2.0),
    lobby_messages.Lobby(("ann", "bob"), (LISTED,)),
    lobby_messages.LobbyDiff((LISTED,), gone=(4,), your_move=(3,)),
    lobby_messages.LobbyDiff(online=()),
    ROOM,
    wire.Progress(3, 4, INFO),
    wire.Notice("The room has closed.", "warning"),
    wire.Refused("drop", "Column 4 is full."),
    wire.Games((wire.KeptGame("20261125-r3-000001", "c4tui-game 3\n"),)),
    wire.Said("ann", "gg"),
    wire.Bye("The server is stopping."),
    tournament_messages.TournamentsListed((TOURNAMENT,)),
    tournament_messages.TournamentShown(
        TOURNAMENT, None, True,
        (tournament_messages.PlaceShown(1, "ann", 1.0, 0.0, 0.0, 1, 0, 0, 0, False),),
        (tournament_messages.BoardShown(1, "ann", "bob", 4, 1.0, "four in a row", 7),),
        {"1": "cy"},
    ),
    people_messages.BotToken("alpha", "c4bot_x"),
    people_messages.Profile(
        "bob", False, True, True,
        (people_messages.RatingShown("blitz", 1623.4, 85.2, False, 12),),
        5, 1, 3, (people_messages.PlayingShown(2, "level:3", 11),), None,
    ),
    wire.YourMove(3, "bob", True),
    matchmaking_messages.Seeking("3+2", "±150", 2),
    matchmaking_messages.Seeking(None),
    matchmaking_messages.Challenges(
        (matchmaking_messages.ChallengeListed(4, "bob", "1d", True, True, 604000.0),),
        (matchmaking_messages.ChallengeListed(5, "cy", "3+2", False, False, 90.5),),
    ),
    matchmaking_messages.Leaderboard(
        (
            matchmaking_messages.RatingClassListed(
                "blitz", (matchmaking_messages.Ranked("ann", 1662, 290, True, 1),)
            ),
        )
    ),
    people_messages.Named("Ann"),
]  # fmt: skip
CLIENT = [
    wire.Hello(1, "token"),
    wire.Create(ai="level:3", second=True),
    wire.Drop(3, 2),
    wire.Answer("take_back", False),
    wire.Say("hello"),
    wire.Leave(),
    tournament_messages.MakeTournament("Evening Swiss", "3+2", 3, 30),
    tournament_messages.FollowTournament(0),
    people_messages.ChooseName("Ann"),
    people_messages.ChallengeBot("alpha", second=True),
    people_messages.MakeBotToken("alpha"),
    people_messages.AskProfile("bob"),
    people_messages.Block("bob", False),
    people_messages.SetPassword("a long secret"),
    wire.Create(clock="5+3"),
    wire.Claim(win=False),
    wire.Bell(on=True),
    matchmaking_messages.Seek("3+2"),
    matchmaking_messages.Unseek(),
    matchmaking_messages.MakeChallenge("bob", "1d", rated=False),
    matchmaking_messages.AnswerChallenge(4, True),
    matchmaking_messages.CancelChallenge(5),
    matchmaking_messages.AskLeaderboard(),
]


@pytest.mark.parametrize("message", SERVICE, ids=lambda m: m.kind)
def test_what_the_service_sends_the_client_reads_as_sent(message):
    back = parse_service_line(encode(message))
    if isinstance(message, (wire.RoomShown, wire.Progress)):  # the infinite rate is null
        assert back.info.rate is None and back.info.columns == INFO.columns
    else:
        assert back == message


@pytest.mark.parametrize("message", CLIENT, ids=lambda m: m.kind)
def test_what_a_client_sends_the_service_reads_as_sent(message):
    assert parse_client_line(encode(message)) == message


def test_each_side_refuses_the_others_messages():
    with pytest.raises(ProtocolError, match="unknown kind 'room'"):
        parse_client_line(encode(ROOM))
    with pytest.raises(ProtocolError, match="unknown kind 'drop'"):
        parse_service_line(encode(wire.Drop(3, 2)))


def test_every_kind_is_declared_once_on_its_side():
    assert set(kinds.CLIENT_MESSAGES) == {
        "hello", "lobby", "create", "join", "watch", "leave", "drop", "hurry", "resign",
        "offer_draw", "take_back", "rematch", "answer", "games", "say", "claim", "bell",
        "tournaments", "make_tournament", "enter_tournament", "withdraw", "begin_tournament",
        "follow_tournament", "challenge_bot", "bot_token", "profile", "block", "password",
        "seek", "unseek", "challenge", "answer_challenge", "cancel_challenge", "leaderboard",
        "name",
    }  # fmt: skip
    assert set(kinds.SERVICE_MESSAGES) == {m.kind for m in SERVICE}
