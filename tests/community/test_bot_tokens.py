"""Bot tokens: shown once, kept as digests, one name one owner, a new token ends the old."""

from __future__ import annotations

import pytest

from c4tui.community.bot_tokens import (
    BOTS_PER_OWNER,
    BotAccount,
    BotNameError,
    is_bot_key,
    name_refusal,
)
from c4tui.server.store.bot_records import BotRecords
from c4tui.server.store.opening import open_store


def test_a_token_signs_in_its_bot_and_only_its_digest_is_kept(store, tmp_path):
    book = BotRecords(store)
    account, token = book.make("ssh-name:ann", "Alpha")
    assert account == BotAccount("Alpha", "ssh-name:ann")
    assert account.key == "bot:alpha" and is_bot_key(account.key)
    assert book.account(token) == account
    assert book.account(token + "x") is None
    kept = store.rows("SELECT * FROM bots")
    assert len(kept) == 1 and not any(token in str(value) for value in kept[0])


def test_a_new_token_ends_the_old_and_a_name_is_its_first_owners(store):
    book = BotRecords(store)
    _, old = book.make("ssh-name:ann", "alpha")
    _, new = book.make("ssh-name:ann", "ALPHA")
    assert book.account(old) is None and book.account(new) == BotAccount("ALPHA", "ssh-name:ann")
    with pytest.raises(BotNameError, match="taken"):
        book.make("ssh-name:bob", "alpha")


def test_names_and_the_bots_of_one_owner_are_limited(store):
    book = BotRecords(store)
    for name in ("ab", "a" * 21, "two words", "émile", "a/b", ""):
        assert name_refusal(name) is not None
        with pytest.raises(BotNameError):
            book.make("ssh-name:ann", name)
    for n in range(BOTS_PER_OWNER):
        book.make("ssh-name:ann", f"bot-{n}")
    with pytest.raises(BotNameError, match="bots already"):
        book.make("ssh-name:ann", "one-more")
    book.make("ssh-name:ann", "bot-0")  # a new token for one of them is not another bot


def test_a_token_outlives_a_restart(tmp_path):
    with open_store(tmp_path) as store:
        _, token = BotRecords(store).make("ssh-name:ann", "alpha")
    with open_store(tmp_path) as store:
        assert BotRecords(store).account(token) == BotAccount("alpha", "ssh-name:ann")
