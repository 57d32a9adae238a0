"""GameRecords: the store's part for games, their moves and who keeps them.

A game is kept under its name (unique: when it began and in which room), as a row with
how it ended and its result, and its moves one row each. `keep` is called after a
change to a game and writes only what changed: the moves after the first that differs
(a take-back removes the last ones), and the row itself; `add_moves`, for a move in a
game under way, writes its row and the move count without reading anything back.

A person's games ("My games") are the games kept for them, by a digest of their
identity's key (`holder`): the state directory before the database kept them in
`players/<digest>/games/`, and the games brought over from there find their owner.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from c4tui.engine.board.gamefile import Ending, GameRecord
from c4tui.engine.board.position import Position
from c4tui.server.store.store import Store, now

KEPT_LIMIT = 50  # the newest games a person's list shows


def holder(key: str) -> str:
    """Whose kept games these are, without spelling out the key: 24 hex digits of its sha256."""
    return hashlib.sha256(key.encode()).hexdigest()[:24]


@dataclass(frozen=True)
class KeptGame:
    """One game of a person's list: its name and its record (a game file's content)."""

    name: str
    record: GameRecord


class GameRecords:
    """Games, moves and kept games, in one store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def keep(
        self,
        name: str,
        record: GameRecord,
        *,
        room: int | None = None,
        keys: Sequence[str | None] = (None, None),
    ) -> int:
        """Keep the game `name` as `record` says (made or brought up to date); its id.
        `keys`: the identities of the people at each side (None: an engine, or unknown),
        a side's identity once known is not forgotten."""
        position = record.position
        winner = record.ended.winner if record.ended is not None else position.winner()
        with self.store.transaction():
            game = self.store.value(
                "INSERT INTO games (name, room, began, width, height, connect, player1, player2,"
                " key1, key2, plies, ended, winner, result, updated)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (name) DO UPDATE SET player1 = excluded.player1,"
                " player2 = excluded.player2, key1 = COALESCE(excluded.key1, games.key1),"
                " key2 = COALESCE(excluded.key2, games.key2), plies = excluded.plies,"
                " ended = excluded.ended, winner = excluded.winner, result = excluded.result,"
                " updated = excluded.updated"
                " RETURNING id",
                (
                    name,
                    room,
                    record.date,
                    record.width,
                    record.height,
                    record.connect,
                    record.players[0],
                    record.players[1],
                    keys[0],
                    keys[1],
                    position.moves,
                    None if record.ended is None else record.ended.how,
                    winner,
                    record.result,
                    now(),
                ),
            )
            self._keep_moves(int(game), position.path)
        return int(game)

    def add_moves(self, name: str, path: tuple[int, ...], kept: int) -> None:
        """The game `name`, kept with the first `kept` moves of `path` and otherwise as it
        is, gets the moves it lacks: their rows and its move count, nothing else."""
        when = now()
        with self.store.transaction():
            game = self.store.value(
                "UPDATE games SET plies = ?, updated = ? WHERE name = ? RETURNING id",
                (len(path), when, name),
            )
            if game is None:
                raise KeyError(name)
            for ply in range(kept, len(path)):
                self.store.execute(
                    "INSERT INTO moves (game, ply, col, played) VALUES (?, ?, ?, ?)",
                    (int(game), ply, path[ply], when),
                )

    def _keep_moves(self, game: int, path: tuple[int, ...]) -> None:
        """The moves table as `path` says, touching only the moves that changed."""
        kept = [
            c
            for (c,) in self.store.rows(
                "SELECT col FROM moves WHERE game = ? ORDER BY ply", (game,)
            )
        ]
        same = 0
        while same < min(len(kept), len(path)) and kept[same] == path[same]:
            same += 1
        if same < len(kept):
            self.store.execute("DELETE FROM moves WHERE game = ? AND ply >= ?", (game, same))
        when = now()
        for ply in range(same, len(path)):
            self.store.execute(
                "INSERT INTO moves (game, ply, col, played) VALUES (?, ?, ?, ?)",
                (game, ply, path[ply], when),
            )

    def record(self, game: int) -> GameRecord:
        """The game with id `game` as a game file would hold it (KeyError: no such game)."""
        records = self.records([game])
        if game not in records:
            raise KeyError(game)
        return records[game][1]

    def records(self, games: Sequence[int]) -> dict[int, tuple[str, GameRecord]]:
        """The games with these ids, as (name, record), by id."""
        if not games:
            return {}
        marks = ", ".join("?" * len(games))
        columns: dict[int, list[int]] = {game: [] for game in games}
        for game, col in self.store.rows(
            f"SELECT game, col FROM moves WHERE game IN ({marks}) ORDER BY game, ply", games
        ):
            columns[game].append(col)
        found = {}
        for row in self.store.rows(
            "SELECT id, name, began, width, height, connect, player1, player2, ended, winner"
            f" FROM games WHERE id IN ({marks})",
            games,
        ):
            game, name, began, width, height, connect, first, second, ended, winner = row
            position = Position.start(width, height, connect)
            for col in columns[game]:
                position = position.play(col)
            found[game] = (
                name,
                GameRecord.of(
                    position,
                    (first, second),
                    began,
                    None if ended is None else Ending(ended, winner),
                ),
            )
        return found

    def id_of(self, name: str) -> int | None:
        found = self.store.value("SELECT id FROM games WHERE name = ?", (name,))
        return None if found is None else int(found)

    # ---- a person's games -------------------------------------------------------

    def hold(self, game: int, keys: Sequence[str]) -> None:
        """Keep game `game` among the games of each identity in `keys` (again: no change)."""
        self.hold_for(game, [holder(key) for key in keys])

    def hold_for(self, game: int, holders: Sequence[str]) -> None:
        """Keep game `game` for each of `holders` (digests of keys, see `holder`)."""
        with self.store.transaction():
            for digest in holders:
                self.store.execute(
                    "INSERT INTO kept_games (holder, game) VALUES (?, ?)"
                    " ON CONFLICT (holder, game) DO NOTHING",
                    (digest, game),
                )

    def kept(self, key: str, limit: int = KEPT_LIMIT) -> list[KeptGame]:
        """The newest games kept for the identity `key` (names sort by when they began)."""
        ids = [
            int(game)
            for (game,) in self.store.rows(
                "SELECT k.game FROM kept_games k JOIN games g ON g.id = k.game"
                " WHERE k.holder = ? ORDER BY g.name DESC LIMIT ?",
                (holder(key), limit),
            )
        ]
        records = self.records(ids)
        return [KeptGame(*records[game]) for game in ids]
