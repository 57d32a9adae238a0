"""Passwords for keyless logins: kept as salted scrypt hashes, never as the words.

A player who logs in over ssh without a key is known by the name alone; setting a
password in the lobby makes the name theirs, and a keyless login under it must then
give the password. Only `hashed(password)` is stored: "scrypt$N$r$p$salt$hash" (hex),
so the cost can be raised later without breaking the hashes kept before. scrypt
(hashlib, from OpenSSL) is memory-hard: N=2**14, r=8 takes 16 MiB and some 60 ms of
processor time a try here, which makes guessing offline slow and costs a login little.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

N, R, P = 2**14, 8, 1  # scrypt's cost: memory and time (16 MiB), blocks, parallelism
SALT_BYTES, HASH_BYTES = 16, 32
SHORTEST, LONGEST = 8, 200  # characters of a password
MAX_COST = 2**20  # a kept hash asking for more is not ours (and would take 1 GiB)


def password_refusal(password: str) -> str | None:
    """Why `password` will not do as one (None when it will)."""
    if len(password) < SHORTEST:
        return f"a password needs at least {SHORTEST} characters"
    if len(password) > LONGEST:
        return f"a password has at most {LONGEST} characters"
    if not password.isprintable():
        return "a password has no control characters"
    return None


def hashed(password: str) -> str:
    """The form a password is kept in, with a fresh salt."""
    salt = secrets.token_bytes(SALT_BYTES)
    digest = _scrypt(password, salt, N, R, P)
    return f"scrypt${N}${R}${P}${salt.hex()}${digest.hex()}"


def matches(password: str, kept: str) -> bool:
    """Whether `password` is the one `kept` (from `hashed`) was made from; a kept form
    that does not read matches nothing."""
    try:
        scheme, n, r, p, salt, digest = kept.split("$")
        cost, blocks, lanes = int(n), int(r), int(p)
        salt_bytes, digest_bytes = bytes.fromhex(salt), bytes.fromhex(digest)
    except ValueError:
        return False
    if scheme != "scrypt" or not (1 < cost <= MAX_COST and 0 < blocks <= 32 and 0 < lanes <= 4):
        return False
    try:
        tried = _scrypt(password, salt_bytes, cost, blocks, lanes, len(digest_bytes))
    except ValueError:  # a cost OpenSSL refuses (N not a power of two, too much memory)
        return False
    return hmac.compare_digest(tried, digest_bytes)


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int, length: int = HASH_BYTES) -> bytes:
    memory = 128 * r * (n + p + 2) + 1024 * 1024  # OpenSSL's own need, and some room
    return hashlib.scrypt(
        password.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=memory, dklen=length
    )
