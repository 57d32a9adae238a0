"""A player's new name, wherever they are: their connections, their seats, the lobby.

A browser player who chooses a name (server/desks/people.py) is called by it at once on every
connection of theirs (each told `Named`), in every room they sit in or watch, and in
the online list, on this server and, over the bus ("webname.renamed"), on the others
sharing its store: each renames its own clients and rooms, keeps its own presence row
(the other servers' lobbies read it at their next "lobby.changed"). A browser still
under the name the web front made is told, as it logs in, where to choose one.
"""

from __future__ import annotations

from typing import Any

from c4tui.community.chosen_names import WEB_NAMES
from c4tui.server.rooms.audience import Client
from c4tui.server.rooms.hooks import HostListener
from c4tui.server.rooms.host import RoomHost
from c4tui.server.rooms.other_servers import OtherServers
from c4tui.server.wire.identity import display_name
from c4tui.server.wire.people_messages import Named
from c4tui.server.wire.protocol import Notice

RENAMED = "webname.renamed"  # {key, name}: the player of identity `key` is called `name`
BROWSER = "web:"  # a browser's identity (its private cookie): it may choose a name


class Renaming(HostListener):
    """Renames a player on this server and tells the others."""

    def __init__(self, host: RoomHost, others: OtherServers) -> None:
        self.host = host
        self.others = others
        host.bus.on(RENAMED, self._heard)

    def rename(self, key: str, name: str) -> None:
        """The player of identity `key` is called `name` now, here and on every server."""
        self._here(key, name)
        self.host.bus.broadcast(RENAMED, {"key": key, "name": name})

    def arrived(self, client: Client) -> None:
        made = client.name.startswith(WEB_NAMES)
        if client.key.startswith(BROWSER) and made and not client.relayed:
            how = "p in the lobby, Enter on yourself, then n"
            client.send(Notice(f"You are {client.name}. To choose a name of your own: {how}."))

    def _heard(self, body: dict[str, Any], sender: str) -> None:
        key, name = body.get("key"), body.get("name")
        if isinstance(key, str) and isinstance(name, str):
            self._here(key, display_name(name))

    def _here(self, key: str, name: str) -> None:
        host = self.host
        theirs = host.clients.of(key)
        for client in theirs:
            client.name = name
            if not client.relayed:  # a stand-in's own server tells its client
                client.send(Named(name))
        if theirs:
            self.others.arrived(theirs[0])  # the presence row, under the new name
        rooms = {c.room for c in theirs}
        for room in list(host.rooms.values()):
            seats = [seat for seat in room.seats if seat.key == key]
            for seat in seats:
                seat.name = name
            if seats:
                host.changed(room)  # kept under the new name, shown, listed
            elif room.number in rooms:
                host.show(room)  # a watcher's name
        host.lobby.changed()
