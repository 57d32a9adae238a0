"""A four-player Swiss runs to its standings through the room service, spectated.

Four protocol clients (as the served app speaks) make, enter and begin a tournament,
play every game of its three rounds in the rooms it gives them, and a fifth follows the
pairings and standings and watches the games; then the server restarts mid-tournament
and the tournament is back with its rounds and games.
"""

from __future__ import annotations

import logging
import time

from c4tui.server.store.opening import open_store
from c4tui.server.store.player_records import PlayerRecords
from c4tui.server.store.rating_records import RatingRecords
from c4tui.server.store.store import StoreError
from tests.rooms.support import Time, login, next_of, room_where, running

FIRST_WINS = "1212121"  # ● makes four in column 1 on its fourth move


async def played(seats, moves, first_ply=0):
    """These moves, each seen by its player before the next is sent (two players'
    connections are not ordered with each other); `seats` by seat number."""
    for ply, column in enumerate(moves, start=first_ply):
        mover = seats[ply % 2]
        await mover.send("drop", column=int(column) - 1, ply=ply)
        await room_where(mover, lambda m, n=ply + 1: len(m["moves"]) == n)


async def tournament_where(client, where):
    return await next_of(client, "tournament", where)


async def entered(maker, others, name, rounds, control="3+2"):
    """A tournament `maker` made (starting in an hour) and `others` entered; its number."""
    await maker.send("make_tournament", name=name, control=control, rounds=rounds, minutes=60)
    number = (await tournament_where(maker, lambda m: True))["tournament"]["number"]
    for client in others:
        await client.send("enter_tournament", tournament=number)
    await tournament_where(maker, lambda m: m["tournament"]["players"] == 1 + len(others))
    return number


async def play_round(players, spectator, done_rooms, watch_first=False):
    """Every board of the next round (in rooms other than the `done_rooms`): ● wins
    (FIRST_WINS) in each; its rooms are added to `done_rooms`."""
    rooms = {}
    for name, client in players.items():
        rooms[name] = await room_where(
            client, lambda m: m["seat"] is not None and m["room"] not in done_rooms
        )
    by_room = {}
    for name, room in rooms.items():
        by_room.setdefault(room["room"], {})[room["seat"]] = players[name]
    assert all(len(seats) == 2 for seats in by_room.values())  # both players in each
    watched = min(by_room) if watch_first else None
    if watched is not None:
        await spectator.send("watch", room=watched)
        await room_where(spectator, lambda m: m["room"] == watched and m["seat"] is None)
    for number_, seats in sorted(by_room.items()):
        for ply, column in enumerate(FIRST_WINS):
            await played(seats, column, ply)
            if number_ == watched:  # the spectator sees every move of it
                seen = await room_where(spectator, lambda m, n=ply + 1: len(m["moves"]) == n)
                assert seen["moves"] == FIRST_WINS[: ply + 1]
        await room_where(seats[1], lambda m: m["over"] and m["winner"] == 0)
    done_rooms.update(by_room)


async def test_a_four_player_swiss_runs_to_its_standings_spectated(tmp_path):
    async with running(tmp_path / "state", ai_seconds=0.3) as service:
        names = ("ann", "bob", "cat", "dan")
        players = {name: await login(service, name) for name in names}
        eve = await login(service, "eve")
        ann = players["ann"]
        await ann.send("make_tournament", name="Evening Swiss", control="3+2", rounds=3, minutes=60)
        made = await tournament_where(ann, lambda m: m["tournament"]["phase"] == "registration")
        number = made["tournament"]["number"]
        assert made["maker_is_you"] and made["tournament"]["entered"]
        for name in ("bob", "cat", "dan"):
            await players[name].send("tournaments")
            listed = await next_of(players[name], "tournaments", lambda m: m["tournaments"])
            assert listed["tournaments"][0]["name"] == "Evening Swiss"
            await players[name].send("enter_tournament", tournament=number)
        await eve.send("follow_tournament", tournament=number)
        await tournament_where(eve, lambda m: m["tournament"]["players"] == 4)
        await players["bob"].send("begin_tournament", tournament=number)
        refused = await next_of(players["bob"], "refused")
        assert "maker" in refused["reason"]
        await ann.send("begin_tournament", tournament=number)
        pairs, done_rooms = set(), set()
        for round_number in (1, 2, 3):
            shown = await tournament_where(
                eve, lambda m, r=round_number: m["tournament"]["round"] == r
            )
            boards = [b for b in shown["boards"] if b["round"] == round_number]
            assert len(boards) == 2 and all(b["room"] for b in boards)
            for board in boards:
                pairs.add(frozenset((board["first"], board["second"])))
            await play_round(players, eve, done_rooms, watch_first=True)
        assert len(pairs) == 6  # three rounds of four players: everyone met everyone once
        final = await tournament_where(eve, lambda m: m["tournament"]["phase"] == "finished")
        table = final["standings"]
        assert sum(line["points"] for line in table) == 6.0
        assert [line["place"] for line in table] == sorted(line["place"] for line in table)
        assert all(b["points"] == 1.0 and b["how"] == "four in a row" for b in final["boards"])
        # Colours balanced: with ● winning every game, everyone won the games they had ●,
        # and each had ● once or twice in three rounds.
        assert sorted(line["wins"] for line in table) == [1, 1, 2, 2]
        for client in (*players.values(), eve):
            await client.close()


async def test_a_tournament_comes_back_after_a_restart_with_its_rounds_and_games(tmp_path):
    state = tmp_path / "state"
    names = ("ann", "bob", "cat", "dan")
    async with running(state, ai_seconds=0.3) as service:
        players = {name: await login(service, name) for name in names}
        ann = players["ann"]
        others = [players[name] for name in ("bob", "cat", "dan")]
        number = await entered(ann, others, "Night", 2, control="5+0")
        await ann.send("begin_tournament", tournament=number)
        seated = {}
        for name, client in players.items():
            seated[name] = await room_where(client, lambda m: m["seat"] is not None)
        by_room = {}
        for name, room in seated.items():
            by_room.setdefault(room["room"], {})[room["seat"]] = players[name]
        (done, done_seats), (going, going_seats) = sorted(by_room.items())
        await played(done_seats, FIRST_WINS)  # one game ends
        await room_where(done_seats[1], lambda m: m["over"])
        await played(going_seats, "444")  # the other is under way
        await tournament_where(ann, lambda m: any(b["points"] == 1.0 for b in m["boards"]))
        for client in players.values():
            await client.close()
    async with running(state, ai_seconds=0.3) as service:
        eve = await login(service, "eve")
        await eve.send("follow_tournament", tournament=number)
        back = await tournament_where(eve, lambda m: True)
        assert back["tournament"]["phase"] == "playing" and back["tournament"]["round"] == 1
        results = {b["room"] or done: b["points"] for b in back["boards"]}
        assert results == {done: 1.0, going: None}
        # The players of the game under way sit back down to it, and finish it.
        again = {}
        for name, room in seated.items():
            if room["room"] == going:
                client = await login(service, name)
                shown = await room_where(client, lambda m: m["room"] == going)
                assert shown["moves"] == "444"
                again[shown["seat"]] = client
        await played(again, "737271", 3)  # ● fills the bottom row's 1-4
        await room_where(again[1], lambda m: m["over"])
        second = await tournament_where(eve, lambda m: m["tournament"]["round"] == 2)
        assert len([b for b in second["boards"] if b["round"] == 2]) == 2
        for client in (eve, *again.values()):
            await client.close()


async def test_a_player_who_never_comes_loses_on_the_clock_is_withdrawn_and_games_are_rated(
    tmp_path,
):
    now = Time()
    async with running(tmp_path / "state", now=now, ai_seconds=0.3) as service:
        players = {name: await login(service, name) for name in ("ann", "bob", "cat", "dan")}
        ann = players["ann"]
        number = await entered(ann, [players[name] for name in ("bob", "cat", "dan")], "Blitz", 3)
        await players["dan"].close()  # entered, then gone
        await ann.send("begin_tournament", tournament=number)
        seated = {}
        for name in ("ann", "bob", "cat"):
            seated[name] = await room_where(players[name], lambda m: m["seat"] is not None)
        assert seated["bob"]["seat"] == 1  # dan has ● against bob, and is not there
        assert seated["bob"]["clock"]["running"] == 0
        here = {seated["ann"]["seat"]: ann, seated["cat"]["seat"]: players["cat"]}
        await played(here, FIRST_WINS)
        await room_where(here[1], lambda m: m["over"])
        now.moved(3 * 60 + 1)  # dan's three minutes run out without a move
        over = await room_where(players["bob"], lambda m: m["over"])
        assert (over["ended"], over["winner"]) == ("forfeit", 1)
        second = await tournament_where(ann, lambda m: m["tournament"]["round"] == 2)
        dan = next(line for line in second["standings"] if line["name"] == "dan")
        assert dan["withdrawn"] and dan["losses"] == 1
        assert second["tournament"]["players"] == 3  # dan is not paired again: a bye
        assert all("dan" not in (b["first"], b["second"]) for b in second["boards"][:1])
        store = service.host.store
        ratings = {
            name: RatingRecords(store).standing(
                PlayerRecords(store).player_of(f"ssh-name:{name}"), "blitz"
            )
            for name in ("ann", "cat", "bob")
        }
        winner = seated["ann"]["seat"] == 0  # ● won: ann if she had ●
        assert (
            ratings["ann" if winner else "cat"].rating.r
            > 1500
            > ratings["cat" if winner else "ann"].rating.r
        )
        assert ratings["bob"].games == 0  # a forfeit is not rated
        for client in players.values():
            await client.close()


async def test_the_operators_tournament_is_made_at_start_once(tmp_path):
    daily = (("Daily Swiss", "5+3", 4, time.time() + 3600),)
    for start in range(2):  # a restart does not make a second one, and keeps its entries
        async with running(tmp_path / "state", tournaments=daily) as service:
            ann = await login(service, "ann")
            await ann.send("tournaments")
            listed = (await next_of(ann, "tournaments"))["tournaments"]
            assert [(t["name"], t["maker"], t["rounds"]) for t in listed] == [
                ("Daily Swiss", "the operator", 4)
            ]
            assert listed[0]["entered"] == bool(start)
            if not start:
                await ann.send("enter_tournament", tournament=listed[0]["number"])
            await ann.send("begin_tournament", tournament=listed[0]["number"])
            refused = await next_of(ann, "refused")
            assert "maker" in refused["reason"]  # it begins at its time, not a player's word
            await ann.close()


async def test_between_rounds_a_pause_shows_the_last_result_then_the_next_round_starts(
    tmp_path,
):
    async with running(tmp_path / "state", round_pause=15.0) as service:
        desk = service.tournaments
        wall = [time.time()]
        desk.clock = lambda: wall[0]  # the desk's time, moved by hand below
        players = {name: await login(service, name) for name in ("ann", "bob", "cat")}
        ann = players["ann"]
        number = await entered(ann, [players["bob"], players["cat"]], "Pause", 2)
        eve = await login(service, "eve")
        await eve.send("follow_tournament", tournament=number)
        await ann.send("begin_tournament", tournament=number)
        await tournament_where(eve, lambda m: m["tournament"]["round"] == 1)
        bye = desk.tournaments[number].rounds[0].bye
        seats, first_room = {}, None
        for name, client in players.items():
            if f"ssh-name:{name}" != bye:
                shown = await room_where(client, lambda m: m["seat"] is not None)
                seats[shown["seat"]], first_room = client, shown["room"]
        await played(seats, FIRST_WINS[:-1])
        await seats[0].send("drop", column=int(FIRST_WINS[-1]) - 1, ply=len(FIRST_WINS) - 1)
        # The pause is told as the last move is made; the move is shown once it is kept
        # (off the loop), and its room stays: the next round waits.
        told = await next_of(seats[1], "notice", lambda m: "round 2 starts in" in m["text"])
        assert told["text"] == "Pause: round 2 starts in 15 s."
        over = await room_where(seats[1], lambda m: m["over"])
        assert over["room"] == first_room and over["winner"] == 0
        paused = await tournament_where(eve, lambda m: m["tournament"]["next_round_at"])
        assert paused["tournament"]["round"] == 1
        assert paused["tournament"]["next_round_at"] == wall[0] + 15.0
        wall[0] += 5
        desk.look(wall[0])
        again = await next_of(seats[0], "notice", lambda m: "in 10 s" in m["text"])
        assert again["text"] == "Pause: round 2 starts in 10 s."
        assert desk.tournaments[number].current.number == 1  # not paired yet
        wall[0] += 10
        desk.look(wall[0])
        second = await tournament_where(eve, lambda m: m["tournament"]["round"] == 2)
        assert second["tournament"]["next_round_at"] is None
        new_room = await room_where(seats[0], lambda m: m["room"] != first_room)
        assert new_room["seat"] is not None
        for client in (*players.values(), eve):
            await client.close()


async def test_a_tournament_game_is_rated_once_and_has_no_rematch(tmp_path):
    state = tmp_path / "state"
    async with running(state) as service:
        ann, bob = await login(service, "ann"), await login(service, "bob")
        number = await entered(ann, [bob], "Duel", 1)
        await ann.send("begin_tournament", tournament=number)
        seats = {}
        for client in (ann, bob):
            seats[(await room_where(client, lambda m: m["seat"] is not None))["seat"]] = client
        await played(seats, FIRST_WINS)
        over = await room_where(seats[1], lambda m: m["over"])
        assert over["tournament"]  # the room says so: its players are offered no rematch
        await next_of(seats[1], "notice", lambda m: m["text"].startswith("Ratings:"))
        # A rematch would be a rated game outside the tournament, and would keep its
        # players from their next round's game.
        await seats[0].send("rematch")
        refused = await next_of(seats[0], "refused")
        assert "no rematch" in refused["reason"]
        await ann.close()
        await bob.close()
    async with running(state):  # nothing rates it again after a restart
        pass
    with open_store(state) as store:
        for name in ("ann", "bob"):
            player = PlayerRecords(store).player_of(f"ssh-name:{name}")
            assert RatingRecords(store).standing(player, "blitz").games == 1


async def test_a_result_the_store_refused_is_recorded_at_the_next_look(tmp_path, monkeypatch):
    async with running(tmp_path / "state") as service:
        desk = service.tournaments
        ann, bob = await login(service, "ann"), await login(service, "bob")
        number = await entered(ann, [bob], "Refused", 1)
        await ann.send("begin_tournament", tournament=number)
        seats = {}
        for client in (ann, bob):
            seats[(await room_where(client, lambda m: m["seat"] is not None))["seat"]] = client
        await played(seats, FIRST_WINS[:-1])
        keep = desk.records.keep

        def full(tournament):
            raise StoreError("the disk is full")

        monkeypatch.setattr(desk.records, "keep", full)
        await played(seats, FIRST_WINS[-1], first_ply=len(FIRST_WINS) - 1)
        await room_where(seats[1], lambda m: m["over"])
        assert desk.tournaments[number].phase == "playing"  # not kept, so not recorded
        monkeypatch.setattr(desk.records, "keep", keep)
        desk.look(time.time())
        final = await tournament_where(ann, lambda m: m["tournament"]["phase"] == "finished")
        assert final["boards"][0]["points"] == 1.0
        await ann.close()
        await bob.close()


async def test_a_rounds_log_line_names_its_players_not_their_keys(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="c4tui.server")
    async with running(tmp_path / "state") as service:
        ann = await login(service, "ann", key="ssh-key:SHA256:annsfingerprint")
        bob = await login(service, "bob", key="ssh-key:SHA256:bobsfingerprint")
        number = await entered(ann, [bob], "Quick Swiss", rounds=1)
        await ann.send("begin_tournament", tournament=number)
        await room_where(ann, lambda m: m["seat"] is not None)
        await ann.close()
        await bob.close()
    (line,) = [r.getMessage() for r in caplog.records if "round 1:" in r.getMessage()]
    assert ("ann - bob" in line or "bob - ann" in line) and "fingerprint" not in line
