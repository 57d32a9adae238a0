"""Prewarm: load what the screens opened later need, in a thread after the first frame.

The screens are imported on first use (a new user's first frame should not wait for
them), but then the first `?` or `s` paid for the imports: a tenth of a second or more
where Python compiles the modules from source (no bytecode cache). Loading them in a
thread worker while the person looks at the board moves that cost out of the way of
every key; a key pressed meanwhile still comes first (the GIL switches every few
milliseconds, gil.py).
"""

from __future__ import annotations

import importlib

# Every screen a key opens, and what each imports with it (Select, Input, DataTable).
SCREENS = (
    "c4tui.app.screens.help",
    "c4tui.app.screens.settings",
    "c4tui.app.screens.games",
    "c4tui.app.screens.review",
    "c4tui.app.screens.puzzle",
    "c4tui.app.screens.position",
    "c4tui.app.screens.save_as",
)


def load_screens() -> None:
    """Import the screens' modules and parse the help page (both kept by Python)."""
    for name in SCREENS:
        importlib.import_module(name)
    from c4tui.app.screens.help import help_page

    help_page()
