"""TournamentRounds: the rounds of the tournaments this server runs, one after another.

At its start (or when its maker begins it) a tournament's first round is paired and
each board seated in a room of its own (tournament_seats.py sends the players in); a
game's end is its board's result; when the round's last game ends, the next round is
paired after the pause between rounds (`RoomLimits.round_pause`), with the players
told every PAUSE_NOTICE seconds when it starts; after the last round the standings are
final. A server that takes a tournament over goes on from the store (`resume`). Every
change goes through the desk's `change` (tournaments.py), under the tournaments' lock.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable
from typing import Protocol, TypeVar

from c4tui.community.swiss_standings import DRAW, LOSS, WIN
from c4tui.community.tournament import Round, Tournament
from c4tui.server.desks.tournament_seats import TournamentSeats
from c4tui.server.rooms.hooks import Refused
from c4tui.server.rooms.host import RoomHost
from c4tui.server.rooms.room import Room
from c4tui.server.store.store import StoreError

log = logging.getLogger("c4tui.server")
PAUSE_NOTICE = 5  # seconds: in the pause between rounds, players are told this often
T = TypeVar("T")


class Desk(Protocol):
    """What the rounds ask of their desk: the tournaments as this server read them, the
    ones it runs, their seats, and a change kept under the tournaments' lock."""

    host: RoomHost
    clock: Callable[[], float]
    tournaments: dict[int, Tournament]
    running: set[int]
    seats: TournamentSeats

    def change(self, number: int, change: Callable[[Tournament], T]) -> T: ...


class TournamentRounds:
    """Pairing, seating, results and pauses of one desk's tournaments."""

    def __init__(self, desk: Desk) -> None:
        self.desk = desk
        self._pause_told: dict[int, int] = {}  # the seconds last told, by tournament

    def resume(self, number: int) -> None:
        """A tournament this server runs from now (at its start, or taken from a server
        that stopped): a game that ended meanwhile is recorded, a game whose room is
        gone (or was never made) is played again in a new one, a round over is followed
        by the next."""
        tournament = self.desk.tournaments[number]
        current = tournament.current
        if tournament.phase != "playing" or current is None:
            return
        kept: dict[int, Room] = {}
        if any(b.room not in self.desk.host.rooms for b in current.boards if not b.over):
            try:  # rooms other servers hold (or that no server has taken back yet)
                kept = {room.number: room for room, _ in self.desk.host.keeper.load()}
            except StoreError as error:
                log.warning("tournament %d: its rooms not read: %s", number, error)
                return
        unseated = []
        for index, board in enumerate(current.boards):
            if board.over:
                continue
            room = None if board.room is None else self.desk.host.rooms.get(board.room)
            room = room or (None if board.room is None else kept.get(board.room))
            if room is None:
                log.warning("tournament %d: a game's room is gone; seated again", number)
                unseated.append(index)
            elif room.over:
                self.record(number, room)
        if unseated:
            self._seat_boards(number, unseated)
        # Every game had ended as the server stopped: the pause (a pause under way goes
        # on, from the time kept).
        self.round_ended_if_over(number)

    def begin(self, number: int) -> None:
        def begun(tournament: Tournament) -> Round | None:
            if tournament.phase != "registration":
                return None
            return tournament.begin()

        first = self.desk.change(number, begun)
        log.info("tournament %d: %s", number, self.desk.tournaments[number].phase)
        if first is not None:
            self._seat_round(number)

    def _seat_round(self, number: int) -> None:
        current = self.desk.tournaments[number].current
        assert current is not None
        self._seat_boards(number, list(range(len(current.boards))))
        if current.bye is not None:
            self.desk.seats.tell(
                current.bye, f"Round {current.number}: you have the bye (a point)."
            )

    def _seat_boards(self, number: int, indexes: list[int]) -> None:
        """A room for each of these boards of the round under way: its number written on
        the board and kept first, then the room made and kept, then its players sent
        into it. (A server that dies between the two leaves a board whose room is in no
        store: the one that takes the tournament over seats it again, `resume`; the
        other way round it would leave a room no board knows, its seats taken.)"""
        tournament = self.desk.tournaments[number]
        current = tournament.current
        assert current is not None
        numbers = {index: self.desk.host.leasing.new_number() for index in indexes}

        def seated(fresh: Tournament) -> None:
            if fresh.current is None or fresh.current.number != current.number:
                return
            for index, room in numbers.items():
                fresh.current.boards[index].room = room

        self.desk.change(number, seated)
        for index in indexes:
            self.desk.seats.seat_board(tournament, current, current.boards[index], numbers[index])

    def record(self, number: int, room: Room) -> None:
        """The result of the game in `room`, kept; the server that runs the tournament
        goes on to the next round when it was the round's last."""
        winner = room.winner if room.ended is not None else room.position.winner()
        points = DRAW if winner is None else (WIN if winner == 0 else LOSS)
        how = room.ended or ("four in a row" if winner is not None else "full board")

        def recorded(tournament: Tournament) -> None:
            board = tournament.record(room.number, points, how)
            if board is not None and how == "forfeit" and winner is not None:
                # Never came (or never moved): not paired again (and not rated: endings.py).
                tournament.leave((board.first, board.second)[1 - winner])

        try:
            self.desk.change(number, recorded)
        except Refused:
            return  # said in the log; the runner records it when it resumes
        log.info("tournament %d: room %d ended (%s)", number, room.number, how)
        # The next round once this change is done: seating it takes players out of
        # this room, which the host is still keeping and showing.
        asyncio.get_running_loop().call_soon(self.round_ended_if_over, number)

    def record_ended(self, tournament: Tournament) -> None:
        """A game held here that ended without its result kept (the store refused it, or
        this server's copy of the tournament was behind then): recorded now."""
        current = tournament.current
        if tournament.phase != "playing" or current is None:
            return
        for board in current.boards:
            room = (
                None if board.over or board.room is None else self.desk.host.rooms.get(board.room)
            )
            if room is not None and room.over:
                self.record(tournament.number, room)
                return  # read again by now: the next look sees to any other

    def round_ended_if_over(self, number: int) -> None:
        """The round is over: the pause before the next (at once after the last round,
        or with no pause set). Only the server that runs the tournament."""
        tournament = self.desk.tournaments.get(number)
        if number not in self.desk.running or tournament is None:
            return
        if not tournament.round_over() or tournament.next_round_at is not None:
            return
        pause = self.desk.host.limits.round_pause
        if tournament.last_round() or pause <= 0:
            self._next_round(number)
            return
        now = self.desk.clock()

        def paused(fresh: Tournament) -> bool:
            if not fresh.round_over() or fresh.next_round_at is not None:
                return False
            fresh.next_round_at = now + pause
            return True

        if self.desk.change(number, paused):
            log.info("tournament %d: round %d over", number, len(tournament.rounds))
            self.pause_goes_on(number, now)

    def pause_goes_on(self, number: int, now: float) -> None:
        """In the pause between rounds: the next round once it is over (its runner);
        before that, every PAUSE_NOTICE seconds, this server's players are told when it
        starts (every server tells its own)."""
        tournament = self.desk.tournaments[number]
        assert tournament.next_round_at is not None
        left = math.ceil(tournament.next_round_at - now)
        if left <= 0:
            if number in self.desk.running:
                self._next_round(number)
            return
        told = self._pause_told.get(number)
        if told is not None and told - left < PAUSE_NOTICE:
            return
        self._pause_told[number] = left
        following = len(tournament.rounds) + 1
        for key, entry in tournament.entries.items():
            if not entry.withdrawn:
                text = f"{tournament.name}: round {following} starts in {left} s."
                self.desk.seats.tell_here(key, text)

    def _next_round(self, number: int) -> None:
        self._pause_told.pop(number, None)

        def advanced(tournament: Tournament) -> Round | bool | None:
            if not tournament.round_over():
                return False  # another server's change came first: nothing to do
            return tournament.advance()

        following = self.desk.change(number, advanced)
        if following is False:
            return
        tournament = self.desk.tournaments[number]
        if following is None:
            log.info("tournament %d: %s", number, tournament.phase)
            for key in tournament.entries:
                self.desk.seats.tell(key, f"{tournament.name} is over: the standings are final.")
        else:
            self._seat_round(number)
