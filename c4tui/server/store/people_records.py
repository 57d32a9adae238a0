"""PeopleRecords: the store's part for passwords of keyless names and for blocking.

A keyless ssh login is known by its name alone ("ssh-name:bob"), whatever its case:
`keyless_identity` gives `BOB` and `bob` one identity, as names are compared everywhere
else. Its player may set a password (passwords.py keeps only a salted hash), which
claims the name for that player and from then on is asked of every keyless login under it.

A player may block another: `blocks(a, b)` says whether the player of identity `a`
blocks the player of identity `b`, for automatch, challenges and chat (each asks it both
ways). Blocks are between players, so a player's every identity is blocked at once.
"""

from __future__ import annotations

from c4tui.server.store.player_records import PlayerRecords
from c4tui.server.store.store import Store, now

KEYLESS = "ssh-name:"  # the identity of an ssh login without a key: the name


class PeopleRecords:
    """Passwords and blocks, in one store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.players = PlayerRecords(store)

    # ---- keyless names --------------------------------------------------------------

    def keyless_identity(self, name: str) -> str:
        """The identity of a keyless login as `name`, in any case: the one kept for the
        name casefolded, else one kept from before names were folded here ("ssh-name:Bob",
        the first made), else the name casefolded (new)."""
        folded = KEYLESS + name.casefold()
        if self.players.player_of(folded) is not None:
            return folded
        # SQL's LOWER folds ASCII letters alone (on SQLite): the rows it finds are checked.
        rows = self.store.rows(
            "SELECT key FROM identities WHERE key LIKE ? AND LOWER(key) = LOWER(?)"
            " ORDER BY created, player",
            (KEYLESS + "%", folded),
        )
        return next((str(k) for (k,) in rows if str(k).casefold() == folded), folded)

    # ---- passwords ------------------------------------------------------------------

    def set_password(self, key: str, name: str, hashed: str) -> bool:
        """Keep `hashed` (passwords.hashed) as the password of the player of `key`, and
        claim `name` for them; False, and nothing kept, when another player holds it."""
        with self.store.transaction():
            if not self.players.claim(name, key):
                return False
            player = self.players.player(key, name)
            self.store.execute(
                "INSERT INTO passwords (player, hash, updated) VALUES (?, ?, ?)"
                " ON CONFLICT (player) DO UPDATE SET hash = excluded.hash,"
                " updated = excluded.updated",
                (player, hashed, now()),
            )
            return True

    def password_of(self, name: str) -> str | None:
        """The kept password of whoever holds `name` (None: no password is asked)."""
        found = self.store.value(
            "SELECT passwords.hash FROM names JOIN passwords ON passwords.player = names.player"
            " WHERE names.folded = ?",
            (name.casefold(),),
        )
        return None if found is None else str(found)

    # ---- blocks ---------------------------------------------------------------------

    def block(self, key: str, name: str, other: int) -> None:
        """The player of `key` (named `name` if new) blocks player `other`."""
        with self.store.transaction():
            player = self.players.player(key, name)
            if player != other:
                self.store.execute(
                    "INSERT INTO blocks (player, blocked, since) VALUES (?, ?, ?)"
                    " ON CONFLICT (player, blocked) DO NOTHING",
                    (player, other, now()),
                )

    def unblock(self, key: str, other: int) -> None:
        player = self.players.player_of(key)
        if player is not None:
            self.store.execute(
                "DELETE FROM blocks WHERE player = ? AND blocked = ?", (player, other)
            )

    def blocks(self, a: str, b: str) -> bool:
        """Whether the player of identity `a` blocks the player of identity `b`."""
        found = self.store.value(
            "SELECT 1 FROM blocks JOIN identities AS one ON one.player = blocks.player"
            " JOIN identities AS two ON two.player = blocks.blocked"
            " WHERE one.key = ? AND two.key = ?",
            (a, b),
        )
        return found is not None

    def blocks_player(self, key: str, other: int) -> bool:
        """Whether the player of identity `key` blocks player `other`."""
        found = self.store.value(
            "SELECT 1 FROM blocks JOIN identities ON identities.player = blocks.player"
            " WHERE identities.key = ? AND blocks.blocked = ?",
            (key, other),
        )
        return found is not None

    def blocked_by(self, key: str) -> list[str]:
        """The names of the players the player of `key` blocks, in order."""
        rows = self.store.rows(
            "SELECT players.name FROM blocks JOIN identities ON identities.player = blocks.player"
            " JOIN players ON players.id = blocks.blocked WHERE identities.key = ?"
            " ORDER BY players.name",
            (key,),
        )
        return [str(name) for (name,) in rows]
