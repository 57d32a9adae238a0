"""What the arena tests share: a run interrupted after N games, and a slow arena process."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from c4tui.tournament import workers

# An arena process with a slow engine: it waits on the stop event, so an interrupted
# game ends at once, as a real engine's search does.
SLOW_ARENA = """
import sys, threading
from c4tui.engine.players import specs
from c4tui.engine.players.random_player import RandomEngine

class SlowEngine(RandomEngine):
    def search(self, position, limits=None, *, on_info=None, stop=None):
        (stop or threading.Event()).wait(0.02)
        return super().search(position, limits, on_info=on_info, stop=stop)

sys.modules["slow_engine"] = sys.modules[__name__]
specs.ENGINES["slow"] = ("slow_engine", "SlowEngine")
from c4tui.cli import main
sys.exit(main(sys.argv[1:]))
"""


def interrupt_after(monkeypatch, games: int) -> None:
    """Make an in-process run get Ctrl-C when it starts game number `games` + 1."""
    real = workers.play_game
    played = []

    def interrupted(task, stop=None):
        if len(played) == games:
            raise KeyboardInterrupt
        played.append(task.index)
        return real(task, stop)

    monkeypatch.setattr(workers, "play_game", interrupted)


def saved_games(save: Path) -> int:
    return len(save.read_text().splitlines()) if save.exists() else 0


def start_slow_arena(save: Path) -> subprocess.Popen:
    """`arena slow random` in 2 worker processes, once it has saved two games; a run
    that ends or saves fewer within 30 s fails the test, with what the arena said."""
    argv = ["arena", "slow", "random", "--games", "200", "--jobs", "2", "--json"]
    process = subprocess.Popen(
        [sys.executable, "-c", SLOW_ARENA, *argv, "--save", str(save)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).parent.parent,
    )
    deadline = time.monotonic() + 30
    while saved_games(save) < 2 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    if saved_games(save) < 2:
        process.kill()
        _, err = process.communicate()
        raise AssertionError(f"the arena saved {saved_games(save)} games, not 2: {err[-500:]}")
    return process
