"""Bot accounts and their tokens: a player makes a token, and a program plays with it.

A token is shown once, when it is made, and kept only as its SHA-256 digest: a token is
32 random bytes, so a plain digest is as good as a slow password hash, and a copy of
the store gives nobody a bot. A bot has a name of its own, marked as a bot wherever it
is shown, and an identity key (`bot:<name in lower case>`) that stays the same when its
owner makes a new token (the old one stops working). A name belongs to the first player
who made a bot of that name.

`TokenBook` is the interface the room service uses; bot_records.py keeps it in the
community's store (migration 050).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Protocol

TOKEN_PREFIX = "c4bot_"
KEY_PREFIX = "bot:"  # of a bot's identity key
NAME_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_")
NAME_LENGTH = (3, 20)
BOTS_PER_OWNER = 5  # a player's bots (a new token for one of them is not another bot)


class BotNameError(ValueError):
    """A bot name that cannot be had; the message says why, in words."""


@dataclass(frozen=True)
class BotAccount:
    """A bot: its name, its identity key, and the player who made it."""

    name: str
    owner: str  # the identity key of the player who made its token

    @property
    def key(self) -> str:
        return bot_key(self.name)


def bot_key(name: str) -> str:
    """The identity key of the bot with this name (case does not make another bot)."""
    return f"{KEY_PREFIX}{name.lower()}"


def is_bot_key(key: str | None) -> bool:
    """Whether an identity key is a bot's (no front makes such keys for people)."""
    return key is not None and key.startswith(KEY_PREFIX)


def name_refusal(name: str) -> str | None:
    """Why `name` cannot be a bot's name, or None: 3 to 20 letters, digits, - and _."""
    shortest, longest = NAME_LENGTH
    if not shortest <= len(name) <= longest:
        return f"A bot's name has {shortest} to {longest} characters."
    if not set(name.lower()) <= NAME_CHARACTERS:
        return "A bot's name has letters a-z, digits, - and _ only."
    return None


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    """What is kept of a token (its SHA-256, in hex)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class TokenBook(Protocol):
    """Where bot accounts and the digests of their tokens are kept."""

    def make(self, owner: str, name: str) -> tuple[BotAccount, str]:
        """A new token for the bot `name` of `owner` (the bot's old token stops
        working); BotNameError when the name is not free to this owner."""
        ...

    def account(self, token: str) -> BotAccount | None:
        """The bot this token is for, or None."""
        ...
