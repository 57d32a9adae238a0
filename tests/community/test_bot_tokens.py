"""Bot tokens: shown once, kept as digests, one name one owner, a new token ends the old."""

from __future__ import annotations

import pytest

from c4tui.community.bot_tokens import (
    BOTS_PER_OWNER,
    BotAccount,
    BotNameError,
    TokenFile,
    is_bot_key,
    name_refusal,
)


def test_a_token_signs_in_its_bot_and_only_its_digest_is_kept(tmp_path):
    book = TokenFile(tmp_path / "bots.json")
    account, token = book.make("ssh-name:ann", "Alpha")
    assert account == BotAccount("Alpha", "ssh-name:ann")
    assert account.key == "bot:alpha" and is_bot_key(account.key)
    assert book.account(token) == account
    assert book.account(token + "x") is None
    assert token not in (tmp_path / "bots.json").read_text()


def test_a_new_token_ends_the_old_and_a_name_is_its_first_owners(tmp_path):
    book = TokenFile(tmp_path / "bots.json")
    _, old = book.make("ssh-name:ann", "alpha")
    _, new = book.make("ssh-name:ann", "ALPHA")
    assert book.account(old) is None and book.account(new) is not None
    with pytest.raises(BotNameError, match="taken"):
        book.make("ssh-name:bob", "alpha")


def test_names_and_the_bots_of_one_owner_are_limited(tmp_path):
    book = TokenFile(tmp_path / "bots.json")
    for name in ("ab", "a" * 21, "two words", "émile", "a/b"):
        assert name_refusal(name) is not None
        with pytest.raises(BotNameError):
            book.make("ssh-name:ann", name)
    for n in range(BOTS_PER_OWNER):
        book.make("ssh-name:ann", f"bot-{n}")
    with pytest.raises(BotNameError, match="bots already"):
        book.make("ssh-name:ann", "one-more")
    book.make("ssh-name:ann", "bot-0")  # a new token for one of them is not another bot


def test_a_damaged_file_is_an_empty_book(tmp_path):
    path = tmp_path / "bots.json"
    for text in ("{not json", "[]", '{"bots": {"bot:x": {"name": 1}}}', '{"bots": 3}'):
        path.write_text(text)
        book = TokenFile(path)
        assert book.account("c4bot_x") is None
        _, token = book.make("ssh-name:ann", "fresh")
        assert book.account(token) is not None
