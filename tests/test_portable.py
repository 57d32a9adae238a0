"""The app starts where Python runs: nothing on its start path needs a Unix-only module."""

from __future__ import annotations

import subprocess
import sys

# Run in a fresh interpreter where `import fcntl` fails, as on Windows.
WITHOUT_FCNTL = """
import sys
sys.modules["fcntl"] = None  # import fcntl now raises ImportError
directory = sys.argv[1]
from c4tui.cli import build_parser
from c4tui.app.app import ConnectFourApp
from c4tui.engine.board.gamefile import GameRecord
from c4tui.engine.board.position import Position
from c4tui.records.kept_games import GameLibrary

build_parser()
app = ConnectFourApp(config_dir=directory, games_dir=directory, moves="44", seed=1)
first, second = GameLibrary(app.library.directory), GameLibrary(app.library.directory)
record = GameRecord.of(Position.from_moves("4"), ("You", "random"))
first.save("20261125-120000-1", record)
assert second.held_elsewhere("20261125-120000-1"), "the lock holds without fcntl"
first.release()
assert not second.held_elsewhere("20261125-120000-1")
print("started")
"""


def test_the_app_start_path_imports_and_locks_without_fcntl(tmp_path):
    result = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", WITHOUT_FCNTL, str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout == "started\n"
