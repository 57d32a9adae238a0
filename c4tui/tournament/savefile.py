"""The saved-games file of `arena --save`: one JSON line per game, never a torn line.

Each line is written by a single write on an O_APPEND descriptor, so a crash, a Ctrl-C
or a second run appending to the same file never interleaves or splits lines. A write
that fails part-way (a full disk) is cut back to where the file ended before it. A file
that already ends in half a line (left by an older version, or by a disk that filled
during a write before the cut) is repaired when opened: the fragment is dropped, and
`repaired` says how many bytes, so the caller can tell the user.

Only a file of saved games is changed: its first line must be one (a JSON object with
the keys every saved game has) and a torn end must be the start of one. Any other file
is refused, untouched: a text file without its last newline, a binary, a typo naming
the wrong file.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
from typing import Any

TAIL_CHUNK = 64 * 1024  # read backwards this much at a time to find the last newline
LINE_LIMIT = 64 * 1024  # a saved game's line is well under 1 KB
SAVED_KEYS = frozenset(("run", "game", "moves"))  # in every line `arena --save` writes


class SaveError(Exception):
    """The file cannot be opened or written; the message names it and says why."""


class SavedGames:
    """An open saved-games file, appended to one whole line at a time."""

    def __init__(self, path: str) -> None:
        if not path:
            raise SaveError("needs a file name")
        self.path = path
        try:
            self.fd = os.open(path, open_flags(path), 0o666)  # less the umask
        except OSError as error:
            if error.errno == errno.ENXIO:  # see open_flags
                raise SaveError(f"{path!r} is a FIFO that nothing reads") from None
            raise SaveError(f"cannot open {path!r}: {error.strerror}") from None
        os.set_blocking(self.fd, True)
        # Only a regular file can be read back and cut (not /dev/full or a pipe).
        self.regular = stat.S_ISREG(os.fstat(self.fd).st_mode)
        self.repaired = 0
        try:
            if self.regular:
                self._check_saved_games()
                self.repaired = self._drop_torn_tail()
        except OSError as error:
            os.close(self.fd)
            raise SaveError(f"cannot repair {path!r}: {error.strerror}") from None
        except SaveError:
            os.close(self.fd)
            raise

    def __enter__(self) -> SavedGames:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def append(self, line: dict[str, Any]) -> None:
        """Write `line` as one JSON line, whole or not at all, and fsync it."""
        data = (json.dumps(line) + "\n").encode()
        before = os.fstat(self.fd).st_size if self.regular else 0
        try:
            written = os.write(self.fd, data)
            if written != len(data):
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            self._sync()
        except OSError as error:
            self._cut_back(before)
            raise SaveError(f"cannot write {self.path!r}: {error.strerror}") from None

    def _sync(self) -> None:
        try:
            os.fsync(self.fd)
        except OSError as error:
            if error.errno not in (errno.EINVAL, errno.ENOTSUP):
                raise  # a device or pipe that cannot sync is fine; a failing disk is not

    def _cut_back(self, length: int) -> None:
        if self.regular:
            # The error being reported already says the file is in trouble.
            with contextlib.suppress(OSError):
                os.ftruncate(self.fd, length)

    def _check_saved_games(self) -> None:
        """SaveError unless the file is empty or holds saved games (see the module)."""
        size = os.fstat(self.fd).st_size
        if size == 0:
            return
        head = os.pread(self.fd, min(size, LINE_LIMIT), 0)
        newline = head.find(b"\n")
        if newline >= 0 and is_saved_line(head[:newline]):
            return
        if newline < 0 and size < LINE_LIMIT and head.startswith(b"{"):
            return  # one torn line, the first: _drop_torn_tail checks it
        raise SaveError(
            f"{self.path!r} is not a file of saved games (its first line is not one); "
            "refusing to change it: name a new file or one --save wrote"
        )

    def _drop_torn_tail(self) -> int:
        """Cut the file after its last newline; how many bytes were dropped."""
        size = os.fstat(self.fd).st_size
        if size == 0 or os.pread(self.fd, 1, size - 1) == b"\n":
            return 0
        end = size
        while end > 0:
            start = max(0, end - TAIL_CHUNK)
            newline = os.pread(self.fd, end - start, start).rfind(b"\n")
            if newline >= 0:
                keep = start + newline + 1
                break
            end = start
        else:
            keep = 0
        if size - keep >= LINE_LIMIT or os.pread(self.fd, 1, keep) != b"{":
            raise SaveError(
                f"{self.path!r} ends in {size - keep:,} bytes that are not a saved game's "
                "line; refusing to change it"
            )
        os.ftruncate(self.fd, keep)
        return size - keep


def open_flags(path: str) -> int:
    """How to open the file: read and append; a FIFO write-only and without waiting, so
    one with no reader fails at once (ENXIO) instead of the run hanging on a full pipe."""
    try:
        fifo = stat.S_ISFIFO(os.stat(path).st_mode)
    except OSError:
        fifo = False  # a new file, or one open() will name the problem of
    if fifo:
        return os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK
    return os.O_RDWR | os.O_APPEND | os.O_CREAT


def is_saved_line(raw: bytes) -> bool:
    """True when `raw` is a line `arena --save` writes: a JSON object with its keys."""
    try:
        line = json.loads(raw)
    except (ValueError, RecursionError):  # a damaged line nested thousands deep
        return False
    return isinstance(line, dict) and line.keys() >= SAVED_KEYS
