"""Which of a game's mistakes were played right again in "learn from your mistakes".

Kept with the game, in <data dir>/learned.json: for each game (its board and main line,
`4453...` on 7x6 connect 4 is "7x6c4:4453..."), the 0-based plies of the lessons
passed. Written atomically; a damaged file is set aside (aside.py) and starts afresh.
"""

from __future__ import annotations

import json
from pathlib import Path

from c4tui.engine.board.position import Position
from c4tui.files import DamagedFile, atomic_write, read_json
from c4tui.records.aside import set_aside

FILE_NAME = "learned.json"
GAMES_KEPT = 500


def game_key(game: Position) -> str:
    return f"{game.width}x{game.height}c{game.connect}:{game.to_moves()}"


def games_of(data: object) -> dict[str, list[int]]:
    """The lessons passed per game, as the file holds them; DamagedFile unless it is an
    object of games, each a list of plies (whole numbers from 0)."""
    if not isinstance(data, dict):
        raise DamagedFile("not an object of games")
    games: dict[str, list[int]] = {}
    for key, plies in data.items():
        if not isinstance(plies, list) or not all(type(p) is int and p >= 0 for p in plies):
            raise DamagedFile(f"{key[:30]!r}: {plies!r:.30} is not a list of plies")
        games[key] = plies
    return games


class Learned:
    """The lessons passed, per game."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / FILE_NAME
        self.notice: str | None = None
        self.games: dict[str, list[int]] = {}
        if not self.path.exists():
            return
        try:
            self.games = games_of(read_json(self.path))
        except (OSError, ValueError) as error:  # UnreadableFile, DamagedFile
            self.games = {}
            try:
                aside = set_aside(self.path)
                self.notice = f"{self.path} could not be read ({error}); kept as {aside}."
            except OSError:
                self.notice = f"{self.path} could not be read ({error})."

    def passed(self, game: Position) -> set[int]:
        return set(self.games.get(game_key(game), ()))

    def mark(self, game: Position, ply: int) -> None:
        """Lesson `ply` of `game` passed (OSError when the disk refuses)."""
        key = game_key(game)
        plies = sorted({*self.games.pop(key, []), ply})
        self.games[key] = plies  # last, so the oldest games go first past GAMES_KEPT
        kept = dict(list(self.games.items())[-GAMES_KEPT:])
        atomic_write(self.path, json.dumps(kept) + "\n")
