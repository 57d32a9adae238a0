"""RatedGames: the terms a rated game is kept under, the ratings it moves, the leaderboard.

A rated room (an automatch pairing, a rated challenge, a tournament game, a rematch in
a rated room) has its terms kept as its game begins (its rating class); when the game
ends its players' ratings move at once (people's Glicko-2, community/glicko2.py,
through rating_records.py), the room is told the changes, and everyone in the lobby
gets the new leaderboard, on every server sharing the store ("matching.leaderboard").
A game is rated once: the names of those already rated are remembered, and read back
from the store at start. Matchmaking (matchmaking.py) holds one and keeps the terms of
the rooms it opens.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from c4tui.community.clocks import RATING_CLASSES, TimeControl
from c4tui.community.endings import changes_ratings
from c4tui.server.rooms.hooks import HostListener
from c4tui.server.rooms.host import RoomHost
from c4tui.server.rooms.other_servers import OtherServers
from c4tui.server.rooms.room import Room
from c4tui.server.store.player_records import PlayerRecords
from c4tui.server.store.rating_records import RatingRecords, Standing
from c4tui.server.store.store import StoreError
from c4tui.server.wire.matchmaking_messages import Leaderboard, Ranked, RatingClassListed

log = logging.getLogger("c4tui.server")


class RatedGames(HostListener):
    """The rated games of one RoomHost (see the module docstring)."""

    def __init__(self, host: RoomHost, wall: Callable[[], float], others: OtherServers) -> None:
        """`wall`: Unix seconds, when a rating changed; `others`: whether other servers
        share the store (and so hear of a new leaderboard)."""
        self.host = host
        self.wall = wall
        self.others = others
        self._rated: set[str] = set()  # names of rated games that have ended
        self._terms: set[str] = set()  # names of rated games whose terms are kept

    @property
    def ratings(self) -> RatingRecords:
        return RatingRecords(self.host.store)

    def started(self) -> None:
        """The rooms' rated games as they were."""
        if self.others.shared:
            self.host.bus.on("matching.leaderboard", self._send_leaderboard)
        for room in self.host.rooms.values():
            terms = self.ratings.terms(room.name)
            room.rated = terms is not None and terms.rated
            if room.rated:
                self._terms.add(room.name)
            if terms is not None and terms.applied:
                self._rated.add(room.name)

    def keep_terms(self, name: str, control: TimeControl) -> None:
        """The game `name` is rated, in the control's class (kept as it begins)."""
        self.ratings.set_terms(name, control.rating_class, rated=True)
        self._terms.add(name)

    def changed(self, room: Room) -> None:
        """A room changed: a rated game that has just ended moves its players' ratings; a
        rematch in a rated room is rated too (its terms are kept as it begins)."""
        if not room.rated or room.name in self._rated:
            return
        if not room.over:
            if room.name not in self._terms and room.control is not None:
                self.keep_terms(room.name, room.control)
            return
        self._rated.add(room.name)
        if not changes_ratings(room.ending) or any(seat.key is None for seat in room.seats):
            return
        winner = room.winner if room.ended is not None else room.position.winner()
        score = 0.5 if winner is None else float(winner == 0)
        players = PlayerRecords(self.host.store)
        ids = tuple(players.player(seat.key or "", seat.name) for seat in room.seats)
        ratings = self.ratings
        try:
            terms = ratings.terms(room.name)
            if terms is None:
                return
            before = [ratings.standing(player, terms.rating_class).rating for player in ids]
            new = ratings.rate(room.name, (ids[0], ids[1]), score, self.wall())
        except StoreError as error:
            log.warning("room %d: the ratings could not be kept: %s", room.number, error)
            return
        if new is None:
            return
        changes = ", ".join(
            f"{seat.name} {after.r:.0f} ({after.r - old.r:+.0f})"
            for seat, old, after in zip(room.seats, before, new, strict=True)
        )
        self.host.tell(room, f"Ratings: {changes}.")
        self._send_leaderboard({}, self.host.server)
        if self.others.shared:  # the other servers' people see it too
            self.host.bus.broadcast("matching.leaderboard", {})

    def _send_leaderboard(self, body: dict[str, Any], sender: str) -> None:
        """Everyone on this server gets the leaderboard (a rated game ended, here or on
        another server)."""
        leaderboard = self.leaderboard()
        for client in self.host.clients:
            client.send(leaderboard)

    def standing(self, key: str, name: str, control: TimeControl) -> Standing:
        """A player's standing in the control's rating class (a seek's rating)."""
        player = PlayerRecords(self.host.store).player(key, name)
        return self.ratings.standing(player, control.rating_class)

    def leaderboard(self) -> Leaderboard:
        """The top players of each rating class."""
        ratings = self.ratings
        classes = []
        for name in RATING_CLASSES:
            top = ratings.leaderboard(name)
            players = tuple(
                Ranked(r.name, round(r.rating.r), round(r.rating.rd), r.provisional, r.games, r.bot)
                for r in top
            )
            classes.append(RatingClassListed(name, players))
        return Leaderboard(tuple(classes))
