"""The kept games: every game played in the app, one game file each, in the user data dir.

    <data dir>/games/20261123-081502-1.c4   one file per game, named by when it started
    <data dir>/current                      the name of the game in progress

The game in progress is written after every move, so quitting (or a crash) never loses
it, and the next start brings it back. A new game leaves the previous one in `games/`.
Only the newest `keep` games stay; the oldest go first. Every write is atomic.
"""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from c4tui.engine.gamefile import GameFileError, GameRecord
from c4tui.files import atomic_write

SUFFIX = ".c4"
KEEP = 300  # games kept; a few hundred is years of casual play in a few hundred KB
_counter = itertools.count(1)


@dataclass(frozen=True)
class KeptGame:
    """A game in the library: its name (the file's stem) and what it holds."""

    name: str
    record: GameRecord


class GameLibrary:
    """The directory of kept games."""

    def __init__(self, directory: Path, keep: int = KEEP) -> None:
        self.directory = directory
        self.games = directory / "games"
        self.keep = keep

    @staticmethod
    def new_name() -> str:
        """A name for a game starting now: sorts by time; unique within the process."""
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        # Fixed widths, so that names sort by time also within a second: an unpadded
        # counter put game 10 before game 9.
        return f"{stamp}-{os.getpid() % 10000:04d}{next(_counter):06d}"

    def path(self, name: str) -> Path:
        return self.games / f"{name}{SUFFIX}"

    def has(self, name: str) -> bool:
        """Whether the game has a file (it had moves once)."""
        return os.path.lexists(self.path(name))

    def save(self, name: str, record: GameRecord) -> Path:
        """Write one game (atomically) and mark it as the game in progress (a game
        back at the empty board is no game to resume)."""
        path = self.path(name)
        new = not self.has(name)
        atomic_write(path, record.to_text())
        if record.moves:
            atomic_write(self.directory / "current", name + "\n")
        else:
            self.forget_current()
        if new:
            self._prune(keep_name=name)
        return path

    def load(self, name: str) -> GameRecord:
        """One kept game; OSError or GameFileError when it is gone or damaged."""
        return GameRecord.from_text(self.path(name).read_text(encoding="utf-8"))

    def current(self) -> KeptGame | None:
        """The game that was in progress when the app last stopped, if it can be read."""
        try:
            name = (self.directory / "current").read_text(encoding="utf-8").strip()
            return KeptGame(name, self.load(name)) if name else None
        except (OSError, UnicodeDecodeError, GameFileError):
            return None

    def forget_current(self) -> None:
        """No game is in progress (the current one stays among the kept games)."""
        (self.directory / "current").unlink(missing_ok=True)

    def names(self) -> list[str]:
        """Every kept game's name, newest first."""
        try:
            return sorted((p.stem for p in self.games.glob(f"*{SUFFIX}")), reverse=True)
        except OSError:
            return []

    def listing(self) -> tuple[list[KeptGame], int]:
        """The kept games that read cleanly, newest first, and how many did not."""
        kept, damaged = [], 0
        for name in self.names():
            try:
                kept.append(KeptGame(name, self.load(name)))
            except (OSError, UnicodeDecodeError, GameFileError):
                damaged += 1
        return kept, damaged

    def _prune(self, keep_name: str) -> None:
        for name in self.names()[self.keep :]:
            if name != keep_name:
                self.path(name).unlink(missing_ok=True)
