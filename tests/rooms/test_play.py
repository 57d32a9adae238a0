"""Two people play a whole game through the room service; a third watches."""

from __future__ import annotations

from tests.rooms.support import login, next_of, room_where


async def test_two_people_play_a_whole_game_and_a_spectator_sees_every_move(service):
    ann = await login(service, "ann")
    bob = await login(service, "bob")
    await ann.send("create")
    made = await room_where(ann, lambda m: m["seat"] == 0)
    code = made["code"]
    assert len(code.replace("-", "")) == 6
    await bob.send("join", code=code.lower())
    joined = await room_where(bob, lambda m: m["seat"] == 1)
    assert joined["seats"][0]["name"] == "ann"
    cat = await login(service, "cat")
    await cat.send("watch", room=made["room"])
    await room_where(cat, lambda m: m["seat"] is None)
    # ● wins in column 1 after 1-2-1-2-1-2-1.
    moves = "1212121"
    for ply, col in enumerate(moves):
        player = (ann, bob)[ply % 2]
        await player.send("drop", column=int(col) - 1, ply=ply)
        seen = await room_where(cat, lambda m, n=ply + 1: len(m["moves"]) == n)
        assert seen["moves"] == moves[: ply + 1]
    over = await room_where(bob, lambda m: m["over"])
    assert over["winner"] == 0 and over["ended"] is None
    await ann.send("games")
    games = await next_of(ann, "games")
    assert games["games"] and "Moves: 1212121" in games["games"][0]["text"]
    for client in (ann, bob, cat):
        await client.close()


async def test_a_spectator_sees_the_ai_think_and_move(service):
    ann = await login(service, "ann")
    await ann.send("create", ai="mcts:time=0.3", second=True)
    made = await room_where(ann, lambda m: m["seat"] == 1)
    assert made["seats"][0]["ai"] == "mcts:time=0.3" and made["thinking"]
    cat = await login(service, "cat")
    await cat.send("watch", room=made["room"])
    progress = await next_of(cat, "progress")
    assert progress["info"]["engine"] == "mcts" and len(progress["info"]["columns"]) == 7
    moved = await room_where(cat, lambda m: len(m["moves"]) == 1)
    assert moved["info"] is not None and not moved["thinking"]
    await ann.send("drop", column=3, ply=1)
    await room_where(cat, lambda m: len(m["moves"]) == 3)
    for client in (ann, cat):
        await client.close()


async def test_take_back_draw_and_rematch_between_people(service):
    ann, bob = await login(service, "ann"), await login(service, "bob")
    await ann.send("create")
    code = (await room_where(ann, lambda m: m["seat"] == 0))["code"]
    await bob.send("join", code=code)
    await room_where(bob, lambda m: m["seat"] == 1)
    await ann.send("drop", column=3, ply=0)
    await ann.send("take_back")
    await room_where(bob, lambda m: m["offers"] == {"take_back": 0})
    await bob.send("answer", offer="take_back", accept=True)
    await room_where(ann, lambda m: m["moves"] == "" and m["offers"] == {})
    await ann.send("drop", column=3, ply=0)
    await room_where(bob, lambda m: m["moves"] == "4")  # a move clears offers
    await bob.send("offer_draw")
    await room_where(ann, lambda m: m["offers"] == {"draw": 1})
    await ann.send("answer", offer="draw", accept=True)
    over = await room_where(bob, lambda m: m["ended"] == "agreed")
    assert over["winner"] is None
    await bob.send("rematch")
    await ann.send("rematch")
    again = await room_where(ann, lambda m: m["moves"] == "" and not m["over"])
    assert again["seat"] == 1 and again["seats"][0]["name"] == "bob"  # colours swapped
    for client in (ann, bob):
        await client.close()


async def test_a_public_room_is_listed_with_its_code_and_a_private_one_without(service):
    ann, bob, cat = [await login(service, name) for name in ("ann", "bob", "cat")]
    await ann.send("create", public=True)
    await room_where(ann, lambda m: m["seat"] == 0)
    await bob.send("create")
    await room_where(bob, lambda m: m["seat"] == 0)
    await cat.send("lobby")
    lobby = await next_of(cat, "lobby", lambda m: len(m["rooms"]) == 2)
    public, private = lobby["rooms"]
    assert public["open"] and public["code"] and private["code"] is None
    assert public["players"] == [{"name": "ann", "ai": None}, None]
    assert sorted(lobby["online"]) == ["ann", "bob", "cat"]
    await cat.send("join", code=public["code"])
    assert (await room_where(cat, lambda m: m["seat"] == 1))["room"] == public["room"]
    for client in (ann, bob, cat):
        await client.close()


async def test_the_online_list_has_one_entry_per_identity_even_when_names_repeat(service):
    ann = await login(service, "ann")
    other = await login(service, "ann", key="web:another-ann")
    await next_of(ann, "lobby", lambda m: len(m["online"]) == 2)
    for client in (ann, other):
        await client.close()
