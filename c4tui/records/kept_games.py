"""The kept games: every game played in the app, one game file each, in the user data dir.

    <data dir>/games/20261123-081502-0001000001.c4   one file per game, named by its start
    <data dir>/current                    the name of the game in progress
    <data dir>/locks/<name>.lock          held (filelock) by the c4tui that plays that game

The game in progress is written after every move, so quitting (or a crash) never loses
it, and the next start brings it back. A new game leaves the previous one in `games/`.
Only the `keep` games played most recently stay; the one played longest ago goes first
(a game reopened and played on is recent again). Every write is atomic.

Only names this module makes are games: `current` naming anything else (a path, a NUL
byte) is damage, never a file to open. A game that cannot be read is renamed aside
(aside.py), never written over, and the error says where it went. Two c4tui on one data
dir never play one game: each holds its game's lock (the kernel drops it when the process
ends, however it ends), and another c4tui is refused that game (GameHeldElsewhere).
"""

from __future__ import annotations

import itertools
import os
import re
import time
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from c4tui.engine.board.gamefile import GameRecord
from c4tui.files import NoSuchFile, atomic_write, read_text
from c4tui.records.aside import set_aside

if TYPE_CHECKING:
    from filelock import FileLock

SUFFIX = ".c4"
KEEP = 300  # games kept; a few hundred is years of casual play in a few hundred KB
GAME_NAME = re.compile(r"\d{8}-\d{6}-\d{1,10}")  # new_name's shape (older: a short counter)
_counter = itertools.count(1)
_last_stamp = 0  # the last time a game was stamped as played (ns), so stamps increase


class GameHeldElsewhere(OSError):
    """The game is being played by another c4tui on the same data dir."""

    def __init__(self, name: str) -> None:
        super().__init__(f"game {name} is open in another c4tui")


class DamagedGame(Exception):
    """The game in progress could not be brought back; the message says why and where
    whatever was there is now."""


@dataclass(frozen=True)
class KeptGame:
    """A game in the library: its name (the file's stem), what it holds, and when it was
    last played (the file's modification time, seconds since the epoch)."""

    name: str
    record: GameRecord
    played: float = 0.0

    @property
    def played_text(self) -> str:
        """When it was last played, to the minute, in UTC."""
        return datetime.fromtimestamp(self.played, UTC).strftime("%Y-%m-%d %H:%M")


class GameLibrary:
    """The directory of kept games."""

    def __init__(self, directory: Path, keep: int = KEEP) -> None:
        self.directory = directory
        self.games = directory / "games"
        self.locks = directory / "locks"
        self.keep = keep
        self._held: tuple[str, FileLock] | None = None  # (name, its lock) of our game

    @staticmethod
    def new_name() -> str:
        """A name for a game starting now: sorts by time; unique within the process."""
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        # Fixed widths, so that names sort by time also within a second: an unpadded
        # counter put game 10 before game 9.
        return f"{stamp}-{os.getpid() % 10000:04d}{next(_counter):06d}"

    def path(self, name: str) -> Path:
        if not GAME_NAME.fullmatch(name):
            raise ValueError(f"{name[:40]!r} is not the name of a kept game")
        return self.games / f"{name}{SUFFIX}"

    def name_of(self, path: Path) -> str | None:
        """The name of the kept game whose file `path` is, None when it is not one."""
        try:
            kept = path.resolve().parent == self.games.resolve()
        except OSError:
            return None
        return (
            path.stem if kept and path.suffix == SUFFIX and GAME_NAME.fullmatch(path.stem) else None
        )

    def has(self, name: str) -> bool:
        """Whether the game has a file (it had moves once)."""
        return os.path.lexists(self.path(name))

    # ---- who plays which game -------------------------------------------------------

    def hold(self, name: str) -> bool:
        """Hold `name` as this library's game (letting go of the one held before);
        False when another c4tui holds it."""
        if self._held is not None and self._held[0] == name:
            return True
        # Imported here: a served client, which keeps no games, never pays for it at start.
        from filelock import FileLock, Timeout

        try:
            self.locks.mkdir(parents=True, exist_ok=True)
            # A portable lock (flock on Unix, LockFileEx on Windows): the kernel lets go
            # when the process ends, however it ends. Not per thread: the match saves
            # from whichever thread it runs on.
            lock = FileLock(self.locks / f"{name}.lock", thread_local=False)
            lock.acquire(blocking=False)
        except Timeout:
            return False  # another c4tui plays it
        except OSError:
            # A data dir that takes no lock takes no game file either: nobody can
            # overwrite anybody's moves, and writing the game says why it failed.
            return True
        self.release()
        self._held = (name, lock)
        return True

    def release(self) -> None:
        """Let go of the game held (the app quits, or plays another game). The lock
        file stays (a lock taken by another c4tui meanwhile is on that same file);
        pruning the game takes it away."""
        if self._held is None:
            return
        _name, lock = self._held
        self._held = None
        with suppress(OSError):  # the app is letting go: nowhere left to report it
            lock.release()

    def held_elsewhere(self, name: str) -> bool:
        """Whether another c4tui plays `name` now."""
        if self._held is not None and self._held[0] == name:
            return False
        path = self.locks / f"{name}.lock"
        if not path.is_file():
            return False  # never held (and not made here: looking takes no room)
        from filelock import FileLock, Timeout

        lock = FileLock(path, thread_local=False)
        try:
            lock.acquire(blocking=False)
        except Timeout:
            return True
        except OSError:
            return False
        lock.release()
        return False

    # ---- reading and writing --------------------------------------------------------

    def save(self, name: str, record: GameRecord) -> Path:
        """Write one game (atomically) and mark it as the game in progress (a game
        back at the empty board is no game to resume). GameHeldElsewhere, nothing
        written, when another c4tui plays it."""
        if not self.hold(name):
            raise GameHeldElsewhere(name)
        path = self.path(name)
        new = not self.has(name)
        atomic_write(path, record.to_text())
        _stamp_played(path)
        if record.moves:
            atomic_write(self.directory / "current", name + "\n")
        else:
            self.forget_current()
        if new:
            self._prune(keep_name=name)
        return path

    def load(self, name: str) -> GameRecord:
        """One kept game; OSError or ValueError (GameFileError) when it is gone or damaged."""
        return GameRecord.from_text(read_text(self.path(name)))

    def take(self, name: str) -> GameRecord:
        """A kept game to play on, held for this library; GameHeldElsewhere when another
        c4tui plays it, OSError or ValueError when it is gone or damaged."""
        record = self.load(name)
        if not self.hold(name):
            raise GameHeldElsewhere(name)
        return record

    def current(self) -> KeptGame | None:
        """The game that was in progress when a c4tui last stopped, held for this one.

        None when there is none; GameHeldElsewhere when another c4tui plays it;
        DamagedGame when it cannot be read: whatever stood in the way (a `current` that
        names no kept game, a damaged game file) is renamed aside first, and the message
        says where.
        """
        pointer = self.directory / "current"
        try:
            name = read_text(pointer).strip()
            path = self.path(name)  # ValueError unless one of our names
        except NoSuchFile:
            return None
        except (OSError, ValueError) as error:
            raise DamagedGame(
                self._put_aside(pointer, "the data dir's current file", error)
            ) from None
        if not os.path.lexists(path):
            self._forget_current_if_possible()
            raise DamagedGame(f"The game in progress, {path}, is gone; a new game starts.")
        try:
            record = self.load(name)
        except (OSError, ValueError) as error:
            self._forget_current_if_possible()
            raise DamagedGame(self._put_aside(path, "The game in progress", error)) from None
        if not self.hold(name):
            raise GameHeldElsewhere(name)
        return KeptGame(name, record, self._played(path))

    def _forget_current_if_possible(self) -> None:
        # A data dir that refuses it (read-only) says the same at the next start: no harm.
        with suppress(OSError):
            self.forget_current()

    def _put_aside(self, path: Path, what: str, error: Exception) -> str:
        """Rename a damaged file aside; what to tell the person."""
        why = getattr(error, "reason", None) or str(error)
        what = what[0].upper() + what[1:]
        try:
            aside = set_aside(path)
        except OSError as failure:
            return f"{what} could not be read ({why}) nor set aside ({failure.strerror})."
        return f"{what} could not be read ({why}); it is kept as {aside}."

    def forget_current(self) -> None:
        """No game is in progress (the current one stays among the kept games)."""
        (self.directory / "current").unlink(missing_ok=True)

    def names(self) -> list[str]:
        """Every kept game's name, the one played most recently first."""
        return [name for name, _ in self._by_play()]

    def _by_play(self) -> list[tuple[str, float]]:
        """(name, last played) of every kept game, the most recent first."""
        found = []
        try:
            for path in self.games.glob(f"*{SUFFIX}"):
                if GAME_NAME.fullmatch(path.stem):
                    found.append((path.stem, self._played(path)))
        except OSError:
            return []
        return sorted(found, key=lambda item: (item[1], item[0]), reverse=True)

    @staticmethod
    def _played(path: Path) -> float:
        try:
            return path.lstat().st_mtime
        except OSError:
            return 0.0

    def listing(self) -> tuple[list[KeptGame], int]:
        """The kept games that read cleanly, the most recently played first, and how
        many did not."""
        kept, damaged = [], 0
        for name, played in self._by_play():
            try:
                kept.append(KeptGame(name, self.load(name), played))
            except (OSError, ValueError):
                damaged += 1
        return kept, damaged

    def _prune(self, keep_name: str) -> None:
        for name in self.names()[self.keep :]:
            if name != keep_name and not self.held_elsewhere(name):
                self.path(name).unlink(missing_ok=True)
                (self.locks / f"{name}.lock").unlink(missing_ok=True)


def _stamp_played(path: Path) -> None:
    """Stamp a game as played now, to the nanosecond: a file system's own clock ticks
    in milliseconds, and games played within one tick would tie."""
    global _last_stamp
    _last_stamp = max(time.time_ns(), _last_stamp + 1)
    os.utime(path, ns=(_last_stamp, _last_stamp))
