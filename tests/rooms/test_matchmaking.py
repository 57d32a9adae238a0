"""Automatch, challenges and rated games through the room service (server/desks/matchmaking.py)."""

from __future__ import annotations

from c4tui.server.store.people_records import PeopleRecords
from tests.rooms.support import login, next_of, room_where, running

WIN_FOR_FIRST = "1212121"  # ● makes four in column 1


async def play_out(service, room: dict, clients: dict, moves: str = WIN_FOR_FIRST) -> None:
    """Play `moves` in the room, each by the client in the seat to move."""
    names = [seat["name"] for seat in room["seats"]]
    for ply, col in enumerate(moves):
        await clients[names[ply % 2]].send("drop", column=int(col) - 1, ply=ply)
        for client in clients.values():
            await room_where(client, lambda m, n=ply + 1: len(m["moves"]) == n)


async def test_two_seekers_meet_play_a_rated_game_and_top_the_leaderboard(service):
    ann, bob = await login(service, "ann"), await login(service, "bob")
    await ann.send("seek", control="3+2")
    seeking = await next_of(ann, "seeking", lambda m: m["control"] is not None)
    assert (seeking["control"], seeking["range"], seeking["waiting"]) == ("3+2", "±100", 0)
    await bob.send("seek", control="3+2")
    room = await room_where(bob, lambda m: m["seat"] is not None)
    assert room["rated"] and {s["name"] for s in room["seats"]} == {"ann", "bob"}
    await room_where(ann, lambda m: m["room"] == room["room"] and m["seat"] is not None)
    await play_out(service, room, {"ann": ann, "bob": bob})
    winner = room["seats"][0]["name"]
    said = await next_of(ann, "notice", lambda m: m["text"].startswith("Ratings: "))
    loser = "bob" if winner == "ann" else "ann"
    assert said["text"] == f"Ratings: {winner} 1662 (+162), {loser} 1338 (-162)."
    board = await next_of(bob, "leaderboard")
    blitz = next(c for c in board["classes"] if c["name"] == "blitz")
    assert [p["name"] for p in blitz["players"]] == [winner, loser]
    assert all(p["provisional"] and p["games"] == 1 for p in blitz["players"])
    await ann.send("leaderboard")
    asked = await next_of(ann, "leaderboard")
    assert asked["classes"] == board["classes"]
    for client in (ann, bob):
        await client.close()


async def test_different_controls_wait_and_stopping_says_so(service):
    ann, bob = await login(service, "ann"), await login(service, "bob")
    await ann.send("seek", control="3+2")
    await next_of(ann, "seeking", lambda m: m["control"] == "3+2")
    await bob.send("seek", control="1+0")
    await next_of(bob, "seeking", lambda m: m["control"] == "1+0")
    await ann.send("unseek")
    await next_of(ann, "seeking", lambda m: m["control"] is None)
    await ann.send("seek", control="lots")
    refused = await next_of(ann, "refused")
    assert "like 5+3 or 3d" in refused["reason"]
    assert set(service.requests.matching.queue.seeks) == {"ssh-name:bob"}
    for client in (ann, bob):
        await client.close()


async def test_a_casual_challenge_accepted_opens_a_room_that_moves_no_rating(service):
    ann, bob = await login(service, "ann"), await login(service, "bob")
    await next_of(bob, "lobby")
    await ann.send("challenge", name="BOB", control="5+3", rated=False)
    mine = await next_of(ann, "challenges", lambda m: m["mine"])
    assert mine["mine"][0]["name"] == "bob" and not mine["mine"][0]["rated"]
    told = await next_of(bob, "challenges", lambda m: m["to_me"])
    offered = told["to_me"][0]
    assert (offered["name"], offered["control"], offered["correspondence"]) == ("ann", "5+3", False)
    await bob.send("answer_challenge", challenge=offered["id"], accept=True)
    room = await room_where(ann, lambda m: m["seat"] is not None)
    assert not room["rated"]
    # Their last game, for automatch's "not the same two in a row".
    assert service.requests.matching.queue.last_opponent["ssh-name:ann"] == "ssh-name:bob"
    await room_where(bob, lambda m: m["room"] == room["room"])
    await play_out(service, room, {"ann": ann, "bob": bob})
    await ann.send("leaderboard")
    board = await next_of(ann, "leaderboard")
    assert all(c["players"] == [] for c in board["classes"])
    for client in (ann, bob):
        await client.close()


async def test_declined_and_cancelled_challenges_are_gone_for_both(service):
    ann, bob = await login(service, "ann"), await login(service, "bob")
    await ann.send("challenge", name="bob", control="3+2", rated=True)
    first = (await next_of(bob, "challenges", lambda m: m["to_me"]))["to_me"][0]
    await bob.send("answer_challenge", challenge=first["id"], accept=False)
    await next_of(ann, "notice", lambda m: m["text"] == "bob declines your challenge.")
    await next_of(ann, "challenges", lambda m: not m["mine"])
    await ann.send("challenge", name="bob", control="3+2", rated=True)
    second = (await next_of(bob, "challenges", lambda m: m["to_me"]))["to_me"][0]
    await ann.send("cancel_challenge", challenge=second["id"])
    await next_of(bob, "challenges", lambda m: not m["to_me"])
    await bob.send("answer_challenge", challenge=second["id"], accept=True)
    refused = await next_of(bob, "refused")
    assert refused["reason"] == "That challenge is no longer open."
    for client in (ann, bob):
        await client.close()


async def test_a_player_away_gets_a_correspondence_challenge_on_login_and_no_live_one(service):
    bob = await login(service, "bob")
    await next_of(bob, "lobby")
    await bob.close()
    ann = await login(service, "ann")
    await ann.send("challenge", name="bob", control="3+2", rated=True)
    refused = await next_of(ann, "refused")
    assert "bob is not online" in refused["reason"]
    await ann.send("challenge", name="bob", control="1d", rated=True)
    await next_of(ann, "challenges", lambda m: m["mine"])
    await ann.send("challenge", name="nobody", control="1d", rated=True)
    assert (await next_of(ann, "refused"))["reason"] == "No player here is called nobody."
    bob = await login(service, "bob")
    waiting = (await next_of(bob, "challenges", lambda m: m["to_me"]))["to_me"][0]
    assert waiting["correspondence"] and waiting["seconds_left"] > 6 * 86400
    await bob.send("answer_challenge", challenge=waiting["id"], accept=True)
    room = await room_where(bob, lambda m: m["seat"] is not None)
    assert room["rated"]
    for client in (ann, bob):
        await client.close()


async def test_blocked_players_cannot_challenge_each_other(service):
    ann, bob = await login(service, "ann"), await login(service, "bob")
    await next_of(bob, "lobby")
    people = PeopleRecords(service.host.store)
    people.block("ssh-name:bob", "bob", people.players.player("ssh-name:ann", "ann"))
    await ann.send("challenge", name="bob", control="3+2", rated=True)
    assert (await next_of(ann, "refused"))["reason"] == "You cannot challenge bob."
    for client in (ann, bob):
        await client.close()


async def test_a_rematch_in_a_rated_room_is_rated_too(service):
    ann, bob = await login(service, "ann"), await login(service, "bob")
    await ann.send("seek", control="1+0")
    await bob.send("seek", control="1+0")
    room = await room_where(bob, lambda m: m["seat"] is not None)
    await room_where(ann, lambda m: m["room"] == room["room"] and m["seat"] is not None)
    clients = {"ann": ann, "bob": bob}
    await play_out(service, room, clients)
    await next_of(ann, "notice", lambda m: m["text"].startswith("Ratings: "))
    for client in (ann, bob):
        await client.send("rematch")
    again = await room_where(ann, lambda m: m["moves"] == "" and not m["over"])
    assert again["rated"] and again["seats"][0]["name"] == room["seats"][1]["name"]
    await play_out(service, again, clients)
    said = await next_of(ann, "notice", lambda m: m["text"].startswith("Ratings: "))
    assert said["text"].count("(") == 2  # both ratings moved again
    for client in (ann, bob):
        await client.close()


async def test_no_pairing_and_no_accepted_challenge_while_the_server_has_its_rooms(tmp_path):
    async with running(tmp_path / "state", rooms=1) as service:
        ann, bob, cy = [await login(service, name) for name in ("ann", "bob", "cy")]
        await ann.send("create")
        await room_where(ann, lambda m: m["seat"] == 0)
        await bob.send("seek", control="3+2")
        await cy.send("seek", control="3+2")
        seeking = await next_of(cy, "seeking", lambda m: m["waiting"] == 1)
        assert seeking["control"] == "3+2"  # both wait on
        await bob.send("challenge", name="cy", control="5+3", rated=True)
        offered = (await next_of(cy, "challenges", lambda m: m["to_me"]))["to_me"][0]
        await cy.send("answer_challenge", challenge=offered["id"], accept=True)
        assert (await next_of(cy, "refused"))["reason"].startswith("The server has its 1 rooms")
        await ann.send("leave")  # the room closes: bob and cy meet
        room = await room_where(cy, lambda m: m["seat"] is not None)
        assert room["rated"] and {s["name"] for s in room["seats"]} == {"bob", "cy"}
        for client in (ann, bob, cy):
            await client.close()


async def test_a_restart_keeps_correspondence_challenges_and_a_rated_game_rated(tmp_path):
    state = tmp_path / "state"
    async with running(state) as service:
        bob = await login(service, "bob")
        await next_of(bob, "lobby")
        await bob.close()
        ann, cy = await login(service, "ann"), await login(service, "cy")
        await ann.send("challenge", name="bob", control="2d", rated=True)
        await next_of(ann, "challenges", lambda m: m["mine"])
        await ann.send("seek", control="3+2")
        await cy.send("seek", control="3+2")
        room = await room_where(cy, lambda m: m["seat"] is not None)
        first = (ann, cy)[[s["name"] for s in room["seats"]].index("ann") != 0]
        await first.send("drop", column=3, ply=0)
        await room_where(cy, lambda m: m["moves"] == "4")
        for client in (ann, cy):
            await client.close()
    async with running(state) as service:
        bob = await login(service, "bob")
        waiting = (await next_of(bob, "challenges", lambda m: m["to_me"]))["to_me"][0]
        assert (waiting["name"], waiting["control"], waiting["rated"]) == ("ann", "2d", True)
        ann = await login(service, "ann")
        back = await room_where(ann, lambda m: m["moves"] == "4")
        assert back["rated"] and back["room"] == room["room"]
        for client in (ann, bob):
            await client.close()


async def test_a_correspondence_game_under_way_does_not_stop_a_seek(service):
    ann, bob, cy = [await login(service, name) for name in ("ann", "bob", "cy")]
    await ann.send("challenge", name="bob", control="1d", rated=False)
    offered = (await next_of(bob, "challenges", lambda m: m["to_me"]))["to_me"][0]
    await bob.send("answer_challenge", challenge=offered["id"], accept=True)
    room = await room_where(ann, lambda m: m["seat"] is not None)
    first = (ann, bob)[[s["name"] for s in room["seats"]].index("ann") != 0]
    await first.send("drop", column=3, ply=0)
    await room_where(ann, lambda m: m["moves"] == "4")
    await ann.send("leave")
    await ann.send("seek", control="3+2")
    await cy.send("seek", control="3+2")
    paired = await room_where(ann, lambda m: m["room"] != room["room"] and m["seat"] is not None)
    assert {s["name"] for s in paired["seats"]} == {"ann", "cy"}
    for client in (ann, bob, cy):
        await client.close()
