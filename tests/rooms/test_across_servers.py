"""The lobby, who is online, automatch and challenges across two servers on one
PostgreSQL database (server/rooms/other_servers.py, server/desks/matchmaking.py)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import pytest

from c4tui.server.service.service import RoomService
from tests.community.two_servers import two_servers as servers_on_one_database
from tests.rooms.support import Time, login, next_of, room_where


@contextlib.asynccontextmanager
async def two_servers(postgres, tmp_path) -> AsyncIterator[tuple[RoomService, RoomService, Time]]:
    """Two started room services on one fresh database, on one Unix clock moved by hand."""
    wall = Time(2_000_000_000.0)
    async with servers_on_one_database(tmp_path, postgres.fresh_url(), wall) as (first, second):
        yield first, second, wall


def online(*names: str):
    return lambda m: all(name in m["online"] for name in names)


async def test_each_server_s_lobby_lists_the_other_s_people_and_rooms_until_it_dies(
    postgres, tmp_path
):
    async with two_servers(postgres, tmp_path) as (first, second, wall):
        ann, bob = await login(first, "ann"), await login(second, "bob")
        await next_of(ann, "lobby", online("ann", "bob"))
        await next_of(bob, "lobby", online("ann", "bob"))
        await ann.send("create")
        number = (await room_where(ann, lambda m: m["seat"] == 0))["room"]
        listed = await next_of(bob, "lobby", lambda m: m["rooms"])
        (room,) = listed["rooms"]
        assert room["room"] == number and room["players"][0]["name"] == "ann"
        cy = await login(second, "cy")  # a watcher through the second server
        await cy.send("watch", room=number)
        await room_where(cy, lambda m: m["room"] == number)
        watched = await next_of(bob, "lobby", lambda m: m["rooms"][0]["watchers"] == 1)
        assert watched["rooms"][0]["room"] == number
        await cy.close()
        await next_of(bob, "lobby", lambda m: m["rooms"][0]["watchers"] == 0)
        ann2 = await login(second, "ann")  # ann on both servers: one player online
        # (Who is online does not change, so no lobby is sent by itself: bob asks.)
        await bob.send("lobby")
        lobby = await next_of(bob, "lobby", lambda m: m["online"] == ["ann", "bob"])
        await ann2.close()
        await bob.send("profile", name="ANN")
        profile = await next_of(bob, "profile")
        assert profile["name"] == "ann" and profile["online"]
        # The first server dies: it stops beating, and its people leave the other's lobby.
        first.host._tick.cancel()
        wall.moved(second.host.limits.lease_seconds + 1)
        await second.host.leasing.see_to()
        lobby = await next_of(bob, "lobby", lambda m: m["online"] == ["bob"])
        assert lobby["rooms"][0]["room"] == number  # its room is the second's now
        assert number in second.host.rooms
        for client in (ann, bob):
            await client.close()


async def test_a_seeker_on_each_server_meet_in_one_room_and_both_lobbies_see_the_ratings(
    postgres, tmp_path
):
    async with two_servers(postgres, tmp_path) as (first, second, _):
        ann, bob = await login(first, "ann"), await login(second, "bob")
        await ann.send("seek", control="3+2")
        await next_of(ann, "seeking", lambda m: m["control"] == "3+2")
        await bob.send("seek", control="3+2")  # the second server pairs them at once
        room = await room_where(bob, lambda m: m["seat"] is not None)
        assert room["rated"] and {s["name"] for s in room["seats"]} == {"ann", "bob"}
        # Her own server tells ann; she plays in the second server's room through it.
        await next_of(ann, "seeking", lambda m: m["control"] is None)
        mine = await room_where(ann, lambda m: m["room"] == room["room"] and m["seat"] is not None)
        first_to_move = (ann, bob)[mine["seat"]]
        await first_to_move.send("drop", column=3, ply=0)
        for client in (ann, bob):
            await room_where(client, lambda m: m["moves"] == "4")
        assert list(second.host.rooms) == [room["room"]] and first.host.rooms == {}
        assert first.host.store.value("SELECT COUNT(*) FROM seeks") == 0
        # The game ends rated: the new leaderboard reaches the first server's lobby too.
        cy = await login(first, "cy")
        await next_of(cy, "lobby")
        await (bob, ann)[mine["seat"]].send("resign")
        board = await next_of(cy, "leaderboard")
        blitz = next(c for c in board["classes"] if c["name"] == "blitz")
        assert sorted(p["name"] for p in blitz["players"]) == ["ann", "bob"]
        for client in (ann, bob, cy):
            await client.close()


async def test_a_challenge_to_a_player_on_the_other_server_opens_a_room_for_both(
    postgres, tmp_path
):
    async with two_servers(postgres, tmp_path) as (first, second, _):
        ann, bob = await login(first, "ann"), await login(second, "bob")
        await next_of(ann, "lobby", online("bob"))
        await ann.send("challenge", name="Bob", control="5+3", rated=False)
        told = await next_of(bob, "notice", lambda m: "challenges you" in m["text"])
        assert told["text"] == "ann challenges you: 5+3, casual."
        offered = (await next_of(bob, "challenges", lambda m: m["to_me"]))["to_me"][0]
        assert (offered["name"], offered["control"]) == ("ann", "5+3")
        await bob.send("answer_challenge", challenge=offered["id"], accept=True)
        room = await room_where(bob, lambda m: m["seat"] is not None)
        assert not room["rated"] and {s["name"] for s in room["seats"]} == {"ann", "bob"}
        await next_of(ann, "challenges", lambda m: not m["mine"])  # answered: gone for ann
        await room_where(ann, lambda m: m["room"] == room["room"] and m["seat"] is not None)
        assert first.host.store.value("SELECT COUNT(*) FROM challenges") == 0
        # Answered once: the same answer again, on either server, finds nothing open.
        await bob.send("answer_challenge", challenge=offered["id"], accept=True)
        assert "no longer open" in (await next_of(bob, "refused"))["reason"]
        for client in (ann, bob):
            await client.close()


@pytest.mark.parametrize("how", ["declines", "leaves"])
async def test_a_challenge_across_servers_declined_or_left_is_off_for_both(postgres, tmp_path, how):
    async with two_servers(postgres, tmp_path) as (first, second, _):
        ann, bob = await login(first, "ann"), await login(second, "bob")
        await next_of(ann, "lobby", online("bob"))
        await ann.send("challenge", name="bob", control="5+3", rated=True)
        offered = (await next_of(bob, "challenges", lambda m: m["to_me"]))["to_me"][0]
        if how == "declines":
            await bob.send("answer_challenge", challenge=offered["id"], accept=False)
            words = "bob declines your challenge."
        else:
            await bob.close()
            words = "bob left: the challenge is off."
        await next_of(ann, "notice", lambda m: m["text"] == words)
        await next_of(ann, "challenges", lambda m: not m["mine"])
        await ann.close()
        if how == "declines":
            await bob.close()


async def test_games_on_the_other_server_count_in_the_lobby_a_profile_and_a_seek(
    postgres, tmp_path
):
    async with two_servers(postgres, tmp_path) as (first, second, _):
        ann, bob = await login(first, "ann"), await login(second, "bob")

        made_before: list[int] = []

        async def a_game(clock: str | None) -> int:
            """A room of ann's on the first server with bob (relayed) in it, ann's move made."""
            await ann.send("create", clock=clock)
            made = await room_where(ann, lambda m: m["seat"] == 0 and m["room"] not in made_before)
            made_before.append(made["room"])
            await bob.send("join", code=made["code"])
            await room_where(bob, lambda m: m["room"] == made["room"] and m["seat"] == 1)
            await ann.send("drop", column=3, ply=0)
            await room_where(bob, lambda m: m["moves"] == "4")
            await bob.send("leave")
            return int(made["room"])

        by_post = await a_game("1d")  # bob's move, kept by the first server
        lobby = await next_of(bob, "lobby", lambda m: m["your_move"])
        assert lobby["your_move"] == [by_post]
        await bob.send("profile", name="ann")
        playing = (await next_of(bob, "profile"))["playing"]
        assert [(p["room"], p["opponent"], p["moves"]) for p in playing] == [(by_post, "bob", 1)]
        await bob.send("seek", control="3+2")  # a correspondence game does not stop a seek
        await next_of(bob, "seeking", lambda m: m["control"] == "3+2")
        await bob.send("unseek")
        await ann.send("leave")
        await a_game(None)  # a game at one sitting under way on the first server does
        await bob.send("seek", control="3+2")
        assert (await next_of(bob, "refused"))["reason"].startswith("Finish your game first")
        for client in (ann, bob):
            await client.close()


async def test_a_challenge_whose_word_the_bus_lost_reaches_its_player_at_the_next_tick(
    postgres, tmp_path
):
    from c4tui.community.challenges import Challenge
    from c4tui.server.store.challenge_records import ChallengeRecords

    async with two_servers(postgres, tmp_path) as (first, second, wall):
        bob = await login(second, "bob")
        await next_of(bob, "lobby")
        made = wall()  # as the first server would have made it, had it said nothing
        challenge = Challenge(
            7, "ssh-name:ann", "ann", "ssh-name:bob", "bob", "1d", True, True, made, made + 1e6
        )
        ChallengeRecords(first.host.store).keep(challenge)
        told = await next_of(bob, "challenges", lambda m: m["to_me"])
        assert [(c["id"], c["name"]) for c in told["to_me"]] == [(7, "ann")]
        await bob.close()


async def test_a_room_made_on_one_server_reaches_the_other_s_lobby_as_its_row(
    postgres, tmp_path, monkeypatch
):
    """A server tells the others the rows of its rooms that changed, and they put them in
    their lobbies as they are, without reading the rooms tables again (before, it said
    only that its lobby changed, and every other server read the store)."""
    from c4tui.server.rooms.other_servers import OtherServers

    async with two_servers(postgres, tmp_path) as (first, second, _):
        ann, bob = await login(first, "ann"), await login(second, "bob")
        await next_of(bob, "lobby", online("ann", "bob"))
        await next_of(ann, "lobby", online("ann", "bob"))  # the word of who came has gone
        told: list[dict] = []
        broadcast = first.host.bus.broadcast
        monkeypatch.setattr(
            first.host.bus,
            "broadcast",
            lambda kind, body: (told.append(body), broadcast(kind, body)),
        )
        await ann.send("create", public=True)
        number = (await room_where(ann, lambda m: m["seat"] == 0))["room"]
        listed = await next_of(bob, "lobby", lambda m: m["rooms"])
        assert [(r["room"], r["players"][0]["name"]) for r in listed["rooms"]] == [(number, "ann")]
        rows = [row for body in told for row in body.get("rows", ())]
        assert rows and {row["room"] for row in rows} == {number}
        read: list[str] = []
        monkeypatch.setattr(OtherServers, "refresh", lambda others: read.append("the store"))
        monkeypatch.setattr(second.host.lobby, "changed", lambda here=True: read.append("all"))
        (others,) = [each for each in second.host.listeners if isinstance(each, OtherServers)]
        others._heard({"watchers": {}, "rows": [], "gone": [number]}, first.host.server)
        await next_of(bob, "lobby", lambda m: not m["rooms"])  # by the word alone
        assert read == []
        for client in (ann, bob):
            await client.close()


async def test_the_clock_reads_who_is_online_on_the_other_servers_not_their_rooms(
    postgres, tmp_path, monkeypatch
):
    """Every REFRESH_EVERY ticks a server reads who is online on the others; their rooms
    only every ROOMS_EVERY (their rows come on the bus): before, every fifth tick loaded
    every room the others had changed since, all of them with hundreds in play."""
    from c4tui.server.rooms.other_servers import REFRESH_EVERY, ROOMS_EVERY, OtherServers

    async with two_servers(postgres, tmp_path) as (first, second, _):
        ann = await login(first, "ann")
        await ann.send("create")
        await room_where(ann, lambda m: m["seat"] == 0)
        (others,) = [each for each in second.host.listeners if isinstance(each, OtherServers)]
        read: list[tuple[int, bool]] = []  # (the tick, whether the rooms were read)
        reading = OtherServers._read

        def recorded(each, store, versions):
            read.append((each._ticks, versions is not None))
            return reading(each, store, versions)

        monkeypatch.setattr(OtherServers, "_read", recorded)
        others._ticks = 0
        for _ in range(REFRESH_EVERY):
            others.tick()
        await others.reading  # off the loop, then applied
        assert read == [(REFRESH_EVERY, False)] and "ssh-name:ann" in others.people
        others._ticks = ROOMS_EVERY - 1
        others.tick()
        await others.reading
        assert read[1:] == [(ROOMS_EVERY, True)]
        await ann.close()
