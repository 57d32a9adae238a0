"""Whether the screen-reader mode is on, and where it is asked for (switch.py turns it
on and off).

The mode is asked for by `c4tui --screen-reader`, by `C4TUI_SCREEN_READER=1`, by the
setting of that name, or (a served player) by the lobby's toggle. On, the app carries the
class `-reader`: reader.tcss then hides every panel and decoration and shows each
screen's lines instead, and the terminal cursor, which Textual hides, is shown where
the focus is (on the command line, or on the line in focus).
"""

from __future__ import annotations

import os
from typing import Any

from textual.app import App

ENV = "C4TUI_SCREEN_READER"
READER_CLASS = "-reader"


def asked_by_environment() -> bool:
    """`C4TUI_SCREEN_READER` set to anything but empty or 0."""
    return os.environ.get(ENV, "").strip() not in ("", "0")


def reading(app: App[Any]) -> bool:
    """Whether the app is in the screen-reader mode now."""
    return app.has_class(READER_CLASS)
