"""Damaged files of the data dir kept aside: renamed beside themselves, never deleted.

A kept game, the running score or the puzzle queue that cannot be read is not silently
written over: it is renamed to `<name>.damaged-<UTC time>` in the same directory (a
rename never copies, so it works on a full disk), and the person is told where.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path


def set_aside(path: Path) -> Path:
    """Rename `path` (a file, a directory, a dangling link: whatever is there) to a free
    `<name>.damaged-<time>` beside it and return the new path; OSError when it cannot be."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    base = f"{path.name}.damaged-{stamp}"
    for number in range(100):
        aside = path.with_name(base if number == 0 else f"{base}-{number}")
        if os.path.lexists(aside):
            continue
        os.rename(path, aside)  # not Path.replace: an earlier damaged copy stays too
        return aside
    raise FileExistsError(f"{path}: too many damaged copies beside it")
