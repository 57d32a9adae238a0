"""Profiles, blocks and passwords through the room service."""

from __future__ import annotations

from c4tui.community.passwords import matches
from c4tui.server.store.people_records import PeopleRecords
from tests.rooms.support import login, next_of, room_where


async def a_room_of_two(service, moves: str):
    ann, bob = await login(service, "ann"), await login(service, "bob")
    await ann.send("create")
    code = (await room_where(ann, lambda m: m["seat"] == 0))["code"]
    await bob.send("join", code=code)
    await room_where(bob, lambda m: m["seat"] == 1)
    for ply, column in enumerate(moves):
        await (ann, bob)[ply % 2].send("drop", column=int(column) - 1, ply=ply)
        await room_where(bob, lambda m, n=ply + 1: len(m["moves"]) == n)
    return ann, bob


async def test_a_profile_shows_results_and_the_game_going_on(service):
    ann, bob = await a_room_of_two(service, "4455667")  # ann wins
    await bob.send("rematch")
    await ann.send("rematch")
    await room_where(ann, lambda m: m["moves"] == "" and not m["over"])
    await ann.send("profile", name="BOB")
    shown = await next_of(ann, "profile")
    assert shown["name"] == "bob" and shown["online"] and not shown["you"]
    assert (shown["wins"], shown["draws"], shown["losses"]) == (0, 0, 1)
    assert shown["playing"] == [{"room": 1, "opponent": "ann", "moves": 0}]  # the rematch
    assert shown["ratings"] == [] and shown["password"] is None and not shown["blocked"]
    await ann.send("profile", name="ann")
    mine = await next_of(ann, "profile")
    assert mine["you"] and mine["wins"] == 1 and mine["password"] is False  # keyless: may set one
    await ann.send("profile", name="nobody")
    refused = await next_of(ann, "refused")
    assert refused["of"] == "profile" and "No player here is called nobody" in refused["reason"]
    for client in (ann, bob):
        await client.close()


async def test_a_blocked_players_chat_does_not_reach_the_blocker(service):
    ann, bob = await a_room_of_two(service, "4")
    await ann.send("block", name="bob", block=True)
    await next_of(ann, "notice", lambda m: "You block bob" in m["text"])
    assert (await next_of(ann, "profile"))["blocked"]
    assert PeopleRecords(service.host.store).blocks("ssh-name:ann", "ssh-name:bob")
    await bob.send("say", text="hello?")
    assert (await next_of(bob, "said"))["text"] == "hello?"  # bob sees his own line
    await ann.send("say", text="quiet")
    assert (await next_of(bob, "said"))["text"] == "quiet"  # one way: ann still speaks
    # ann never heard bob's line: the next said ann gets is her own
    assert (await next_of(ann, "said"))["text"] == "quiet"
    await ann.send("block", name="bob", block=False)
    assert not (await next_of(ann, "profile"))["blocked"]
    await bob.send("say", text="back")
    assert (await next_of(ann, "said"))["text"] == "back"
    await ann.send("block", name="ann", block=True)
    assert "nobody blocks themselves" in (await next_of(ann, "refused"))["reason"]
    for client in (ann, bob):
        await client.close()


async def test_a_keyless_name_sets_a_password_and_a_key_needs_none(service):
    ann = await login(service, "ann")
    await ann.send("password", password="short")
    assert "at least 8 characters" in (await next_of(ann, "refused"))["reason"]
    await ann.send("password", password="anns long secret")
    assert "Your password is set" in (await next_of(ann, "notice"))["text"]
    kept = PeopleRecords(service.host.store).password_of("Ann")
    assert kept is not None and matches("anns long secret", kept)
    assert (await next_of(ann, "profile"))["password"] is True  # shown again, as it is now
    keyed = await login(service, "cat", key="ssh-key:SHA256:cat")
    await keyed.send("password", password="cats long secret")
    assert "already makes you you" in (await next_of(keyed, "refused"))["reason"]
    for client in (ann, keyed):
        await client.close()
