"""The host's look at its rooms, once a TICK and before every move: the clocks and the seats.

A flag that fell ends the game on time (or as a forfeit, before the first move); a
person gone past the room's grace lets the other claim the win or a draw, or loses by
abandonment; a seat held too long opens again. A running clock is kept every
CLOCK_KEEP seconds, so that a kill gives back at most that much; a change the store
refused is kept again, and an AI move it refused is searched again.

While a room cannot be kept (its change was refused, or the database is away) its clock
stops: no time is charged and no flag falls until the room is kept again, since a
player could not have moved meanwhile; its view shows the clock stopped.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from c4tui.community.clocks import CLOCK_KEEP
from c4tui.server.rooms.face import Host
from c4tui.server.rooms.room import Room

log = logging.getLogger("c4tui.server")


def look(host: Host) -> None:
    """Look at the rooms due a look: each room shown since the last look (every change
    is shown), and those whose flag, held seat or clock keep falls due by now
    (`next_look`); every room while the database is away (their clocks are to stop).
    A bug in one room is logged, and the others are still seen to."""
    now = host.now()
    numbers = list(host.rooms) if host.store.away is not None else host.looks.due(now)
    for number in numbers:
        room = host.rooms.get(number)
        if room is None:
            continue
        try:
            look_at(host, room, now)
        except Exception:
            log.exception("room %d: its seats could not be seen to", room.number)
        if number in host.rooms:
            when = next_look(room, now)
            if when is not None:
                host.looks.at(number, when)


def next_look(room: Room, now: float) -> float | None:
    """When the room is next due a look if nothing changes in it: a held seat's end, the
    running side's flag, the running clock's keep; the next look, while a change of it
    is not kept. None: nothing will fall due."""
    whens = [seat.held_until for seat in room.seats if seat.held_until is not None]
    clock = room.clock
    if clock is not None and clock.running is not None:
        whens += [clock.since + clock.left[clock.running], clock.since + CLOCK_KEEP]
    if room.trouble is not None:
        whens.append(now)
    return min(whens, default=None)


def look_at(host: Host, room: Room, now: float) -> None:
    """End the room's game if a flag fell or a player is gone past the grace; free the
    seats held too long; keep a running clock; keep again a change the store refused."""
    stop_clock_while_unkept(host, room, now)
    side = room.time_out(now)
    if side is not None:
        name = room.seats[side].title()
        how = "forfeits: no move made" if room.ended == "forfeit" else "lost on time"
        log.info("room %d: %s %s", room.number, name, how)
        host.tell(room, f"{name}'s time ran out: {name} {how}.")
        host.changed(room)
        if room.number not in host.rooms:
            return
    here = {c.key for c in host.members(room)}
    if room.over:  # a correspondence game's seats are not held while it goes on
        for index, seat in enumerate(room.seats):
            if seat.key is not None and seat.key not in here and seat.held_until is None:
                room.hold(index, now + host.limits.seat_hold)
    claimant = room.claimant
    ending, freed = room.holds_run_out(now, here)
    if room.claimant is not None and claimant is None:
        gone = room.seats[1 - room.claimant].name
        log.info("room %d: %s is gone past the grace: a claim is open", room.number, gone)
        host.tell(room, f"{gone} has not come back: you may claim the win or a draw.")
        host.show(room)
    if ending is not None:
        how, winner = ending
        name = room.seats[1 - winner].name
        log.info("room %d: %s did not come back: %s", room.number, name, how)
        room.end_by(how, winner)
        words = "forfeits (no move made)" if how == "forfeit" else "abandoned the game"
        host.tell(room, f"{name} did not come back: {name} {words}.")
    for index in freed:
        seat = room.seats[index]
        log.info("room %d: %s's seat is free again", room.number, seat.name)
        if ending is None:
            host.tell(room, f"{seat.name} did not come back: the seat is open.")
        host.vacate(room, index)
    if freed:
        host.changed(room)
        if room.number not in host.rooms:
            return
    clock = room.clock
    running = clock is not None and clock.running is not None and room.trouble is None
    if clock is not None and running and now - clock.since >= CLOCK_KEEP:
        clock.charge(now)  # kept up to date, so a kill gives back at most CLOCK_KEEP
        host.keep(room, show=False)
    if room.trouble is not None and room.number in host.rooms and not host.writing(room.number):
        # Tried again; once kept it is shown (its clock runs again from then) and an AI
        # move the store refused is searched again.
        host.keep(room)


def stop_clock_while_unkept(host: Host, room: Room, now: float) -> None:
    """A running clock stands still while its room cannot be kept: from the refused
    change, or (the database found away before any change was refused) from `now`."""
    clock = room.clock
    if clock is None or clock.running is None:
        return
    if room.trouble is None:
        away = host.store_away
        if away is None:
            return
        clock.charge(now)  # the time until now was played: it counts
        last = host.kept.get(room.number)
        if last is not None:  # and a change refused from now on goes back to it
            host.kept[room.number] = replace(last, clock=clock.kept())
        room.trouble = (
            "The server cannot keep this game now (its database is away): "
            "the clocks are stopped, and the game goes on when it is back."
        )
        log.warning("room %d: its clock stopped: the database is away", room.number)
        host.show(room)
    clock.resume(now)  # no time runs while the room cannot be kept
