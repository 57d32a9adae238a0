"""Opening a file a user names, safely: the one place c4tui opens one to read it.

Game files, settings and kept games (`c4tui.files`), networks and labelled positions
(`learned`) are all files a user, or a damaged disk, can point anywhere: at a FIFO,
whose open waits forever for a writer; at /dev/zero, which never ends; at a directory;
at a file of gigabytes. Every such read starts with `open_regular`: opened without
waiting, refused unless it is a regular file, its size known before a byte is read.
The engine is the lowest layer that reads such files, so this lives here and
`c4tui.files` builds its text and JSON reading on it.

Files are written whole or not at all (`write_whole`): a temporary file renamed over.

NumPy's archives (`.npz`) are read by `read_arrays`: bounded in the file's size and in
what its arrays unpack to (a small zip can declare gigabytes), never with pickles, and
a file that is not one is a clear `UnreadableFile`, not NumPy's own advice to load it
unsafely.
"""

from __future__ import annotations

import os
import secrets
import stat
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from numpy.typing import NDArray


class RefusedFile(OSError):
    """A file c4tui will not use: `str()` is the path and the reason on one line;
    `reason` alone also."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        super().__init__(f"{os.fspath(path)}: {reason}")
        self.path = os.fspath(path)
        self.reason = reason


class UnreadableFile(RefusedFile):
    """A user file that cannot be read: missing, not a regular file, too large, not what
    it should hold."""


class NoSuchFile(UnreadableFile, FileNotFoundError):
    """The file is not there (often no error: nothing was saved yet)."""


class UnwritableFile(RefusedFile):
    """A path c4tui will not write a file at: a directory, a FIFO, a device."""


def open_regular(path: str | os.PathLike[str]) -> tuple[IO[bytes], int]:
    """The regular file at `path`, open for reading in binary, and its size in bytes.

    A FIFO, a device, a socket or a directory is refused (UnreadableFile) without
    waiting on it or reading from it; so is a name the system cannot take."""
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
    status = os.fstat(fd)
    if not stat.S_ISREG(status.st_mode):
        os.close(fd)
        if stat.S_ISDIR(status.st_mode):
            raise UnreadableFile(path, "a directory, not a file")
        raise UnreadableFile(path, f"not a regular file ({kind_of(status.st_mode)})")
    return os.fdopen(fd, "rb"), status.st_size


def kind_of(mode: int) -> str:
    """What a non-regular file is, in words."""
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a plain file"


def not_to_write(mode: int) -> str | None:
    """Why a file of this mode is not one to write over (None for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    what = "a directory" if stat.S_ISDIR(mode) else kind_of(mode)
    return f"{what}, not a file to write"


def read_arrays(path: str | os.PathLike[str], *, limit: int) -> dict[str, NDArray[Any]]:
    """Every array of the NumPy archive (`.npz`) at `path`, by name; UnreadableFile says
    why not. `limit` bounds the file and the sum of what its arrays unpack to."""
    import numpy as np  # here: the text files' readers (`c4tui.files`) need no NumPy

    handle, size = open_regular(path)
    with handle:
        if size > limit:
            raise UnreadableFile(path, f"too large (over {limit:,} bytes)")
        try:
            with zipfile.ZipFile(handle) as archive:
                names = archive.infolist()
        except (zipfile.BadZipFile, OSError, ValueError, EOFError):
            raise UnreadableFile(path, "not a NumPy archive (.npz)") from None
        if sum(member.file_size for member in names) > limit:
            raise UnreadableFile(path, f"holds over {limit:,} bytes unpacked")
        handle.seek(0)
        arrays: dict[str, NDArray[Any]] = {}
        try:
            with np.load(handle, allow_pickle=False) as archive:
                for name in archive.files:
                    array = archive[name]
                    if not isinstance(array, np.ndarray):  # a member that is no .npy
                        raise ValueError(name)
                    arrays[name] = array
        # A header that lies (a shape larger than the data, a dtype of Python objects) is
        # one of these; MemoryError for a shape no machine holds.
        except (ValueError, OSError, EOFError, zipfile.BadZipFile, MemoryError):
            raise UnreadableFile(path, "a damaged NumPy archive") from None
    return arrays


def write_whole(path: Path, write: Callable[[IO[bytes]], object]) -> Path:
    """Write a file whole or not at all: `write` fills a temporary file beside `path`,
    which is then renamed over it.

    A crash, a full disk or a kill mid-write leaves the old file (or none), never half of
    the new one. A new file gets the usual permissions (0666 less the umask, as any
    program's); a file replaced keeps its own. A path that holds a directory, a FIFO or a
    device is refused (UnwritableFile): the rename would put a file in its place, and a
    user who names /dev/null as the output (as root) must not lose the device.
    """
    try:
        old: os.stat_result | None = os.stat(path)
    except OSError:
        old = None
    if old is not None and (refusal := not_to_write(old.st_mode)) is not None:
        raise UnwritableFile(path, refusal)
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.parent / f".{path.name}-{secrets.token_hex(6)}"
    # os.open applies the umask itself: reading the umask would mean changing it.
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as handle:
            if old is not None:
                os.fchmod(handle.fileno(), stat.S_IMODE(old.st_mode))
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return path
