"""Clocks kept by the room service, with the time moved by the tests: the clock starts
when both seats are taken, every view shows it, a flag fall ends the game, a restart
does not charge the time the server was down, and correspondence games wait days."""

from __future__ import annotations

from c4tui.community.clocks import DAY
from tests.rooms.support import Time, login, next_of, room_where, running


async def timed_room(service, clock: str, moves: str = ""):
    """ann (●) and bob (○) in a room with the time control `clock`, `moves` played."""
    ann, bob = await login(service, "ann"), await login(service, "bob")
    await ann.send("create", clock=clock)
    made = await room_where(ann, lambda m: m["seat"] == 0)
    await bob.send("join", code=made["code"])
    await room_where(bob, lambda m: m["seat"] == 1)
    for ply, column in enumerate(moves):
        await (ann, bob)[ply % 2].send("drop", column=int(column) - 1, ply=ply)
        await room_where(ann, lambda m, n=ply + 1: len(m["moves"]) == n)
    return ann, bob, made


async def test_the_clock_starts_with_both_seats_taken_and_counts_each_sides_time(clocked):
    service, time = clocked
    ann = await login(service, "ann")
    await ann.send("create", clock="1+2")
    alone = await room_where(ann, lambda m: m["seat"] == 0)
    assert alone["clock"] == {"control": "1+2", "words": "1+2 bullet", "left": [60.0, 60.0],
                              "running": None}  # fmt: skip
    bob = await login(service, "bob")
    await bob.send("join", code=alone["code"])
    started = await room_where(ann, lambda m: m["clock"]["running"] == 0)
    assert started["clock"]["left"] == [60.0, 60.0]
    time.moved(10)
    await ann.send("drop", column=3, ply=0)
    moved = await room_where(bob, lambda m: m["moves"] == "4")
    assert moved["clock"]["left"] == [52.0, 60.0] and moved["clock"]["running"] == 1
    time.moved(5)
    await bob.send("drop", column=3, ply=1)
    again = await room_where(ann, lambda m: m["moves"] == "44")
    assert again["clock"]["left"] == [52.0, 57.0] and again["clock"]["running"] == 0
    await ann.send("lobby")  # the lobby lists the room with its time control
    listed = (await next_of(ann, "lobby"))["rooms"]
    assert listed[0]["clock"] == "1+2" and listed[0]["ended"] is None
    for client in (ann, bob):
        await client.close()


async def test_a_flag_fall_loses_on_time_and_is_kept_so(clocked):
    service, time = clocked
    ann, bob, _ = await timed_room(service, "1+0", "4453")
    cat = await login(service, "cat")
    await cat.send("watch", room=1)
    watched = await room_where(cat, lambda m: m["seat"] is None)
    assert watched["clock"]["running"] == 0  # spectators see the clocks too
    time.moved(61)
    service.host.look()
    said = await next_of(bob, "notice", lambda m: "time ran out" in m["text"])
    assert said["text"] == "ann's time ran out: ann lost on time."
    over = await room_where(cat, lambda m: m["over"])
    assert (over["ended"], over["winner"]) == ("time", 1)
    assert over["clock"]["left"][0] == 0.0 and over["clock"]["running"] is None
    await bob.send("games")
    kept = (await next_of(bob, "games"))["games"][0]["text"]
    assert "Result: 0-1" in kept and "Ended: time" in kept
    await cat.send("lobby")
    listed = (await next_of(cat, "lobby"))["rooms"]
    assert listed[0]["ended"] == "0-1 time"
    for client in (ann, bob, cat):
        await client.close()


async def test_a_move_made_after_the_flag_fell_is_too_late(clocked):
    service, time = clocked
    ann, bob, _ = await timed_room(service, "1+0", "44")
    time.moved(60.5)  # before the next look: the move itself finds the flag down
    await ann.send("drop", column=2, ply=2)
    assert (await next_of(ann, "refused"))["reason"] == "The game is over."
    over = await room_where(bob, lambda m: m["over"])
    assert over["ended"] == "time" and over["moves"] == "44"
    for client in (ann, bob):
        await client.close()


async def test_a_side_that_never_moved_forfeits_when_its_time_runs_out(clocked):
    service, time = clocked
    ann, bob, _ = await timed_room(service, "1+0", "4")
    time.moved(61)
    service.host.look()
    over = await room_where(ann, lambda m: m["over"])
    assert (over["ended"], over["winner"]) == ("forfeit", 0)
    for client in (ann, bob):
        await client.close()


async def test_a_bad_time_control_is_refused_with_what_was_typed(service):
    ann = await login(service, "ann")
    await ann.send("create", clock="5 minutes")
    refused = await next_of(ann, "refused")
    assert refused["reason"] == "A time control is like 5+3 or 3d, not '5 minutes'."
    await ann.close()


async def test_a_timed_games_seat_is_held_for_its_grace_then_claimable(clocked):
    service, time = clocked
    ann, bob, _ = await timed_room(service, "1+0", "45")
    await ann.send("leave")
    held = await room_where(bob, lambda m: m["seats"][0]["held"] is not None)
    assert held["seats"][0]["held"] == 15.0  # 1+0: a tenth of 80 s is under the least, 15 s
    time.moved(14)
    service.host.look()
    await bob.send("claim", win=True)
    assert "nothing to claim" in (await next_of(bob, "refused"))["reason"]
    time.moved(1)
    service.host.look()
    await room_where(bob, lambda m: m["claim"] == 1)
    await bob.send("claim", win=True)
    over = await room_where(bob, lambda m: m["over"])
    assert (over["ended"], over["winner"]) == ("abandoned", 1)
    for client in (ann, bob):
        await client.close()


async def test_a_restart_does_not_charge_the_time_the_server_was_down(tmp_path):
    time = Time()
    async with running(tmp_path / "state", time) as service:
        ann, bob, _ = await timed_room(service, "3+0", "44")
        time.moved(20)  # ann thinks 20 s; then the server stops
        for client in (ann, bob):
            await client.close()
    time.moved(3600)  # an hour down
    async with running(tmp_path / "state", time) as service:
        time.moved(10)  # and ann takes 10 s to come back (within 3+0's grace of 18 s)
        ann = await login(service, "ann")
        back = await room_where(ann, lambda m: m["seat"] == 0)
        assert back["moves"] == "44" and back["clock"]["running"] == 0
        assert back["clock"]["left"] == [160.0, 180.0]  # the 20 s thought; not the hour, nor
        # the 10 s she took to come back after the restart
        time.moved(5)
        await ann.send("drop", column=0, ply=2)
        moved = await room_where(ann, lambda m: m["moves"] == "441")
        assert moved["clock"]["left"] == [155.0, 180.0]
        await ann.close()


async def test_after_a_restart_the_time_to_come_back_is_free_up_to_the_grace(tmp_path):
    time = Time()
    async with running(tmp_path / "state", time) as service:
        ann, bob, _ = await timed_room(service, "3+0", "44")
        time.moved(20)
        for client in (ann, bob):
            await client.close()
    async with running(tmp_path / "state", time) as service:
        time.moved(30)  # nobody back for 30 s: 3+0's grace is 18 s, then ann's time runs
        bob = await login(service, "bob")
        back = await room_where(bob, lambda m: m["seat"] == 1)
        assert back["clock"]["left"] == [160.0 - 12.0, 180.0]
        await bob.close()


async def test_a_correspondence_game_over_two_logins_with_a_day_between(tmp_path):
    time = Time()
    async with running(tmp_path / "state", time) as service:
        ann, bob, made = await timed_room(service, "3d", "4")
        assert made["clock"]["words"] == "3 days a move"
        for client in (ann, bob):  # both log out; their seats are not held: theirs to keep
            await client.close()
        time.moved(DAY)
        service.host.look()
        # A day later bob logs in: the lobby comes first, his move waiting in it.
        bob = await login(service, "bob")
        lobby = await next_of(bob, "lobby")
        assert lobby["your_move"] == [made["room"]] and lobby["bell"]
        await bob.send("watch", room=made["room"])  # into his own seat
        back = await room_where(bob, lambda m: m["seat"] == 1)
        assert back["moves"] == "4" and not back["over"] and back["seats"][1]["held"] is None
        assert back["clock"]["left"] == [3 * DAY, 2 * DAY]
        ann = await login(service, "ann")  # ann is in the lobby when bob moves: a bell
        assert (await next_of(ann, "lobby"))["your_move"] == []
        await bob.send("drop", column=3, ply=1)
        told = await next_of(ann, "your_move")
        assert told == {"kind": "your_move", "room": made["room"], "against": "bob", "bell": True}
        assert (await next_of(ann, "lobby", lambda m: m["your_move"]))["your_move"] == [1]
        await ann.send("bell", on=False)  # the toggle, kept for her
        assert not (await next_of(ann, "lobby", lambda m: not m["bell"]))["bell"]
        for client in (ann, bob):
            await client.close()
        time.moved(DAY)
        ann = await login(service, "ann")
        lobby = await next_of(ann, "lobby")
        assert lobby["your_move"] == [made["room"]] and not lobby["bell"]
        await ann.send("watch", room=made["room"])
        back = await room_where(ann, lambda m: m["seat"] == 0)
        assert back["moves"] == "44" and back["clock"]["left"] == [2 * DAY, 3 * DAY]
        await ann.close()
        time.moved(2 * DAY)  # ann never comes back: three days gone, she loses on time
        service.host.look()
        bob = await login(service, "bob")
        await bob.send("games")
        kept = (await next_of(bob, "games"))["games"][0]["text"]
        assert "Result: 0-1" in kept and "Ended: time" in kept
        await bob.close()


async def test_many_correspondence_games_at_once_beside_the_rooms_limit(service):
    ann, bob = await login(service, "ann"), await login(service, "bob")
    for _ in range(4):  # more than the 3 rooms per player of games played at one sitting
        await ann.send("create", clock="2d")
        made = await room_where(ann, lambda m: m["seat"] == 0 and m["seats"][1]["open"])
        await bob.send("join", code=made["code"])
        await room_where(bob, lambda m, n=made["room"]: m["seat"] == 1 and m["room"] == n)
        for client in (ann, bob):  # off to the lobby: the seats stay theirs
            await client.send("leave")
            await next_of(client, "lobby")
    await ann.send("lobby")
    lobby = await next_of(ann, "lobby")
    assert len(lobby["rooms"]) == 4 and sorted(lobby["your_move"]) == [1, 2, 3, 4]
    assert {room["clock"] for room in lobby["rooms"]} == {"2d"}
    await ann.send("create")  # and a game at one sitting besides
    await room_where(ann, lambda m: m["seat"] == 0 and m["clock"] is None)
    for client in (ann, bob):
        await client.close()


async def test_a_server_full_of_rooms_still_takes_a_correspondence_game(tmp_path):
    async with running(tmp_path / "state", rooms=1) as service:
        ann, bob = await login(service, "ann"), await login(service, "bob")
        await ann.send("create")
        await room_where(ann, lambda m: m["seat"] == 0)
        await bob.send("create")  # the server's one room is taken
        assert "has its 1 rooms" in (await next_of(bob, "refused"))["reason"]
        await bob.send("create", clock="3d")
        made = await room_where(bob, lambda m: m["seat"] == 0)
        assert made["clock"]["control"] == "3d"
        for client in (ann, bob):
            await client.close()
