"""Who plays each colour: a person or an engine spec, and what to call them."""

from __future__ import annotations

from dataclasses import dataclass

from c4tui.engine.players.levels import level_title
from c4tui.engine.players.specs import (
    SpecError,
    level_of,
    outside_title,
    parse_spec,
    split_name,
    title_of,
)

GLYPHS = ("●", "○")  # ● moves first; the glyphs differ by shape, not only by colour
# What a game file says of a person the app did not name: not a name to show.
UNNAMED = frozenset({"", "?", "You", "Player 1", "Player 2"})


def engine_title(spec: str) -> str:
    """A short name for an engine spec: "MCTS" for "mcts:time=1", "Level 4" for "level:4"."""
    level = level_of(spec)
    if level is not None:
        return level_title(level)
    outside = outside_title(spec)  # "bot.py", or its name=
    if outside is not None:
        return outside
    name, _settings = split_name(spec)
    return title_of(name) or name or "AI"


def engine_spec_or_none(player: str) -> str | None:
    """A game file's player: an engine spec that can play again, or None for a person.

    An outside engine (cmd:, fourinarow:, connectx:) does not play again from a file: a
    game file may come from anyone, and its player's line would run a program here.
    """
    try:
        parse_spec(player, outside=False)
    except SpecError:
        return None
    return player


@dataclass(frozen=True)
class Sides:
    """The two sides: an engine spec, or None for a person at the keyboard (`people`:
    the names of persons, from a game file; "" where the app names them)."""

    first: str | None = None
    second: str | None = None
    people: tuple[str, str] = ("", "")

    def spec(self, player: int) -> str | None:
        return self.first if player == 0 else self.second

    def is_ai(self, player: int) -> bool:
        return self.spec(player) is not None

    @property
    def watching(self) -> bool:
        """Both sides are engines: people watch (and may pause or step)."""
        return self.first is not None and self.second is not None

    def name(self, player: int) -> str:
        """What the screen calls a side: the engine's title, "You", or "Player N"."""
        spec = self.spec(player)
        if spec is not None:
            return engine_title(spec)
        if self.people[player]:
            return self.people[player]
        if self.first is None and self.second is None:
            return f"Player {player + 1}"
        return "You"

    def recorded(self, player: int) -> str:
        """What a game file records for a side: the engine spec, or the person's name."""
        spec = self.spec(player)
        return spec if spec is not None else self.name(player)
