"""PlayerRecords: the store's part for players, their identities and the names they hold.

A name belongs to one player, whichever of the player's identities claimed it; names
are compared casefolded (Ann and ANN are one name), and a name that looks like one
another player holds (the same skeleton: look_alikes.py, "Аnn" with a Cyrillic А) is
theirs too. The people of the community
(issue 33 part 1) build on these tables: more identities per player, passwords,
profiles.
"""

from __future__ import annotations

from c4tui.community.look_alikes import skeleton
from c4tui.server.store.store import Store, now


class PlayerRecords:
    """Players, identities and names, in one store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._skeletons_filled = False

    def player_of(self, key: str) -> int | None:
        """The player the identity `key` belongs to, None when it is new."""
        found = self.store.value("SELECT player FROM identities WHERE key = ?", (key,))
        return None if found is None else int(found)

    def player(self, key: str, name: str) -> int:
        """The player of identity `key`, made (named `name`) when it is new."""
        with self.store.transaction():
            found = self.player_of(key)
            if found is not None:
                return found
            when = now()
            made = int(
                self.store.value(
                    "INSERT INTO players (name, created) VALUES (?, ?) RETURNING id", (name, when)
                )
            )
            self.store.execute(
                "INSERT INTO identities (key, player, created) VALUES (?, ?, ?)", (key, made, when)
            )
            return made

    def holder_of(self, name: str) -> int | None:
        """The player who holds `name`, or else a name that looks like it; None when
        nobody does."""
        self._fill_skeletons()
        found = self.store.value(
            "SELECT player FROM names WHERE folded = ? OR skeleton = ?"
            " ORDER BY folded = ? DESC LIMIT 1",
            (name.casefold(), skeleton(name), name.casefold()),
        )
        return None if found is None else int(found)

    def claim(self, name: str, key: str) -> bool:
        """The name for the player of identity `key`, unless another holds it or a name
        that looks like it; whether that player holds it now."""
        with self.store.transaction():
            player = self.player(key, name)
            holder = self.holder_of(name)
            if holder is not None and holder != player:
                return False
            self.store.execute(
                "INSERT INTO names (folded, name, player, claimed, skeleton)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (folded) DO NOTHING",
                (name.casefold(), name, player, now(), skeleton(name)),
            )
            return self.holder_of(name) == player

    def _fill_skeletons(self) -> None:
        """The skeletons of names held from before they were kept (016's NULLs)."""
        if self._skeletons_filled:
            return
        self._skeletons_filled = True
        rows = self.store.rows("SELECT folded, name FROM names WHERE skeleton IS NULL")
        if rows:
            with self.store.transaction():
                for folded, name in rows:
                    self.store.execute(
                        "UPDATE names SET skeleton = ? WHERE folded = ?", (skeleton(name), folded)
                    )
