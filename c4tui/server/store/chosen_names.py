"""ChosenNames: the names browser players choose, kept as the names of ssh players are.

A browser is a private cookie's identity ("web:<id>"); it starts with a name the web
front makes ("web-1a2b") and may choose one of its own. A chosen name is claimed for
the identity's player in `names`, as an ssh key's first login claims one (so no other
key, password or browser can take it) and becomes the player's shown name
(`players.name`), which the web front looks up when the browser comes back. A name
chosen before stays the player's: nobody else takes it over their old games. The
rules a chosen name keeps are c4tui/community/chosen_names.py's.
"""

from __future__ import annotations

from c4tui.server.store.player_records import PlayerRecords
from c4tui.server.store.store import Store


class ChosenNames:
    """The names browsers chose, in one store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.players = PlayerRecords(store)

    def held(self, key: str) -> str | None:
        """The name the player of identity `key` chose and holds, None when none."""
        player = self.players.player_of(key)
        if player is None:
            return None
        name = str(self.store.value("SELECT name FROM players WHERE id = ?", (player,)))
        return name if self.players.holder_of(name) == player else None

    def choose(self, key: str, name: str) -> bool:
        """`name` for the player of identity `key`, as written (its case too), unless
        another player holds it; whether it is theirs now."""
        with self.store.transaction():
            if not self.players.claim(name, key):
                return False
            player = self.players.player(key, name)
            self.store.execute(
                "UPDATE names SET name = ? WHERE folded = ?", (name, name.casefold())
            )
            self.store.execute("UPDATE players SET name = ? WHERE id = ?", (name, player))
            return True
