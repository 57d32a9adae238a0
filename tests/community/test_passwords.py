"""Passwords: salted scrypt hashes, checked in constant time; bad kept forms match nothing."""

from __future__ import annotations

import hashlib

from c4tui.community.passwords import hashed, matches, password_refusal


def test_a_password_is_kept_salted_and_only_its_own_words_match():
    kept = hashed("correct horse")
    assert "correct horse" not in kept and kept.startswith("scrypt$16384$8$1$")
    assert matches("correct horse", kept)
    assert not matches("correct horsE", kept)
    assert not matches("", kept)
    assert hashed("correct horse") != kept  # a fresh salt each time


def test_the_kept_form_is_plain_scrypt_over_its_own_salt():
    kept = hashed("seven seas")
    salt, digest = kept.split("$")[4:]
    again = hashlib.scrypt(b"seven seas", salt=bytes.fromhex(salt), n=2**14, r=8, p=1, dklen=32)
    assert again.hex() == digest


def test_kept_forms_that_do_not_read_match_nothing():
    kept = hashed("abcdefgh")
    for damaged in (
        "",
        "plain",
        kept.replace("scrypt", "md5"),
        kept.replace("$16384$", "$12345$"),  # not a power of two: OpenSSL refuses
        kept.replace("$16384$", "$1073741824$"),  # a gigabyte of memory: refused unread
        kept[:-3] + "xyz",
        kept + "$more",
    ):
        assert not matches("abcdefgh", damaged), damaged


def test_what_a_password_must_be():
    assert password_refusal("short") == "a password needs at least 8 characters"
    assert password_refusal("x" * 201) == "a password has at most 200 characters"
    assert password_refusal("tab\there!") == "a password has no control characters"
    assert password_refusal("eight ok") is None
