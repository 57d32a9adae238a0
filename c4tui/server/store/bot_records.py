"""BotRecords: the store's part for bots and their tokens' digests (a TokenBook)."""

from __future__ import annotations

from c4tui.community.bot_tokens import (
    BOTS_PER_OWNER,
    BotAccount,
    BotNameError,
    bot_key,
    name_refusal,
    new_token,
    token_digest,
)
from c4tui.server.store.store import Store, now


class BotRecords:
    """Bots and the digests of their tokens, in one store (bot_tokens.TokenBook)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def make(self, owner: str, name: str) -> tuple[BotAccount, str]:
        refusal = name_refusal(name)
        if refusal is not None:
            raise BotNameError(refusal)
        key = bot_key(name)
        token = new_token()
        with self.store.transaction():
            holder = self.store.value("SELECT owner FROM bots WHERE bot = ?", (key,))
            if holder is not None and holder != owner:
                raise BotNameError(f"The bot name {name} is taken.")
            mine = self.store.value("SELECT COUNT(*) FROM bots WHERE owner = ?", (owner,))
            if holder is None and mine >= BOTS_PER_OWNER:
                raise BotNameError(f"You have {BOTS_PER_OWNER} bots already.")
            self.store.execute(
                "INSERT INTO bots (bot, name, owner, digest, made) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (bot) DO UPDATE SET name = excluded.name,"
                " digest = excluded.digest, made = excluded.made",
                (key, name, owner, token_digest(token), now()),
            )
        return BotAccount(name, owner), token

    def account(self, token: str) -> BotAccount | None:
        digest = token_digest(token)
        row = self.store.row("SELECT name, owner FROM bots WHERE digest = ?", (digest,))
        return None if row is None else BotAccount(str(row[0]), str(row[1]))
