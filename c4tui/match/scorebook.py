"""The running score: a person's wins, draws and losses against each opponent, kept.

    <data dir>/scores.json   {"level:4": {"wins": 3, "draws": 1, "losses": 2}, ...,
                              "counted": ["20261123-081502-1", ...]}

A game counts once, when it ends with one person against one engine (the engine spec
names the opponent); undoing the end and finishing again does not count it twice.
Written atomically; a damaged file starts the tally afresh rather than stop the game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from c4tui.files import atomic_write

FILE_NAME = "scores.json"
COUNTED_KEPT = 2000  # game names remembered as counted (older ones cannot come back)


@dataclass(frozen=True)
class Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def __str__(self) -> str:
        return f"{self.wins}-{self.draws}-{self.losses}"


class ScoreBook:
    """Wins, draws and losses per opponent spec, from the person's side."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / FILE_NAME
        self.tallies: dict[str, Tally] = {}
        self.counted: list[str] = []
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            self.counted = [str(name) for name in data.pop("counted", [])]
            self.tallies = {spec: Tally(**counts) for spec, counts in data.items()}
        except (OSError, ValueError, TypeError, AttributeError):
            self.tallies, self.counted = {}, []

    def tally(self, spec: str) -> Tally:
        return self.tallies.get(spec, Tally())

    def count(self, game: str, opponent: str, outcome: int) -> bool:
        """Count a finished game once: outcome 1 the person won, 0 a draw, -1 lost.
        False when it was counted already."""
        if game in self.counted:
            return False
        old = self.tally(opponent)
        self.tallies[opponent] = Tally(
            old.wins + (outcome > 0), old.draws + (outcome == 0), old.losses + (outcome < 0)
        )
        self.counted = [*self.counted, game][-COUNTED_KEPT:]
        data: dict = {spec: vars(t) for spec, t in self.tallies.items()}
        data["counted"] = self.counted
        atomic_write(self.path, json.dumps(data, indent=1) + "\n")
        return True
