"""A served client's start imports what it shows, not what only the local app uses."""

from __future__ import annotations

import subprocess
import sys

# Only the local app keeps games (a file lock per game) and runs a match in-process;
# a served client does neither, and importing them cost it about 0.15 s of CPU at start.
LOCAL_ONLY = ("filelock", "c4tui.match.controller")


def test_the_served_app_starts_without_the_local_apps_modules():
    shown = "import sys, c4tui.app.served; print(*sorted(set(sys.argv[1:]) & set(sys.modules)))"
    loaded = subprocess.run(
        [sys.executable, "-c", shown, *LOCAL_ONLY], capture_output=True, text=True, check=True
    ).stdout.split()
    assert loaded == []
