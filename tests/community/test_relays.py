"""Relays between servers on one PostgreSQL (server/rooms/relay.py, relay_standins.py): a
player connected to one server in a room another holds, as any player of that room."""

from __future__ import annotations

import asyncio

import pytest

from tests.community.two_servers import a_game, killed, play, two_servers
from tests.rooms.support import Time, login, next_of, room_where


async def test_a_player_is_taken_to_their_seat_on_another_server_and_sees_the_ai_think(
    postgres, tmp_path
):
    async with two_servers(tmp_path, postgres.fresh_url()) as (first, second):
        bob = await login(first, "bob")
        await bob.send("create", ai="mcts:iterations=400")
        number = (await room_where(bob, lambda m: m["seat"] == 0))["room"]
        await bob.send("drop", column=3, ply=0)
        await room_where(bob, lambda m: len(m["moves"]) == 2)
        await bob.close()  # his seat held on the first server
        bob = await login(second, "bob")  # he logs in to the other one
        back = await room_where(bob, lambda m: m["seat"] == 0)
        assert back["room"] == number and back["seats"][0]["here"]
        carol = await login(second, "carol")
        await carol.send("watch", room=number)
        await room_where(carol, lambda m: m["seat"] is None)
        await bob.send("drop", column=3, ply=2)
        for client in (bob, carol):  # the AI's thinking, through the bus
            progress = await next_of(client, "progress")
            assert progress["room"] == number and progress["info"]["engine"] == "mcts"
            await room_where(client, lambda m: len(m["moves"]) == 4 and not m["thinking"])
        await bob.close()
        await carol.close()


async def test_a_summons_takes_a_player_to_a_room_of_another_server(postgres, tmp_path):
    async with two_servers(tmp_path, postgres.fresh_url()) as (first, second):
        ann, bob, shown = await a_game(first, first)
        dave = await login(second, "dave")
        await next_of(dave, "lobby")
        second.host.summon("ssh-name:dave", shown["room"])  # (a tournament's board, say)
        summoned = await room_where(dave, lambda m: m["room"] == shown["room"])
        assert summoned["seat"] is None  # no seat of his: he watches
        await play("43", (ann, bob), ann, bob, dave)
        for client in (ann, bob, dave):
            await client.close()


async def test_a_third_server_that_takes_the_room_gets_its_relayed_players(postgres, tmp_path):
    wall = Time(2_000_000_000.0)
    names = ("first", "second", "third")
    async with two_servers(tmp_path, postgres.fresh_url(), wall, names) as services:
        first, second, third = services
        ann, bob, shown = await a_game(first, second)
        await play("44", (ann, bob), ann, bob)
        await killed(first)  # the first dies
        wall.moved(first.host.limits.lease_seconds + 1)
        # The second lives through the lease the wall jumped over: it beats (as it does
        # every third of a lease), or the third, beating after its takeover, finds it
        # silent since before the jump and drops bob's stand-in.
        await second.host.leasing.beat()
        await third.host.leasing.see_to()  # the third takes the room, before the second looks
        assert list(third.host.rooms) == [shown["room"]]
        moved = await room_where(bob, lambda m: m["seat"] == 1 and m["seats"][1]["here"])
        assert moved["moves"] == "44"
        assert second.host.rooms == {}  # bob plays on through his server, relayed to the third
        ann = await login(third, "ann")
        await room_where(ann, lambda m: m["seat"] == 0)
        await play("45", (ann, bob), ann, bob, start=2)
        await ann.close()
        await bob.close()


async def test_a_server_that_stops_cleanly_hands_its_room_over_at_once(postgres, tmp_path):
    wall = Time(2_000_000_000.0)  # never moved: nothing waits for a lease to run out
    async with two_servers(tmp_path, postgres.fresh_url(), wall) as (first, second):
        ann, bob, _ = await a_game(first, second)
        await play("4", (ann, bob), ann, bob)
        await first.close()
        # The room the second server holds now, and bob in it: a room message of that
        # state may come from the first before it closed (seen in a fresh clone's run),
        # so the second's rooms are what is waited for, then bob's next view of it.
        for _ in range(6000):  # a room never handed over fails after a minute, not never
            if second.host.rooms:
                break
            await asyncio.sleep(0.01)
        else:
            pytest.fail("the second server did not take the room over within a minute")
        here = await room_where(bob, lambda m: m["seats"][1]["here"] and m["moves"] == "4")
        assert list(second.host.rooms) == [here["room"]]
        await bob.send("drop", column=3, ply=1)
        await room_where(bob, lambda m: m["moves"] == "44")
        await bob.close()


async def test_who_came_while_no_server_held_the_room_sits_or_watches_when_one_takes_it(
    postgres, tmp_path
):
    wall = Time(2_000_000_000.0)
    names = ("first", "second", "third")
    async with two_servers(tmp_path, postgres.fresh_url(), wall, names) as services:
        first, second, third = services
        ann, bob, shown = await a_game(first, first)
        carol = await login(first, "carol")
        await carol.send("watch", room=shown["room"])
        await play("44", (ann, bob), ann, bob, carol)
        await killed(first)  # the first dies
        wall.moved(first.host.limits.lease_seconds + 1)  # its lease ran out; nobody looked
        bob, carol = await login(third, "bob"), await login(third, "carol")
        for client in (bob, carol):
            await next_of(client, "lobby")
        await second.host.leasing.see_to()  # the second takes the room: bob, on the third, sits
        back = await room_where(bob, lambda m: m["seat"] == 1)
        assert back["moves"] == "44" and back["room"] == shown["room"]
        watching = await room_where(carol, lambda m: m["moves"] == "44")  # and she watches
        assert watching["seat"] is None and watching["room"] == shown["room"]
        await bob.close()
        await carol.close()


async def test_a_relayed_player_is_on_the_rooms_clock_and_loses_on_time_as_anyone(
    postgres, tmp_path
):
    now = Time()  # the clocks' time of both servers, moved by hand
    async with two_servers(tmp_path, postgres.fresh_url(), now=now) as (first, second):
        ann, bob = await login(first, "ann"), await login(second, "bob")
        await ann.send("create", clock="1+2")
        shown = await room_where(ann, lambda m: m["seat"] == 0)
        await bob.send("join", code=shown["code"])
        started = await room_where(bob, lambda m: m["clock"]["running"] == 0)
        assert started["clock"]["left"] == [60.0, 60.0]
        now.moved(10)
        await ann.send("drop", column=3, ply=0)
        moved = await room_where(bob, lambda m: m["moves"] == "4")
        assert moved["clock"]["left"] == [52.0, 60.0] and moved["clock"]["running"] == 1
        now.moved(5)
        await bob.send("drop", column=3, ply=1)  # his time, counted by the room's server
        again = await room_where(ann, lambda m: m["moves"] == "44")
        assert again["clock"]["left"] == [52.0, 57.0] and again["clock"]["running"] == 0
        await play("3", (ann, bob), ann, bob, start=2)
        now.moved(61)  # bob, on the other server, lets his time run out
        first.host.look()
        said = await next_of(bob, "notice", lambda m: "time ran out" in m["text"])
        assert said["text"] == "bob's time ran out: bob lost on time."
        over = await room_where(bob, lambda m: m["over"])
        assert (over["ended"], over["winner"]) == ("time", 0)
        await ann.close()
        await bob.close()


async def test_a_relay_its_server_never_answers_goes_back_to_the_lobby(postgres, tmp_path):
    wall = Time(2_000_000_000.0)
    async with two_servers(tmp_path, postgres.fresh_url(), wall) as (first, second):
        ann, bob = await login(first, "ann"), await login(second, "bob")
        await ann.send("create")
        shown = await room_where(ann, lambda m: m["seat"] == 0)
        first.host.bus._handlers["relay.open"] = []  # the word is lost on the way
        await bob.send("join", code=shown["code"])
        await next_of(bob, "lobby")  # (his lobby, from logging in)
        second.host.elsewhere.tick()
        assert second.host.elsewhere.by_id  # waiting, for a lease
        wall.moved(second.host.limits.lease_seconds + 1)
        second.host.elsewhere.tick()
        said = await next_of(bob, "notice")
        assert said["text"] == "The room's server did not answer: try again."
        await next_of(bob, "lobby")
        assert not second.host.elsewhere.by_id
        await ann.close()
        await bob.close()


async def test_a_relay_to_a_server_not_yet_seen_beating_works_once_it_answers(postgres, tmp_path):
    names = ("first", "second", "third")
    async with two_servers(tmp_path, postgres.fresh_url(), names=names) as services:
        first, second, third = services
        # The second has not seen the first beat yet (it started since its last look).
        second.host.leasing._servers = sorted([second.host.server, third.host.server])
        ann, bob, _ = await a_game(first, second)
        await play("43", (ann, bob), ann, bob)  # bob's move is not refused as moving
        await ann.close()
        await bob.close()


async def test_a_relayed_player_is_told_at_once_the_game_moves_and_its_clocks_stand_still(
    postgres, tmp_path
):
    """The room's server is killed: the relayed player is told the game is moving as soon
    as that server misses its heartbeats (before its leases run out), shown the clocks
    stopped where they stand then, and the server that takes the room over runs them on
    from there, with no jump (not from the dead server's last heartbeat, 8.5 s before)."""
    wall, now = Time(2_000_000_000.0), Time()
    async with two_servers(tmp_path, postgres.fresh_url(), wall, now=now) as (first, second):
        lease = first.host.limits.lease_seconds
        ann, bob = await login(first, "ann"), await login(second, "bob")
        await ann.send("create", clock="5+0")
        shown = await room_where(ann, lambda m: m["seat"] == 0)
        await bob.send("join", code=shown["code"])
        await room_where(bob, lambda m: m["clock"]["running"] == 0)
        await ann.send("drop", column=3, ply=0)
        moved = await room_where(bob, lambda m: m["moves"] == "4")
        assert moved["clock"]["left"] == [300.0, 300.0] and moved["clock"]["running"] == 1
        for time in (wall, now):
            time.moved(3)  # bob thinks for 3 s: the first server still beats
        await first.host.leasing.see_to()
        await killed(first)
        for time in (wall, now):
            time.moved(lease / 2 + 1)  # two heartbeats missed; its leases still run
        await second.host.leasing.see_to()
        said = await next_of(bob, "notice")
        assert "moving to another server" in said["text"]
        paused = await next_of(bob, "room")
        assert paused["clock"]["running"] is None and paused["clock"]["left"] == [300.0, 288.5]
        assert second.host.rooms == {}  # not taken yet
        for time in (wall, now):
            time.moved(lease)  # its leases ran out: the second takes the room
        await second.host.leasing.see_to()
        back = await room_where(bob, lambda m: m["clock"]["running"] == 1)
        assert back["moves"] == "4" and back["clock"]["left"] == [300.0, 288.5]
        await bob.send("drop", column=3, ply=1)
        await room_where(bob, lambda m: m["moves"] == "44")
        await ann.close()
        await bob.close()


async def test_a_room_server_that_beats_again_after_a_silence_plays_on(postgres, tmp_path):
    wall = Time(2_000_000_000.0)
    async with two_servers(tmp_path, postgres.fresh_url(), wall) as (first, second):
        ann, bob, _ = await a_game(first, second)
        await play("4", (ann, bob), ann, bob)
        first.host._tick.cancel()  # the first stalls: it beats no more, for a while
        wall.moved(first.host.limits.lease_seconds / 2 + 1)
        await second.host.leasing.see_to()
        said = await next_of(bob, "notice")
        assert "moving to another server" in said["text"]
        await first.host.leasing.see_to()  # it beats again (slow, not dead)
        await second.host.leasing.see_to()
        await room_where(bob, lambda m: m["moves"] == "4" and m["seats"][1]["here"])
        await play("4", (bob, ann), ann, bob, start=1)
        assert list(first.host.rooms) and second.host.rooms == {}
        await ann.close()
        await bob.close()


async def test_a_relayed_room_is_forwarded_as_its_server_wrote_it_not_read_again(
    postgres, tmp_path, monkeypatch
):
    """The relaying server writes the lines the room's server made to its client as they
    came: a view is read by the client alone (before, each hop read and wrote it again)."""
    from c4tui.server.rooms import audience, relay

    read = []
    for module in (relay, audience):
        real = getattr(module, "parse_service_line", None)
        if real is None:
            continue

        def counted(line, _real=real):
            read.append(line[:30])
            return _real(line)

        monkeypatch.setattr(module, "parse_service_line", counted)
    async with two_servers(tmp_path, postgres.fresh_url()) as (first, second):
        ann, bob, _ = await a_game(first, second)  # bob is relayed to the first
        await play("4455", (ann, bob), ann, bob)
        assert read == []
        await ann.close()
        await bob.close()


async def test_a_clock_shown_stopped_is_forgotten_once_no_server_took_its_room(postgres, tmp_path):
    wall = Time(2_000_000_000.0)
    async with two_servers(tmp_path, postgres.fresh_url(), wall) as (_, second):
        relays = second.host.elsewhere
        relays._heard_stopped({"room": 7, "side": 1, "left": 12.0}, "elsewhere")
        relays.tick()
        assert relays._stopped  # within two leases: kept for the server that takes room 7
        wall.moved(2 * second.host.limits.lease_seconds + 1)
        relays.tick()
        assert not relays._stopped and relays.stopped_at(7) is None


async def test_a_word_from_another_server_while_this_one_stops_is_not_handled(
    postgres, tmp_path, caplog
):
    # A relayed player leaving as the room's server stops: the word came while its
    # changes were being written for the last time, and it raised (nothing could write).
    async with two_servers(tmp_path, postgres.fresh_url()) as (first, second):
        ann, bob, _ = await a_game(first, second)  # bob's stand-in is on the first
        await play("4", (ann, bob), ann, bob)
        ((_, relay_id),) = first.stand_ins.clients
        closing = asyncio.create_task(first.close())
        while first.host.line.writers is not None:  # its last changes being written
            await asyncio.sleep(0)
        first.host.bus.deliver("relay.close", {"id": relay_id}, second.host.server)
        await closing
        assert "could not be handled" not in caplog.text
        for client in (ann, bob):
            await client.close()
