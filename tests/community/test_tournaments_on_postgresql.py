"""Tournaments on several servers sharing one PostgreSQL database (issue 36)."""

from __future__ import annotations

import pytest

from c4tui.server.service.service import RoomLimits, RoomService
from c4tui.server.store.player_records import PlayerRecords
from c4tui.server.store.rating_records import RatingRecords
from tests.community.two_servers import two_servers as servers_on_one_database
from tests.rooms.support import Time, login, next_of, room_where
from tests.rooms.test_tournaments import FIRST_WINS, entered, played, tournament_where


def two_servers(tmp_path, url, wall):
    """Two room services on one database, on the Unix seconds `wall`, no round pause."""
    limits = RoomLimits(ai_workers=1, round_pause=0.0)
    return servers_on_one_database(tmp_path, url, wall, limits=limits)


async def died(first: RoomService, second: RoomService, wall: Time) -> None:
    """The first server stops renewing its leases (as a killed one does), and once they
    ran out the second takes its rooms and its tournaments."""
    first.host._tick.cancel()
    first.tournaments._tick.cancel()
    wall.moved(first.host.limits.lease_seconds + 1)
    await second.host.leasing.see_to()
    second.tournaments.look(wall())


def games_rated(service: RoomService, name: str) -> int:
    store = service.host.store
    player = PlayerRecords(store).player_of(f"ssh-name:{name}")
    return RatingRecords(store).standing(player, "blitz").games


async def test_a_tournament_game_taken_over_by_another_server_is_rated_once(postgres, tmp_path):
    wall = Time(2_000_000_000.0)
    async with two_servers(tmp_path, postgres.fresh_url(), wall) as (first, second):
        ann, bob = await login(first, "ann"), await login(first, "bob")
        number = await entered(ann, [bob], "Duel", 1)
        await ann.send("begin_tournament", tournament=number)
        seats, names = {}, {}
        for client, name in ((ann, "ann"), (bob, "bob")):
            seat = (await room_where(client, lambda m: m["seat"] is not None))["seat"]
            seats[seat], names[seat] = client, name
        await played(seats, FIRST_WINS[:3])
        # The first server dies (stops renewing): the second takes the room.
        await died(first, second, wall)
        (room,) = second.host.rooms
        again = {seat: await login(second, names[seat]) for seat in seats}
        for client in again.values():
            await room_where(client, lambda m: m["room"] == room and m["moves"] == "121")
        await played(again, FIRST_WINS[3:], first_ply=3)
        told = await next_of(again[1], "notice", lambda m: m["text"].startswith("Ratings:"))
        assert f"{names[0]} 1662 (+162)" in told["text"]
        assert [games_rated(second, name) for name in ("ann", "bob")] == [1, 1]
        for client in (ann, bob, *again.values()):
            await client.close()


async def test_a_tournament_is_listed_entered_and_played_across_servers_run_by_one(
    postgres, tmp_path
):
    wall = Time(2_000_000_000.0)
    async with two_servers(tmp_path, postgres.fresh_url(), wall) as (first, second):
        ann = await login(first, "ann")
        bob, eve = await login(second, "bob"), await login(second, "eve")
        await bob.send("tournaments")
        await ann.send("make_tournament", name="Across", control="3+2", rounds=1, minutes=60)
        number = (await tournament_where(ann, lambda m: True))["tournament"]["number"]
        # Listed on the other server, and entered there.
        listed = await next_of(bob, "tournaments", lambda m: m["tournaments"])
        assert [t["name"] for t in listed["tournaments"]] == ["Across"]
        await bob.send("enter_tournament", tournament=number)
        await eve.send("follow_tournament", tournament=number)
        await tournament_where(ann, lambda m: m["tournament"]["players"] == 2)
        await tournament_where(eve, lambda m: m["tournament"]["players"] == 2)
        for service in (first, second):
            service.tournaments.look(wall())
        assert (first.tournaments.running, second.tournaments.running) == ({number}, set())
        await ann.send("begin_tournament", tournament=number)
        # The game's room is the runner's; bob plays in it from the other server.
        seats = {}
        for client in (ann, bob):
            seats[(await room_where(client, lambda m: m["seat"] is not None))["seat"]] = client
        (room,) = first.host.rooms
        assert second.host.rooms == {}
        shown = await tournament_where(eve, lambda m: m["tournament"]["round"] == 1)
        assert shown["boards"][0]["room"] == room
        await eve.send("watch", room=room)
        await room_where(eve, lambda m: m["room"] == room and m["seat"] is None)
        await played(seats, FIRST_WINS[:3])
        # How far it has got, told by the server that holds it.
        await tournament_where(eve, lambda m: m["boards"][0]["moves"] == 3)
        await played(seats, FIRST_WINS[3:], first_ply=3)
        seen = await room_where(eve, lambda m: m["over"])
        assert seen["moves"] == FIRST_WINS
        final = await tournament_where(eve, lambda m: m["tournament"]["phase"] == "finished")
        assert [line["points"] for line in final["standings"]] == [1.0, 0.0]
        for client in (ann, bob, eve):
            await client.close()


async def test_a_tournament_whose_server_dies_is_run_on_by_another(postgres, tmp_path):
    wall = Time(2_000_000_000.0)
    async with two_servers(tmp_path, postgres.fresh_url(), wall) as (first, second):
        ann = await login(first, "ann")
        clients = {"ann": ann, "bob": await login(second, "bob"), "cat": await login(second, "cat")}
        number = await entered(ann, [clients["bob"], clients["cat"]], "Relay", 2)
        eve = await login(second, "eve")
        await eve.send("follow_tournament", tournament=number)
        await ann.send("begin_tournament", tournament=number)
        await tournament_where(eve, lambda m: m["tournament"]["round"] == 1)
        bye = first.tournaments.tournaments[number].rounds[0].bye
        playing = [name for name in clients if f"ssh-name:{name}" != bye]
        for name in playing:
            await room_where(clients[name], lambda m: m["seat"] is not None)
        (room,) = first.host.rooms
        # The first server dies: the second takes its room and its tournament.
        await died(first, second, wall)
        assert list(second.host.rooms) == [room]
        assert second.tournaments.running == {number}
        live = {
            name: await login(second, name) if name == "ann" else c for name, c in clients.items()
        }
        seats = {}
        for name in playing:
            shown = await room_where(live[name], lambda m: m["room"] == room)
            seats[shown["seat"]] = live[name]
        await played(seats, FIRST_WINS)
        # Round 2, paired by the server that runs the tournament now, in its rooms.
        await tournament_where(eve, lambda m: m["tournament"]["round"] == 2)
        (board,) = second.tournaments.tournaments[number].rounds[1].boards
        for key in (board.first, board.second):
            name = key.removeprefix("ssh-name:")
            seated = await room_where(
                live[name], lambda m: m["room"] != room and m["seat"] is not None
            )
            assert seated["room"] == board.room and board.room in second.host.rooms
        for client in (*clients.values(), live["ann"], eve):
            await client.close()


async def test_a_player_in_a_game_on_another_server_is_told_where_the_round_waits(
    postgres, tmp_path
):
    wall = Time(2_000_000_000.0)
    async with two_servers(tmp_path, postgres.fresh_url(), wall) as (first, second):
        ann, cat = await login(first, "ann"), await login(first, "cat")
        bob = await login(second, "bob")
        number = await entered(ann, [bob], "Busy", 1)
        # bob, on the second server, plays cat in a room the first holds (relayed).
        await cat.send("create")
        code = (await room_where(cat, lambda m: m["seat"] == 0))["code"]
        await bob.send("join", code=code)
        casual = (await room_where(bob, lambda m: m["seat"] == 1))["room"]
        await played({0: cat, 1: bob}, "45")
        await ann.send("begin_tournament", tournament=number)
        told = await next_of(bob, "notice", lambda m: "round 1" in m["text"])
        assert "waits in room" in told["text"]
        await cat.send("drop", column=3, ply=2)  # bob is still in his game
        await room_where(bob, lambda m: m["room"] == casual and m["moves"] == "454")
        for client in (ann, bob, cat):
            await client.close()


async def test_a_round_its_dead_runner_paired_but_never_seated_is_seated_once_by_the_next(
    postgres, tmp_path, monkeypatch
):
    wall = Time(2_000_000_000.0)
    async with two_servers(tmp_path, postgres.fresh_url(), wall) as (first, second):
        ann, bob = await login(first, "ann"), await login(second, "bob")
        number = await entered(ann, [bob], "Cut", 1)

        change = first.tournaments.change

        def killed_at_seating(number, what):
            if what.__name__ == "seated":  # the boards' rooms are being written
                raise SystemExit("killed")
            return change(number, what)

        monkeypatch.setattr(first.tournaments, "change", killed_at_seating)
        with pytest.raises(SystemExit):
            first.tournaments.rounds.begin(number)
        await died(first, second, wall)
        (board,) = second.tournaments.tournaments[number].rounds[0].boards
        # Seated there, in one room: none made before the boards knew it, with both in it.
        assert list(second.host.rooms) == [board.room]
        ann2 = await login(second, "ann")
        for client in (ann2, bob):
            await room_where(client, lambda m: m["room"] == board.room and m["seat"] is not None)
        for client in (ann, bob, ann2):
            await client.close()


async def test_a_change_whose_word_on_the_bus_was_lost_is_seen_at_the_next_look(
    postgres, tmp_path, monkeypatch
):
    wall = Time(2_000_000_000.0)
    async with two_servers(tmp_path, postgres.fresh_url(), wall) as (first, second):
        ann, cat, bob = (
            await login(first, "ann"),
            await login(first, "cat"),
            await login(second, "bob"),
        )
        await bob.send("tournaments")
        await ann.send("make_tournament", name="Lost", control="3+2", rounds=1, minutes=60)
        listed = await next_of(bob, "tournaments", lambda m: m["tournaments"])
        number = listed["tournaments"][0]["number"]
        monkeypatch.setattr(first.host.bus, "broadcast", lambda kind, body: None)  # lost
        await cat.send("enter_tournament", tournament=number)
        await tournament_where(ann, lambda m: m["tournament"]["players"] == 2)
        assert len(second.tournaments.tournaments[number].entries) == 1
        wall.moved(second.host.limits.lease_seconds / 3)
        second.tournaments.look(wall())
        again = await next_of(bob, "tournaments", lambda m: m["tournaments"][0]["players"] == 2)
        assert again["tournaments"][0]["name"] == "Lost"
        for client in (ann, cat, bob):
            await client.close()
