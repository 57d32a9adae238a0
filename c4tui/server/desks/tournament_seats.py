"""TournamentSeats: a tournament's players into their games, and its word to them, on every server.

The tournament desk (tournaments.py) pairs a round; this part makes each board's room
and sends its two players into it. With several servers on one database, a player may
be connected to any of them: the server that runs the tournament makes the room (so it
holds it), takes its own clients of each player there, and tells the other servers over
the bus (`tourney.seated`), each of which takes its own clients there through the relay
(host.bring_into). The desk's notices to players go the same way (`tourney.tell`).

A client playing a game under way elsewhere is not taken out of it: it is told where
its tournament game waits (and its clock runs there, as a player who is away).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from c4tui.community.clocks import TimeControl
from c4tui.community.tournament import Board, Round, Tournament
from c4tui.engine.board.game import Game
from c4tui.engine.board.position import Position
from c4tui.server.cluster.bus_rooms import RoomsElsewhere
from c4tui.server.rooms.access import new_code
from c4tui.server.rooms.audience import Client
from c4tui.server.rooms.host import RoomHost
from c4tui.server.rooms.keeping import new_game_name
from c4tui.server.rooms.room import Room, Seat
from c4tui.server.store.store import StoreError
from c4tui.server.wire.protocol import Notice

log = logging.getLogger("c4tui.server")


class TournamentSeats:
    """The seating and the notices of the tournaments of one RoomHost (see the module
    docstring); `plays_in(room)`: whether that room is a tournament game's."""

    def __init__(self, host: RoomHost, plays_in: Callable[[int], bool]) -> None:
        self.host = host
        self.plays_in = plays_in

    def listen(self) -> None:
        """Hear the other servers' seatings and notices (at the service's start)."""
        self.host.bus.on("tourney.seated", self._heard_seated)
        self.host.bus.on("tourney.tell", self._heard_tell)

    # ---- a board's room ---------------------------------------------------------

    def seat_board(self, tournament: Tournament, current: Round, board: Board, number: int) -> None:
        """Room `number` made for the board, kept, and its players sent into it."""
        room = self._room_for(tournament, current, board, number)
        for seat, key, other in ((0, board.first, board.second), (1, board.second, board.first)):
            colour = "●, you move first" if seat == 0 else "○"
            text = (
                f"{tournament.name}, round {current.number}: you play {colour}"
                f" against {tournament.entries[other].name}."
            )
            self._seat_here(key, room.number, text)
            self.host.bus.broadcast(
                "tourney.seated", {"key": key, "room": room.number, "text": text}
            )

    def _room_for(self, tournament: Tournament, current: Round, board: Board, number: int) -> Room:
        """Room `number` for one board, its two players seated (● first), kept (so every
        server finds it)."""
        taken = {seat.code for room in self.host.rooms.values() for seat in room.seats}
        # Nobody's seat is held: a player not here loses on the clock (a side that never
        # moved forfeits), as in any game with a clock.
        seats = []
        for key in (board.first, board.second):
            code = new_code(lambda c: c in taken)
            taken.add(code)
            seats.append(Seat(key, tournament.entries[key].name, code=code))
        code = new_code(lambda c: any(r.code == c for r in self.host.rooms.values()))
        room = Room(
            number,
            code,
            Game(Position.start()),
            seats,
            name=new_game_name(number),
            control=TimeControl.parse(tournament.control),
            rated=True,  # its end moves the ratings, as any rated game's (matchmaking.py)
        )
        self.host.rooms[number] = room
        log.info(
            "tournament %d round %d: %s - %s in room %d",
            tournament.number,
            current.number,
            seats[0].name,  # players' names: their keys' fingerprints tell an operator little
            seats[1].name,
            number,
        )
        self.host.changed(room)
        return room

    def keep_seats(self, tournament: Tournament, room: Room, board: Board) -> None:
        """A tournament seat is never given up before the game's end: a player who left
        before the first move (so the room opened the seat) has it back, and the clock
        decides (tournament games are not played by whoever has the room's code)."""
        taken = {seat.code for r in self.host.rooms.values() for seat in r.seats}
        for index, key in enumerate((board.first, board.second)):
            if room.seats[index].open:
                code = new_code(lambda c: c in taken)
                room.seats[index] = Seat(key, tournament.entries[key].name, code=code)

    # ---- players on every server ------------------------------------------------

    def _heard_seated(self, body: dict[str, Any], sender: str) -> None:
        key, room, text = body.get("key"), body.get("room"), body.get("text")
        if isinstance(key, str) and isinstance(room, int) and isinstance(text, str):
            self._seat_here(key, room, text)

    def _seat_here(self, key: str, number: int, text: str) -> None:
        """This server's clients of the player into their tournament game's room (on
        this server or relayed to the one that holds it), unless they play a game
        under way elsewhere: those are told where it waits."""
        idle = []
        for client in self._online(key):
            if self._busy(client):
                client.send(Notice(f"{text} Your game waits in room {number}."))
            else:
                idle.append(client)
        self.host.bring_into(idle, number)
        for client in idle:
            client.send(Notice(text))

    def _online(self, key: str) -> list[Client]:
        """This server's own clients of `key` (a client relayed here from another server
        is told by that one)."""
        return [c for c in self.host.clients.of(key) if not c.relayed]

    def _busy(self, client: Client) -> bool:
        """In a game under way elsewhere: not taken out of it. A game in another server's
        room (the client relayed to it) counts while the client has a seat there, unless
        it is an earlier game of a tournament (over: its board is only in the round
        before)."""
        if client.room is None:
            return False
        room = self.host.rooms.get(client.room)
        if room is not None:
            return room.under_way and room.seat_of(client.key) is not None
        if self.plays_in(client.room):
            return False
        try:
            seated = RoomsElsewhere(self.host.store, self.host.server, self.host.wall)
            found = seated.seated(client.key)
        except StoreError as error:
            log.warning("a seat elsewhere not looked up: %s", error)
            return False
        return found is not None and found[0] == client.room

    def tell(self, key: str, text: str) -> None:
        """Tell the player, on every server."""
        self.tell_here(key, text)
        self.host.bus.broadcast("tourney.tell", {"key": key, "text": text})

    def tell_here(self, key: str, text: str) -> None:
        """Tell the player on this server only (each server counts down a pause itself)."""
        for client in self._online(key):
            client.send(Notice(text))

    def _heard_tell(self, body: dict[str, Any], sender: str) -> None:
        key, text = body.get("key"), body.get("text")
        if isinstance(key, str) and isinstance(text, str):
            self.tell_here(key, text)
