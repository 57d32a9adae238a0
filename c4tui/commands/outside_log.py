"""Where the command line's outside engines are logged: one line each on stderr.

An outside program's own output never reaches the terminal raw; what the host has to
say of it (a line of its that the host could not read and skipped, a banner before its
greeting) is one line on stderr, `c4tui: ...`, for the commands that play such engines.
"""

from __future__ import annotations

import logging
import sys

LOGGER = "c4tui.engine.external"


def log_outside_engines() -> None:
    """Send the outside engines' log lines to stderr, once however often called."""
    log = logging.getLogger(LOGGER)
    if any(getattr(handler, "c4tui_outside", False) for handler in log.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("c4tui: %(message)s"))
    handler.c4tui_outside = True  # type: ignore[attr-defined]  # a mark on the handler, to know it for ours
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
