"""RoomKeeper: the rooms and the finished games of the room service, kept in the store.

A room is kept (server/store/room_records.py) after every change, in one transaction with
its game; a game that is over is kept among the games of each person who played it
(server/store/game_records.py). A move in a game under way, the change made most often,
writes only what it changed (`moved_only`): its move row, the game's move count and the
clock; a room made, ended or reseated is written whole. `restore` puts a room back as it
was last kept, for a change the store refused (a full disk): what players were told is
always what is kept.

What is read back is checked as a room file's content was: an AI seat's spec must be
one this c4tui plays, the moves a game of that board. A room that fails is left in the
database, said in one log line, and the server starts with the others.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Collection
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from c4tui.community.clocks import Clock
from c4tui.engine.players.specs import SpecError, parse_spec
from c4tui.server.rooms.room import Room, Seat
from c4tui.server.store.clock_records import ClockRecords
from c4tui.server.store.game_records import GameRecords
from c4tui.server.store.rating_records import RatingRecords
from c4tui.server.store.room_records import RoomRecord, RoomRecords, SeatRecord
from c4tui.server.store.store import Store

log = logging.getLogger("c4tui.server")


def new_game_name(room: int) -> str:
    """A game's name: sorts by when it began ("20261123-211502-r3-4f09a2"); the random
    end keeps two games of one room and second apart, across restarts too."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return f"{stamp}-r{room}-{secrets.token_hex(3)}"


def room_record(room: Room) -> RoomRecord:
    """What is kept of `room`."""
    seats = tuple(SeatRecord(s.key, s.name, s.ai, s.code) for s in room.seats)
    return RoomRecord(
        number=room.number,
        code=room.code,
        public=room.public,
        game_name=room.name,
        game=room.record(),
        seats=(seats[0], seats[1]),
        offers=dict(room.offers),
        clock=None if room.clock is None else room.clock.kept(),
    )


def clock_charged(room: Room, now: float, wall: float) -> float | None:
    """When the room's clock was last charged, in Unix seconds, from the host's `now`
    and `wall` times (kept with the clock: a takeover charges from then)."""
    return None if room.clock is None else wall - (now - room.clock.since)


def moved_only(last: RoomRecord, record: RoomRecord) -> bool:
    """Whether `record` is `last` with moves added to a game still under way (its clock
    may differ too): all the store needs then is the moves and the clock."""
    before, after = last.game, record.game
    if after.ended is not None or after.position.is_over():
        return False  # an ending writes the game's result and its players' lists
    path, kept = after.position.path, before.position.path
    if len(path) <= len(kept) or path[: len(kept)] != kept:
        return False
    same_game = replace(after, moves=before.moves) == before
    return same_game and replace(record, game=before, clock=last.clock) == last


def room_of(record: RoomRecord) -> Room:
    """A room as it was kept; ValueError says why it cannot be one."""
    for seat in record.seats:
        if seat.ai is not None:
            try:
                parse_spec(seat.ai)
            except SpecError as error:
                raise ValueError(f"an AI seat: {error}") from None
    game = record.game.game()
    ended = record.game.ended
    # Its running side's time runs again when the host resumes it (RoomHost.start).
    clock = None if record.clock is None else Clock.resumed(record.clock, 0.0)
    seats = [Seat(key=s.key, name=s.name, ai=s.ai, code=s.code) for s in record.seats]
    # Who played the game is kept with it: once one of them left, the seats may say
    # otherwise (a bot's title, another who sat down in a freed seat), and the game is
    # still theirs (Room.played_by), after a restart or on another server as before.
    played = (seats[0].recorded(), seats[1].recorded())
    return Room(
        number=record.number,
        code=record.code,
        game=game,
        seats=seats,
        played_by=None if record.game.players == played else record.game.players,
        public=record.public,
        name=record.game_name,
        date=record.game.date,
        ended=None if ended is None else ended.how,
        winner=None if ended is None else ended.winner,
        offers=dict(record.offers),
        control=None if clock is None else clock.control,
        clock=clock,
    )


def restore(room: Room, record: RoomRecord) -> None:
    """Put `room` back as `record` keeps it, in place (requests hold the object); who is
    connected, held seats and addresses stay as they are."""
    kept = room_of(record)
    for index, seat in enumerate(kept.seats):
        now = room.seats[index]
        if seat.key is not None and seat.key == now.key:
            seat.held_until, seat.address = now.held_until, now.address
    room.game, room.seats = kept.game, kept.seats
    room.code, room.public, room.name, room.date = kept.code, kept.public, kept.name, kept.date
    room.ended, room.winner, room.offers = kept.ended, kept.winner, kept.offers
    if kept.clock is not None and room.clock is not None:
        # The refused change's time is not charged: the clock stands still from it
        # while the room cannot be kept (seat_watch.py), and runs when it is kept again.
        kept.clock.since = room.clock.since
    room.control, room.clock, room.clock_ply = kept.control, kept.clock, kept.clock_ply
    room.rematch.clear()
    room.cancel_search()


@dataclass
class RoomKeeper:
    """The rooms and kept games of the room service, in `store`."""

    store: Store

    def __post_init__(self) -> None:
        self.rooms = RoomRecords(self.store)
        self.games = GameRecords(self.store)
        self.clocks = ClockRecords(self.store)

    def keep(
        self, room: Room, last: RoomRecord | None = None, at: tuple[float, float] | None = None
    ) -> RoomRecord:
        """Keep the room, and a game that is over among its players' games; what was
        kept. `last`: the room as it was last kept, if it was, so that a move writes only
        itself. `at`: the host's (now, wall) times, so that when its clock was last
        charged is kept in Unix seconds (a takeover charges from then:
        Leasing.bring_back). StoreError (nothing kept) when the store refuses."""
        record = room_record(room)
        self.write(record, last, room.over, None if at is None else clock_charged(room, *at))
        return record

    def write(
        self, record: RoomRecord, last: RoomRecord | None, over: bool, charged: float | None
    ) -> None:
        """`keep` for a room already made a record (by the loop, for a writer's thread,
        which never touches a room): `over`, its game is over; `charged`, when its clock
        was last charged, in Unix seconds."""
        with self.store.transaction():
            if last is not None and moved_only(last, record):
                self.games.add_moves(
                    record.game_name, record.game.position.path, len(last.game.position.path)
                )
                if record.clock != last.clock:
                    self.clocks.keep(record.number, record.clock, charged)
                return
            game = self.rooms.keep(record)
            self.clocks.keep(record.number, record.clock, charged)
            if over:
                self.games.hold(game, _people(record))

    def archive(self, record: RoomRecord) -> None:
        """Keep the room's game among the games of each person in it (a game under way
        too: its later moves follow, as it is one game)."""
        keys = (record.seats[0].key, record.seats[1].key)
        with self.store.transaction():
            game = self.games.keep(record.game_name, record.game, room=record.number, keys=keys)
            self.games.hold(game, _people(record))

    def forget(self, record: RoomRecord) -> None:
        """The room has closed: its game is kept for its players, the room goes."""
        with self.store.transaction():
            if record.game.moves:
                self.archive(record)
            self.rooms.forget(record.number)

    def load(self, numbers: Collection[int] | None = None) -> list[tuple[Room, RoomRecord]]:
        """Every room kept (only `numbers`, unless None) and its record, lowest number
        first; one that cannot be a room is left out with one log line."""
        rooms = []
        clocks = self.clocks.load()
        ratings = RatingRecords(self.store)
        for record in self.rooms.load(numbers):
            record = replace(record, clock=clocks.get(record.number))
            try:
                room = room_of(record)
            except ValueError as error:
                log.warning("room %d cannot be played here (%s): left out", record.number, error)
                continue
            # As rated as it was: its terms are kept with its game (a server that takes a
            # rated room over from one that died rates its end, as that one would have).
            terms = ratings.terms(room.name)
            room.rated = terms is not None and terms.rated
            rooms.append((room, record))
        return rooms

    def kept_games(self, key: str) -> list[tuple[str, str]]:
        """The newest games of one identity, as (name, game file text)."""
        return [(kept.name, kept.record.to_text()) for kept in self.games.kept(key)]


def _people(record: RoomRecord) -> list[str]:
    """The identities of the people seated in the room (engines have none)."""
    return [seat.key for seat in record.seats if seat.key is not None]
