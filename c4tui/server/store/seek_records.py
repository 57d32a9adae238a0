"""SeekRecords: automatch's seeks in the store, paired once whichever server pairs them.

With several servers on one database a seeker on one server must meet a seeker on
another, so every seek is a row (`seeks`, kept by the seeker's server) and so is each
player's last opponent. Any server may pair (`pair`, about once a second on each): it
reads the seeks of the live servers and deletes those it pairs in one transaction,
under a lock that PostgreSQL holds until the commit (an advisory lock; SQLite's
BEGIN IMMEDIATE locks the whole file already). A second server pairing at that moment
waits, then finds those seeks gone: no seek is paired twice. The rules are
automatch.py's, on Unix seconds.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from c4tui.community.automatch import Blocked, Pairing, Seek, SeekQueue, Widening
from c4tui.community.bot_tokens import is_bot_key
from c4tui.server.store.store import Store

PAIRING_LOCK = 0x43345350  # PostgreSQL's advisory lock that servers pair seeks under


class SeekRecords:
    """The seeks of every server, in one store; `server` is this one's."""

    def __init__(self, store: Store, server: str) -> None:
        self.store, self.server = store, server

    def keep(self, seek: Seek) -> None:
        """This server's player seeks (a new control, or again on another server, replaces
        their seek)."""
        self.store.execute(
            "INSERT INTO seeks (key, name, rating, control, since, server)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET name = excluded.name,"
            " rating = excluded.rating, control = excluded.control, since = excluded.since,"
            " server = excluded.server",
            (seek.key, seek.name, seek.rating, str(seek.control), seek.since, self.server),
        )

    def cancel(self, key: str) -> None:
        """This server's player stops seeking (a seek kept by another server stays)."""
        self.store.execute("DELETE FROM seeks WHERE key = ? AND server = ?", (key, self.server))

    def clear(self) -> None:
        """This server has (re)started: none of its players seeks yet."""
        self.store.execute("DELETE FROM seeks WHERE server = ?", (self.server,))

    def playing(self, key: str) -> bool:
        """Whether this player has a seat in a game under way at one sitting, in a room
        of any server (moves made, no result yet, no days-a-move clock): they do not seek."""
        found = self.store.value(
            "SELECT 1 FROM room_seats s JOIN rooms r ON r.number = s.room"
            " JOIN games g ON g.id = r.game LEFT JOIN room_clocks c ON c.room = r.number"
            " WHERE s.key = ? AND g.plies > 0 AND g.result = '*'"
            " AND (c.days IS NULL OR c.days = 0)",
            (key,),
        )
        return found is not None

    def played(self, a: str, b: str) -> None:
        """Two players met (automatch, a challenge): each is the other's last opponent."""
        for key, other in ((a, b), (b, a)):
            self.store.execute(
                "INSERT INTO last_opponents (key, opponent) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET opponent = excluded.opponent",
                (key, other),
            )

    def queue(
        self,
        live: Collection[str],
        clock: Callable[[], float],
        blocked: Blocked,
        widening: Widening | None = None,
    ) -> SeekQueue:
        """The seeks of the `live` servers as one queue on `clock` (Unix seconds), with
        their players' last opponents."""
        queue = SeekQueue(clock, blocked, widening or Widening())
        rows = self.store.rows("SELECT key, name, rating, control, since, server FROM seeks")
        for key, name, rating, control, since, server in rows:
            # A bot's seek is paired by its own server only: it plays its games there.
            if server in live and (server == self.server or not is_bot_key(str(key))):
                queue.seeks[str(key)] = Seek(str(key), str(name), float(rating), control, since)
        if len(queue.seeks) > 1:  # only a pairing asks whom they met last
            for key, opponent in self.store.rows("SELECT key, opponent FROM last_opponents"):
                if key in queue.seeks:
                    queue.last_opponent[str(key)] = str(opponent)
        return queue

    def pair(
        self,
        live: Collection[str],
        clock: Callable[[], float],
        blocked: Blocked,
        most: int | None = None,
        widening: Widening | None = None,
    ) -> tuple[list[Pairing], SeekQueue]:
        """Pair the seeks of the `live` servers (at most `most` pairings: the rooms this
        server has left), deleting them and keeping who met whom, all in one transaction
        under the pairing lock; the pairings, and the queue of those still waiting. The
        lock is taken only when two seeks of one control wait (not at most ticks)."""
        waiting = self.queue(live, clock, blocked, widening)
        controls = [seek.control for seek in waiting.seeks.values()]
        if len(controls) == len(set(controls)):
            return [], waiting
        with self.store.transaction():
            if self.store.dialect == "postgresql":
                self.store.execute("SELECT pg_advisory_xact_lock(?)", (PAIRING_LOCK,))
            queue = self.queue(live, clock, blocked, widening)
            pairings = queue.pair(most)
            for pairing in pairings:
                keys = (pairing.first.key, pairing.second.key)
                self.store.execute("DELETE FROM seeks WHERE key IN (?, ?)", keys)
                self.played(*keys)
        return pairings, queue
