"""What people see of a room: the whole room as one client sees it, and its line in the lobby.

The wire's messages, made directly (the server's own output is not checked again, only
what comes in is): showing.py makes a `RoomShown` with `room_shown` once per kind of
audience, and the lobby (lobby.py, and other_servers.py for the rooms other
servers hold) lists each room by its `room_listed`.
"""

from __future__ import annotations

from c4tui.community.endings import ending_short
from c4tui.server.rooms.access import show_code
from c4tui.server.rooms.room import Room, Seat
from c4tui.server.wire.lobby_messages import PlayerListed, RoomListed
from c4tui.server.wire.protocol import ClockShown, RoomShown, SeatShown


def room_shown(
    room: Room,
    key: str | None,
    now: float,
    online: set[str],
    watchers: tuple[str, ...],
    tournament: bool = False,
) -> RoomShown:
    """The whole room as the client with identity `key` sees it (None: a spectator),
    made as the wire message directly: the server's own output is not checked again."""
    pos = room.position
    mine = None if key is None else room.seat_of(key)
    seats = []
    for seat in room.seats:
        held = None if seat.held_until is None else max(0.0, seat.held_until - now)
        seats.append(
            SeatShown(
                name=seat.name if seat.open else seat.title(),  # "": nobody yet
                ai=seat.ai,
                open=seat.open,
                here=seat.ai is not None or (seat.key in online),
                held=held,
            )
        )
    seat_code = room.seats[mine].code if mine is not None else None
    return RoomShown(
        room=room.number,
        # A private room's code is for its players to pass on, not for its watchers.
        code=show_code(room.code) if mine is not None or room.public else None,
        public=room.public,
        seat=mine,  # type: ignore[arg-type]  # a seat's index: 0 or 1
        seat_code=seat_code and show_code(seat_code),
        seats=tuple(seats),
        width=pos.width,
        height=pos.height,
        connect=pos.connect,
        moves=pos.to_moves(),
        over=room.over,
        ended=room.ended,
        winner=_winner(room),  # type: ignore[arg-type]  # a seat's index, or None
        offers=dict(room.offers),  # type: ignore[arg-type]  # offers by kind, each a seat
        rematch=tuple(sorted(room.rematch)),  # type: ignore[arg-type]  # seats
        thinking=room.thinking,
        paused=room.paused,
        thinking_spec=room.thinking_spec,
        search=room.search_id,
        info=room.thinking_info,
        trouble=room.trouble,
        watchers=watchers,
        clock=_clock_shown(room, now),
        claim=room.claimant,  # type: ignore[arg-type]  # a seat's index, or None
        rated=room.rated,
        date=room.date,
        tournament=tournament,
    )


def _clock_shown(room: Room, now: float) -> ClockShown | None:
    """Each side's time left at `now` and whose runs; clients count down from there.
    While the room cannot be kept its clock stands still (seat_watch.py): none runs."""
    if room.clock is None or room.control is None:
        return None
    if room.trouble is not None:
        return ClockShown(
            control=room.control.text,
            words=room.control.words,
            left=(room.clock.left[0], room.clock.left[1]),
            running=None,
        )
    return ClockShown(
        control=room.control.text,
        words=room.control.words,
        left=tuple(room.clock.remaining(side, now) for side in (0, 1)),
        running=room.clock.running,  # type: ignore[arg-type]  # a seat's index, or None
    )


def _winner(room: Room) -> int | None:
    if room.ended is not None:
        return room.winner
    return room.position.winner()


def _listed(seat: Seat) -> PlayerListed | None:
    """A seat as the lobby lists it: a bot marked as one; None: open, nobody yet."""
    if seat.open and not seat.name:
        return None
    return PlayerListed(seat.title() if seat.bot else seat.name, seat.ai)


def room_listed(room: Room, watchers: int) -> RoomListed:
    """The room as the lobby lists it (the code only when it is public), made as the
    wire message's row directly: the server's own output is not checked again."""
    return RoomListed(
        room=room.number,
        code=show_code(room.code) if room.public else None,
        players=(_listed(room.seats[0]), _listed(room.seats[1])),
        over=room.over,
        open=any(seat.open for seat in room.seats),
        watchers=watchers,
        clock=None if room.control is None else room.control.text,
        ended=ending_short(room.position, room.ending),
    )
