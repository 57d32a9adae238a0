"""Files c4tui keeps for the user: where they live, reading them safely, writing them whole."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

from c4tui.engine.regular_files import NoSuchFile as NoSuchFile
from c4tui.engine.regular_files import UnreadableFile as UnreadableFile
from c4tui.engine.regular_files import kind_of as kind_of
from c4tui.engine.regular_files import open_regular, write_whole

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


def read_text(path: str | os.PathLike[str], *, limit: int = MAX_FILE_BYTES) -> str:
    """The text of the regular file at `path`, at most `limit` bytes, UTF-8 (a leading
    byte-order mark is dropped); UnreadableFile says why not.

    Every file a user can point c4tui at, or damage, is read through here: game files,
    --load, review, settings, kept games, scores, the puzzle queue. A FIFO, a device or a
    directory is refused without waiting on it or reading it (`open_regular`).
    """
    handle, _size = open_regular(path)
    with handle:
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


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """Where kept games live: the argument, else $C4TUI_DATA_DIR, else the user data dir."""
    if override is not None:
        return Path(override)
    if os.environ.get(DATA_ENV):
        return Path(os.environ[DATA_ENV])
    from platformdirs import user_data_dir

    return Path(user_data_dir("c4tui", appauthor=False))


def atomic_write(path: Path, text: str) -> Path:
    """Write `text` to `path` whole or not at all (`write_whole`), as UTF-8."""
    return write_whole(path, lambda handle: handle.write(text.encode("utf-8")))
