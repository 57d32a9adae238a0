"""The room protocol's messages about people and their bots: profiles, blocks, passwords,
names, bot tokens and challenges to bots (protocol.py has the rest; desks/people.py,
renaming.py and bots.py answer them).

Client to service:
    profile   AskProfile {name}               a player's profile (docs/community.md)
    block     Block {name, block}             block a player (no challenges, pairs, chat)
    password  SetPassword {password}          a keyless ssh name's password
    name      ChooseName {name}               a browser's own name (community/chosen_names.py)
    challenge_bot  ChallengeBot {bot, second?, width?, height?, connect?}   a game with
                                              an online bot, if it accepts (server/desks/bots.py)
    bot_token MakeBotToken {name}             a new token for this player's bot `name`

Service to client:
    profile   Profile {name, ratings, results, playing, games, ...}   a player, as asked
    named     Named {name}                    this client's player is called `name` now
    bot_token BotToken {name, token}          the token just made, shown once
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from c4tui.server.wire.codec import Between, Text
from c4tui.server.wire.protocol import (
    AnyText,
    Count,
    Message,
    Seat,
    Words,
)


@dataclass(frozen=True)
class ChallengeBot(Message):
    KIND = "challenge_bot"
    bot: Annotated[str, Text(20)]
    second: bool = False
    width: Annotated[int, Between(4, 10)] = 7
    height: Annotated[int, Between(4, 10)] = 6
    connect: Annotated[int, Between(3, 6)] = 4


@dataclass(frozen=True)
class MakeBotToken(Message):
    KIND = "bot_token"
    name: Annotated[str, Text(20)]


@dataclass(frozen=True)
class AskProfile(Message):
    KIND = "profile"
    name: Words


@dataclass(frozen=True)
class Block(Message):
    KIND = "block"
    name: Words
    block: bool = True  # False lifts it


@dataclass(frozen=True)
class SetPassword(Message):
    KIND = "password"
    password: Words


@dataclass(frozen=True)
class ChooseName(Message):
    KIND = "name"
    name: Words  # the rules (community/chosen_names.py) are the service's, refused in words


@dataclass(frozen=True)
class BotToken(Message):
    KIND = "bot_token"
    name: AnyText
    token: AnyText


@dataclass(frozen=True)
class RatingShown:
    """A rating of one class (community/glicko2.py), as a profile shows it."""

    rating_class: AnyText
    rating: float
    deviation: float
    provisional: bool
    games: Count


@dataclass(frozen=True)
class PlayingShown:
    """A game a player is in now."""

    room: Count
    opponent: AnyText
    moves: Count


@dataclass(frozen=True)
class PlayedShown:
    """A finished game of the player's: its name and game file text (as "My games"
    sends them), and the side the player had."""

    name: AnyText
    text: AnyText
    side: Seat


@dataclass(frozen=True)
class Profile(Message):
    KIND = "profile"
    name: AnyText
    you: bool  # the asker's own profile
    online: bool
    blocked: bool  # the asker blocks this player
    ratings: tuple[RatingShown, ...]
    wins: Count
    draws: Count
    losses: Count
    playing: tuple[PlayingShown, ...]
    password: bool | None  # own keyless ssh name: whether a password guards it; else None
    bot: bool = False  # a bot's profile (server/desks/bots.py): shown marked as one
    choose: bool = False  # own profile in a browser: a name may be chosen (ChooseName)
    games: tuple[PlayedShown, ...] = ()  # the last finished, the last ended first


@dataclass(frozen=True)
class Named(Message):
    """This client's player has a new name (it chose one, on this or another connection);
    the Welcome's name is this from now on."""

    KIND = "named"
    name: AnyText
