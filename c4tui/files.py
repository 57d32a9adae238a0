"""Files c4tui keeps for the user: where they live, and writing them so none is ever torn."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

DATA_ENV = "C4TUI_DATA_DIR"


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
    the new one.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return path
