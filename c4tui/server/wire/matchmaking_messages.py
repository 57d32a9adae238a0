"""The room protocol's matchmaking messages: automatch, challenges between people, the
leaderboard (protocol.py has the rest; desks/matchmaking.py and challenge_desk.py answer).

Client to service:
    seek      Seek {control}                  automatch: a rated game with this time control
    unseek    Unseek {}                       stop looking
    challenge MakeChallenge {name, control, rated}   a game with that player
    answer_challenge  AnswerChallenge {challenge, accept}    cancel_challenge  {challenge}
    leaderboard  AskLeaderboard {}            the top players of each rating class

Service to client:
    seeking   Seeking {control, range, waiting}   this client's seek (control null: none)
    challenges  Challenges {to_me, mine}     the open challenges to and from this player
    leaderboard Leaderboard {classes}         the top players of each rating class
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from c4tui.server.wire.codec import Text
from c4tui.server.wire.protocol import (
    AnyText,
    Count,
    Message,
    Words,
)


@dataclass(frozen=True)
class Seek(Message):
    KIND = "seek"
    control: Annotated[str, Text(20)]  # a time control as written: "3+2", "1d"


@dataclass(frozen=True)
class Unseek(Message):
    KIND = "unseek"


@dataclass(frozen=True)
class MakeChallenge(Message):
    KIND = "challenge"
    name: Words
    control: Annotated[str, Text(20)]
    rated: bool = True


@dataclass(frozen=True)
class AnswerChallenge(Message):
    KIND = "answer_challenge"
    challenge: Count
    accept: bool


@dataclass(frozen=True)
class CancelChallenge(Message):
    KIND = "cancel_challenge"
    challenge: Count


@dataclass(frozen=True)
class AskLeaderboard(Message):
    KIND = "leaderboard"


@dataclass(frozen=True)
class Seeking(Message):
    """This client's seek: its control, the rating range it takes now, how many others
    wait with the same control; `control` None when it seeks nothing (any more)."""

    KIND = "seeking"
    control: AnyText | None
    range: AnyText = ""
    waiting: Count = 0


@dataclass(frozen=True)
class ChallengeListed:
    id: Count
    name: AnyText  # the other player
    control: AnyText
    rated: bool
    correspondence: bool
    seconds_left: float


@dataclass(frozen=True)
class Challenges(Message):
    KIND = "challenges"
    to_me: tuple[ChallengeListed, ...]
    mine: tuple[ChallengeListed, ...]


@dataclass(frozen=True)
class Ranked:
    """A line of the leaderboard."""

    name: AnyText
    rating: int
    deviation: int
    provisional: bool
    games: Count
    bot: bool = False  # shown marked as one, as bots are everywhere ("BOT alpha")


@dataclass(frozen=True)
class RatingClassListed:
    name: AnyText  # bullet, blitz, rapid, correspondence
    players: tuple[Ranked, ...]


@dataclass(frozen=True)
class Leaderboard(Message):
    KIND = "leaderboard"
    classes: tuple[RatingClassListed, ...]
