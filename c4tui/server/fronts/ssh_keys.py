"""The ssh front's keys: its own host key, and the players' keys it admits and knows them by."""

from __future__ import annotations

import os
from pathlib import Path

import asyncssh

from c4tui.files import UnreadableFile, read_text

HOST_KEY_NAME = "ssh_host_ed25519_key"


class KeyFileError(Exception):
    """A key file that cannot be used; the message names the file and what is wrong."""


def load_or_create_host_key(state_dir: Path) -> asyncssh.SSHKey:
    """The server's ed25519 host key, made at the first start (mode 0600) and kept.

    Keeping it means players' ssh clients recognise the server after a restart instead
    of warning of a changed host key.
    """
    path = state_dir / HOST_KEY_NAME
    if path.exists():
        if path.stat().st_mode & 0o077:
            raise KeyFileError(f"{path}: the host key is readable by others; chmod 600 it")
        try:
            return asyncssh.read_private_key(path)
        except (OSError, asyncssh.KeyImportError) as error:
            raise KeyFileError(f"{path}: cannot read the host key ({error})") from None
    key = asyncssh.generate_private_key("ssh-ed25519")
    state_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    # Written at 0600 from the start (never briefly readable), then renamed into place.
    temp = path.with_name(f".{path.name}.new")
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(key.export_private_key())
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except OSError as error:  # a full disk, a read-only one: say so, leave nothing half-made
        temp.unlink(missing_ok=True)
        raise KeyFileError(
            f"{path}: cannot write the host key ({error.strerror or error})"
        ) from None
    return key


def key_identity(key: asyncssh.SSHKey) -> str:
    """The stable identity of a player's public key: `ssh-key:SHA256:...`."""
    return f"ssh-key:{key.get_fingerprint('sha256')}"


def read_authorized_keys(path: Path) -> frozenset[str]:
    """The fingerprints of the keys in an OpenSSH authorized_keys file.

    Each line's options (`from=`, `command=`, ...) are not supported and are ignored: a
    listed key is admitted to play, nothing more.
    """
    try:
        text = read_text(path)  # a regular file of sane size: not /dev/zero, not a FIFO
    except UnreadableFile as error:
        raise KeyFileError(f"{path}: cannot read it ({error.reason})") from None
    fingerprints = set()
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        # The key type is the first word that names one; options come before it.
        for index, word in enumerate(words[:-1]):
            if word.startswith(("ssh-", "ecdsa-", "sk-")):
                try:
                    key = asyncssh.import_public_key(f"{word} {words[index + 1]}")
                except asyncssh.KeyImportError as error:
                    raise KeyFileError(f"{path} line {number}: {error}") from None
                fingerprints.add(key_identity(key))
                break
        else:
            raise KeyFileError(f"{path} line {number}: no public key on this line")
    if not fingerprints:
        raise KeyFileError(f"{path}: no keys in it, so nobody could log in")
    return frozenset(fingerprints)
