"""TournamentAudience: who sees the tournaments, and what each is sent.

Clients that asked for the list (`tournaments`) get it again whenever a tournament
changes; a client that follows one (`follow_tournament`) gets its pairings and
standings as they change, gathered so a busy round sends a few updates a second
(SEND_EVERY). A board's move count comes from its room on this server, or, for a game
another server holds, from that server's word on the bus (tourney.moves), which this
audience sends for the games held here. The desk (tournaments.py) says what changed.
"""

from __future__ import annotations

import asyncio
from typing import Any

from c4tui.community.tournament import Tournament
from c4tui.server.rooms.audience import Client
from c4tui.server.rooms.host import RoomHost
from c4tui.server.rooms.room import Room
from c4tui.server.wire.codec import from_wire, to_wire
from c4tui.server.wire.tournament_messages import (
    TournamentListed,
    TournamentShown,
    TournamentsListed,
)

SEND_EVERY = 0.25  # seconds: updates of tournaments are gathered, as the lobby's are


class TournamentAudience:
    """The clients of one RoomHost that look at its tournaments (see the module docstring)."""

    def __init__(self, host: RoomHost, tournaments: dict[int, Tournament]) -> None:
        self.host = host
        self.tournaments = tournaments  # the desk's, as this server last read them
        self.listening: set[Client] = set()  # asked for the list: it comes again on changes
        self.following: dict[Client, int] = {}  # the tournament each client follows
        self._due: set[int] = set()  # tournaments changed since the last send
        self._sending = False
        self._moved: dict[int, dict[int, int]] = {}  # games held here that moved: to tell
        self._moves: dict[int, int] = {}  # moves of the games other servers hold, by room

    def listen(self) -> None:
        """Hear how far the games other servers hold have got."""
        self.host.bus.on("tourney.moves", self._heard_moves)

    def list_to(self, client: Client) -> None:
        """The list to `client`, now and again on every change."""
        self.listening.add(client)
        client.send(self.listed(client))

    def due(self, number: int) -> None:
        """Tournament `number` changed: shown again to whoever looks at it, soon."""
        self._due.add(number)
        self._send_soon()

    def moved(self, number: int, room: Room) -> None:
        """A game of tournament `number` held here moved: told to the other servers."""
        self._moved.setdefault(number, {})[room.number] = room.position.moves

    def _heard_moves(self, body: dict[str, Any], sender: str) -> None:
        """How far the games of a tournament held by another server have got."""
        number, rooms = body.get("number"), body.get("rooms")
        if not isinstance(number, int) or not isinstance(rooms, dict):
            return
        for room, moves in rooms.items():
            if str(room).isdigit() and isinstance(moves, int):
                self._moves[int(room)] = moves
        self.due(number)

    def _send_soon(self) -> None:
        if self._sending:
            return
        self._sending = True
        try:
            asyncio.get_running_loop().call_later(SEND_EVERY, self._send)
        except RuntimeError:  # no loop (a test of the rules): nothing to send to
            self._sending = False

    def _send(self) -> None:
        self._sending = False
        due, self._due = self._due, set()
        moved, self._moved = self._moved, {}
        for number, rooms in moved.items():  # how far the games held here have got
            self.host.bus.broadcast(
                "tourney.moves", {"number": number, "rooms": {str(r): m for r, m in rooms.items()}}
            )
        live = self.host.clients
        for client in list(self.listening):
            if client in live:
                client.send(self.listed(client))
            else:
                self.listening.discard(client)
        for client, number in list(self.following.items()):
            if client not in live:
                del self.following[client]
            elif number in due and number in self.tournaments:
                client.send(self.shown(self.tournaments[number], client))

    def listed(self, client: Client) -> TournamentsListed:
        return TournamentsListed(
            tuple(
                self._listed(t, client)
                for t in sorted(self.tournaments.values(), key=lambda t: -t.number)
            )
        )

    @staticmethod
    def _listed(tournament: Tournament, client: Client) -> TournamentListed:
        entry = tournament.entries.get(client.key)
        return TournamentListed(
            tournament.number,
            tournament.name,
            tournament.maker,
            tournament.control,
            tournament.rounds_planned,
            tournament.starts_at,
            tournament.phase,
            len(tournament.rounds),
            sum(not e.withdrawn for e in tournament.entries.values()),
            entry is not None and not entry.withdrawn,
            tournament.next_round_at,
        )

    def shown(self, tournament: Tournament, client: Client) -> TournamentShown:
        """The tournament as one client sees it: standings, and every round's boards."""
        names = {key: e.name for key, e in tournament.entries.items()}
        standings = [
            {
                "place": s.place,
                "name": names[s.key],
                "points": s.points,
                "buchholz": s.buchholz,
                "sonneborn_berger": s.sonneborn_berger,
                "wins": s.wins,
                "draws": s.draws,
                "losses": s.losses,
                "byes": s.byes,
                "withdrawn": tournament.entries[s.key].withdrawn,
            }
            for s in tournament.standings()
        ]
        boards = []
        for done in reversed(tournament.rounds):
            for board in done.boards:
                room = None if board.room is None else self.host.rooms.get(board.room)
                if room is not None:
                    open_room, moves = not board.over or room.over, room.position.moves
                else:  # a game under way on another server: watched through it
                    open_room = board.room is not None and not board.over
                    moves = self._moves.get(board.room or 0, 0)
                boards.append(
                    {
                        "round": done.number,
                        "first": names[board.first],
                        "second": names[board.second],
                        "room": board.room if open_room else None,
                        "points": board.points,
                        "how": board.how,
                        "moves": moves if open_room else 0,
                    }
                )
        byes = {str(r.number): names[r.bye] for r in tournament.rounds if r.bye is not None}
        return from_wire(
            TournamentShown,
            {
                "tournament": to_wire(self._listed(tournament, client)),
                "note": tournament.note,
                "maker_is_you": tournament.maker == client.name
                and client.key in tournament.entries,
                "standings": standings,
                "boards": boards,
                "byes": byes,
            },
            "tournament",
        )
