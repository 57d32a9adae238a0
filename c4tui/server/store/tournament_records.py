"""TournamentRecords: the store's part for Swiss tournaments (tournament.py), migration 040.

A tournament is kept whole after every change (an entry, a pairing, a result), in one
transaction: its row, then its entries, rounds and boards written again. A tournament
is at most 64 players and 15 rounds, so writing it whole costs little and a kill at
any moment leaves it as it was before the change or after it, never between.

Servers sharing one database change a tournament in `locked`: a transaction under a
lock PostgreSQL holds until the commit, on the tournament as the store has it then
(`load(number)`), so two servers entering players or recording results at once never
lose each other's change, and a new tournament gets a number no other server gives.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from c4tui.community.tournament import Board, Entry, Round, Tournament
from c4tui.server.store.store import Store

TOURNAMENT_LOCK = 0x43345454  # PostgreSQL's advisory lock that servers change tournaments under

TOURNAMENT = "id, name, maker, control, rounds_planned, starts_at, phase, note, next_round_at"
BOARD = "board, first_player, second_player, room, points, how"
ROWS_AT_ONCE = 200  # rows in one INSERT (SQLite takes 32766 values in one statement)


class TournamentRecords:
    """Tournaments, their players, rounds and boards, in one store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def keep(self, tournament: Tournament) -> None:
        t = tournament
        with self.store.transaction():
            self.store.execute(
                f"INSERT INTO tournaments ({TOURNAMENT}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (id) DO UPDATE SET rounds_planned = excluded.rounds_planned,"
                " phase = excluded.phase, note = excluded.note, starts_at = excluded.starts_at,"
                " next_round_at = excluded.next_round_at",
                (
                    t.number,
                    t.name,
                    t.maker,
                    t.control,
                    t.rounds_planned,
                    t.starts_at,
                    t.phase,
                    t.note,
                    t.next_round_at,
                ),
            )
            for table in ("tournament_boards", "tournament_rounds", "tournament_entries"):
                self.store.execute(f"DELETE FROM {table} WHERE tournament = ?", (t.number,))
            self._insert(
                "tournament_entries (tournament, player, name, rating, withdrawn, entered)",
                [
                    (t.number, e.key, e.name, e.rating, int(e.withdrawn), order)
                    for order, e in enumerate(t.entries.values())
                ],
            )
            self._insert(
                "tournament_rounds (tournament, round_number, bye)",
                [(t.number, done.number, done.bye) for done in t.rounds],
            )
            self._insert(
                f"tournament_boards (tournament, round_number, {BOARD})",
                [
                    (t.number, done.number, index, b.first, b.second, b.room, b.points, b.how)
                    for done in t.rounds
                    for index, b in enumerate(done.boards)
                ],
            )

    def _insert(self, into: str, rows: list[tuple[object, ...]]) -> None:
        """Many rows in few statements: on PostgreSQL each statement is a round trip,
        and a big tournament is hundreds of rows (64 players, 15 rounds: 480 boards)."""
        for start in range(0, len(rows), ROWS_AT_ONCE):
            chunk = rows[start : start + ROWS_AT_ONCE]
            one = "(" + ", ".join("?" * len(chunk[0])) + ")"
            values = [value for row in chunk for value in row]
            self.store.execute(f"INSERT INTO {into} VALUES {', '.join([one] * len(chunk))}", values)

    @contextmanager
    def locked(self) -> Iterator[None]:
        """A transaction under the tournaments' lock: what is read inside is what the
        store has, and no other server changes a tournament until it ends."""
        with self.store.transaction():
            if self.store.dialect == "postgresql":
                self.store.execute("SELECT pg_advisory_xact_lock(?)", (TOURNAMENT_LOCK,))
            yield

    def next_number(self) -> int:
        """The number of a new tournament (in `locked`, so no other server gives it)."""
        highest = self.store.value("SELECT MAX(id) FROM tournaments")
        return 1 if highest is None else int(highest) + 1

    def load(self, number: int | None = None) -> list[Tournament]:
        """Every tournament kept, by number; or only the one numbered `number`."""
        found = []
        where, params = ("", ()) if number is None else (" WHERE id = ?", (number,))
        for row in self.store.rows(
            f"SELECT {TOURNAMENT} FROM tournaments{where} ORDER BY id", params
        ):
            number = int(row[0])
            entries = {
                str(key): Entry(str(key), str(name), float(rating), bool(withdrawn))
                for key, name, rating, withdrawn in self.store.rows(
                    "SELECT player, name, rating, withdrawn FROM tournament_entries"
                    " WHERE tournament = ? ORDER BY entered",
                    (number,),
                )
            }
            boards = self._boards(number)
            rounds = [
                Round(int(round_number), boards.get(int(round_number), []), bye)
                for round_number, bye in self.store.rows(
                    "SELECT round_number, bye FROM tournament_rounds WHERE tournament = ?"
                    " ORDER BY round_number",
                    (number,),
                )
            ]
            found.append(
                Tournament(
                    number,
                    str(row[1]),
                    str(row[2]),
                    str(row[3]),
                    int(row[4]),
                    float(row[5]),
                    row[6],
                    entries,
                    rounds,
                    row[7],
                    None if row[8] is None else float(row[8]),
                )
            )
        return found

    def _boards(self, number: int) -> dict[int, list[Board]]:
        """Every board of the tournament, by round, in order."""
        boards: dict[int, list[Board]] = {}
        for round_number, _, first, second, room, points, how in self.store.rows(
            f"SELECT round_number, {BOARD} FROM tournament_boards WHERE tournament = ?"
            " ORDER BY round_number, board",
            (number,),
        ):
            boards.setdefault(int(round_number), []).append(
                Board(
                    str(first),
                    str(second),
                    None if room is None else int(room),
                    None if points is None else float(points),
                    how,
                )
            )
        return boards
