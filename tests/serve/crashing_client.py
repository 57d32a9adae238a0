"""A stand-in client: the real `c4tui --served`, whose app stops on an error at once.

The error's local value and its source path are what a remote player must never see.
"""

from __future__ import annotations

import sys

from c4tui.app.served import ServedApp
from c4tui.cli import main

SECRET = "a local value of the host"


async def fall_over(self: ServedApp) -> None:
    kept = SECRET  # shown among a traceback's locals
    raise RuntimeError(f"the lobby fell over ({len(kept)})")


if __name__ == "__main__":
    ServedApp.on_mount = fall_over  # type: ignore[method-assign]
    sys.exit(main(["--served"]))
