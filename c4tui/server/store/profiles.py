"""ProfileRecords: what a player's profile shows from the store: ratings, results, games.

A profile is asked for by a name. The name's player is the one who holds it (names),
else the one who last played a kept game under it (a keyless or browser name that
was never claimed). Results count every finished game of any of the player's
identities, against people and engines alike: wins, draws and losses. The ratings are
those of the classes the player has played rated games in (rating_records.py). The
recent games are the player's finished games, the last ended first, each with the side
the player had (a profile opens them as "My games" does).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from c4tui.community.clocks import RATING_CLASSES
from c4tui.engine.board.gamefile import GameRecord
from c4tui.server.store.game_records import GameRecords
from c4tui.server.store.player_records import PlayerRecords
from c4tui.server.store.rating_records import RatingRecords, Standing
from c4tui.server.store.store import Store

RECENT = 10  # the finished games a profile lists


@dataclass(frozen=True)
class Played:
    """A finished game of the player's: its name, its record, and the side they had."""

    name: str
    record: GameRecord
    side: int


@dataclass(frozen=True)
class Results:
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


class ProfileRecords:
    """Profiles, read from one store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.players = PlayerRecords(store)

    def player_named(self, name: str) -> int | None:
        """The player a name stands for (see the module docstring), None for nobody."""
        holder = self.players.holder_of(name)
        if holder is not None:
            return holder
        found = self.store.row(
            "SELECT CASE WHEN lower(player1) = ? THEN key1 ELSE key2 END FROM games"
            " WHERE (lower(player1) = ? AND key1 IS NOT NULL)"
            " OR (lower(player2) = ? AND key2 IS NOT NULL) ORDER BY updated DESC, id DESC",
            (name.casefold(),) * 3,
        )
        return None if found is None else self.players.player_of(str(found[0]))

    def name_of(self, player: int) -> str:
        return str(self.store.value("SELECT name FROM players WHERE id = ?", (player,)))

    def keys(self, player: int) -> list[str]:
        """The player's identities."""
        rows = self.store.rows("SELECT key FROM identities WHERE player = ?", (player,))
        return [str(key) for (key,) in rows]

    def _finished(self, player: int, column: str) -> list[tuple[int, Any]]:
        """The player's finished games (against oneself left out), the last ended first:
        the side the player had, and `column` of each."""
        keys = set(self.keys(player))
        if not keys:
            return []
        marks = ", ".join("?" * len(keys))
        rows = self.store.rows(
            f"SELECT key1, key2, {column} FROM games WHERE result <> '*'"
            f" AND (key1 IN ({marks}) OR key2 IN ({marks})) ORDER BY updated DESC, id DESC",
            (*keys, *keys),
        )
        return [
            (0 if key1 in keys else 1, value)
            for key1, key2, value in rows
            if not (key1 in keys and key2 in keys)
        ]

    def recent(self, player: int, limit: int = RECENT) -> list[Played]:
        """The player's last `limit` finished games, the last ended first."""
        found = [(side, int(game)) for side, game in self._finished(player, "id")[:limit]]
        records = GameRecords(self.store).records([game for _, game in found])
        return [Played(*records[game], side) for side, game in found]

    def results(self, player: int) -> Results:
        """The player's finished games, won, drawn and lost (games against oneself left out)."""
        wins = draws = losses = 0
        for side, winner in self._finished(player, "winner"):
            if winner is None:
                draws += 1
            elif winner == side:
                wins += 1
            else:
                losses += 1
        return Results(wins, draws, losses)

    def ratings(self, player: int) -> dict[str, Standing]:
        """The player's standing in each class with a rated game, by class."""
        ratings = RatingRecords(self.store)
        found = {c: ratings.standing(player, c) for c in RATING_CLASSES}
        return {c: standing for c, standing in found.items() if standing.games}
