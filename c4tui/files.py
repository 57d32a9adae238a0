"""Files c4tui keeps for the user: where they live, reading them safely, writing them whole."""

from __future__ import annotations

import json
import math
import os
import secrets
import stat
from pathlib import Path

DATA_ENV = "C4TUI_DATA_DIR"
# The most any file of ours holds: a 10x10 game file is under 1 KB, the settings,
# scores and puzzle queue a few KB. A cap keeps a damaged or hostile file (a
# 20 MB "game", a link to /dev/zero) from taking the memory.
MAX_FILE_BYTES = 1 << 20
# The deepest nesting our JSON files have is 4 (the puzzle file: an object, its queue,
# a puzzle, its scores); a hand-edited file may have a little more, never hundreds.
MAX_JSON_DEPTH = 8
# The most digits a whole number of ours has (counts, ratings, plies); Python refuses to
# read one of over 4,300 digits, and a count of 19 digits is already damage.
MAX_JSON_DIGITS = 18


class UnreadableFile(OSError):
    """A user file that cannot be read as text: missing, not a regular file, too large,
    not UTF-8. `str()` is the path and the reason on one line; `reason` alone also."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        super().__init__(f"{os.fspath(path)}: {reason}")
        self.path = os.fspath(path)
        self.reason = reason


class NoSuchFile(UnreadableFile, FileNotFoundError):
    """The file is not there (often no error: nothing was saved yet)."""


def read_text(path: str | os.PathLike[str], *, limit: int = MAX_FILE_BYTES) -> str:
    """The text of the regular file at `path`, at most `limit` bytes, UTF-8 (a leading
    byte-order mark is dropped); UnreadableFile says why not.

    Every file a user can point c4tui at, or damage, is read through here: game files,
    --load, review, settings, kept games, scores, the puzzle queue. A FIFO, a device or a
    directory is refused without waiting on it or reading it.
    """
    try:
        # O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except FileNotFoundError:
        raise NoSuchFile(path, "no such file") from None
    except IsADirectoryError:
        raise UnreadableFile(path, "a directory, not a file") from None
    except OSError as error:
        raise UnreadableFile(path, error.strerror or str(error)) from None
    except ValueError:  # a name with a NUL character in it
        raise UnreadableFile(path, "not a file name (it holds a NUL character)") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        if stat.S_ISDIR(mode):
            raise UnreadableFile(path, "a directory, not a file")
        raise UnreadableFile(path, f"not a regular file ({kind_of(mode)})")
    with os.fdopen(fd, "rb") as handle:
        try:
            data = handle.read(limit + 1)  # one byte more tells a file that is too large
        except OSError as error:
            raise UnreadableFile(path, error.strerror or str(error)) from None
    if len(data) > limit:
        raise UnreadableFile(path, f"too large (over {limit:,} bytes)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise UnreadableFile(path, f"not UTF-8 text (byte {error.start + 1})") from None


class DamagedFile(ValueError):
    """A file that is text but does not hold what c4tui writes there; the message says
    what is wrong (and where, for JSON that does not parse)."""


def read_json(path: str | os.PathLike[str], *, depth: int = MAX_JSON_DEPTH) -> object:
    """The JSON value in the file at `path`, read as read_text reads (UnreadableFile,
    NoSuchFile), and checked as parse_json checks (DamagedFile). The caller still checks
    its shape: which keys, which types."""
    return parse_json(read_text(path), depth=depth)


def parse_json(text: str, *, depth: int = MAX_JSON_DEPTH) -> object:
    """The JSON value in `text`; DamagedFile when it is not JSON, when it is nested deeper
    than `depth` arrays and objects, or when it holds a number no file of ours holds:
    Infinity or NaN (JSON has neither, Python writes them), a float too large for a
    float (1e400 would read as infinity), a whole number of more than MAX_JSON_DIGITS."""
    try:
        data = json.loads(
            text,
            parse_constant=_no_constant,
            parse_float=_finite_float,
            parse_int=_small_int,
        )
    except json.JSONDecodeError as error:
        raise DamagedFile(f"not JSON ({error.msg}, line {error.lineno})") from None
    except RecursionError:  # the decoder recurses once per level: thousands of them
        raise DamagedFile(f"nested deeper than {depth} levels") from None
    if nesting(data) > depth:
        raise DamagedFile(f"nested deeper than {depth} levels")
    return data


def nesting(value: object) -> int:
    """How many arrays and objects deep `value` goes (a number or string: 0); a loop, not
    recursion, so a deep value cannot exhaust the stack."""
    deepest, waiting = 0, [(value, 1)]
    while waiting:
        item, level = waiting.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            children = item.values() if isinstance(item, dict) else item
            waiting.extend((child, level + 1) for child in children)
    return deepest


def _no_constant(name: str) -> float:
    raise DamagedFile(f"{name} is not a number a file of c4tui holds")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise DamagedFile(f"{text[:20]} is too large a number")
    return value


def _small_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_JSON_DIGITS:
        raise DamagedFile(f"{text[:20]}… is too long a number")
    return int(text)


def kind_of(mode: int) -> str:
    """What a non-regular file is, in words."""
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a plain file"


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """Where kept games live: the argument, else $C4TUI_DATA_DIR, else the user data dir."""
    if override is not None:
        return Path(override)
    if os.environ.get(DATA_ENV):
        return Path(os.environ[DATA_ENV])
    from platformdirs import user_data_dir

    return Path(user_data_dir("c4tui", appauthor=False))


def atomic_write(path: Path, text: str) -> Path:
    """Write `text` to `path` whole or not at all: a temporary file beside it, renamed over.

    A crash, a full disk or a kill mid-write leaves the old file (or none), never half of
    the new one. A new file gets the usual permissions (0666 less the umask, as any
    program's); a file replaced keeps its own.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.parent / f".{path.name}-{secrets.token_hex(6)}"
    # os.open applies the umask itself: reading the umask would mean changing it.
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            try:
                old = os.stat(path)
            except OSError:
                old = None
            if old is not None and stat.S_ISREG(old.st_mode):
                os.fchmod(handle.fileno(), stat.S_IMODE(old.st_mode))
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return path
