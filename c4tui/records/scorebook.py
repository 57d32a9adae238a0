"""The running score: a person's wins, draws and losses against each opponent, kept.

    <data dir>/scores.json   {"level:4": {"wins": 3, "draws": 1, "losses": 2}, ...,
                              "counted": ["20261123-081502-1", ...]}

A game counts once, when a move played in the app ends it with one person against one
engine (the engine spec names the opponent); undoing the end and finishing again does
not count it twice. Written atomically. A damaged file starts the tally afresh rather
than stop the game: it is kept aside (renamed, see aside.py) the first time the fresh
tally is written, and `count` says where.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from c4tui.files import NoSuchFile, atomic_write, read_json
from c4tui.records.aside import set_aside

FILE_NAME = "scores.json"
COUNTED_KEPT = 2000  # game names remembered as counted (older ones cannot come back)
COUNTS = ("wins", "draws", "losses")


@dataclass(frozen=True)
class RunningScore:
    """The games against one opponent: won, drawn and lost."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    def __str__(self) -> str:
        return f"{self.wins}-{self.draws}-{self.losses}"


class DamagedScores(ValueError):
    """A score file that does not hold what this module writes."""


def score_of(spec: str, counts: object) -> RunningScore:
    """A RunningScore from its JSON object; DamagedScores unless it holds three counts."""
    if not isinstance(counts, dict) or set(counts) != set(COUNTS):
        raise DamagedScores(f"{spec[:30]}: not the counts {', '.join(COUNTS)}")
    for key in COUNTS:
        value = counts[key]
        if type(value) is not int or value < 0:
            raise DamagedScores(f"{spec[:30]}: {key} {value!r:.20} is not a count")
    return RunningScore(**counts)


class ScoreBook:
    """Wins, draws and losses per opponent spec, from the person's side."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / FILE_NAME
        self.tallies: dict[str, RunningScore] = {}
        self.counted: list[str] = []
        self.damage: str | None = None  # why the file on disk could not be read
        self._refresh()

    def _refresh(self) -> None:
        """Take what the file holds now (another c4tui on the data dir may have counted
        a game since); what was known stays when it is missing or damaged."""
        try:
            data = read_json(self.path)
            if not isinstance(data, dict):
                raise DamagedScores("not a JSON object")
            counted = data.pop("counted", [])
            if not isinstance(counted, list) or not all(isinstance(n, str) for n in counted):
                raise DamagedScores("'counted' is not a list of game names")
            self.tallies = {spec: score_of(spec, counts) for spec, counts in data.items()}
            self.counted = counted
        except NoSuchFile:
            pass
        except (OSError, ValueError) as error:  # DamagedScores and DamagedFile are ValueErrors
            self.damage = str(error)

    def tally(self, spec: str) -> RunningScore:
        return self.tallies.get(spec, RunningScore())

    def count(self, game: str, opponent: str, outcome: int) -> tuple[bool, str | None]:
        """Count a finished game once: outcome 1 the person won, 0 a draw, -1 lost.
        Returns whether it was counted (False: counted already) and, the first time a
        damaged file is replaced, what was wrong and where it was kept aside.
        OSError when the score cannot be written."""
        self._refresh()
        if game in self.counted:
            return False, None
        old = self.tally(opponent)
        self.tallies[opponent] = RunningScore(
            old.wins + (outcome > 0), old.draws + (outcome == 0), old.losses + (outcome < 0)
        )
        self.counted = [*self.counted, game][-COUNTED_KEPT:]
        said = None
        if self.damage is not None:
            if self.path.exists() or self.path.is_symlink():
                aside = set_aside(self.path)
                said = f"The running score file was damaged ({self.damage}); kept as {aside}."
            self.damage = None
        data: dict[str, object] = {spec: vars(t) for spec, t in self.tallies.items()}
        data["counted"] = self.counted
        atomic_write(self.path, json.dumps(data, indent=1) + "\n")
        return True, said
