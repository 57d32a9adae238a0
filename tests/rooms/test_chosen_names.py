"""A browser player chooses a name of their own (server/desks/people.py, server/desks/renaming.py,
community/chosen_names.py): kept for their identity, refused when it is not theirs to
have, shown at once in the lobby, the online list and the rooms, on every server."""

from __future__ import annotations

import logging

from c4tui.community.chosen_names import name_refusal
from c4tui.server.store.chosen_names import ChosenNames
from c4tui.server.store.player_records import PlayerRecords
from tests.rooms.support import login, next_of, room_where
from tests.rooms.test_across_servers import online, two_servers

ANN = "web:" + "a" * 32  # a browser's identity, as the web front makes it


def test_the_rules_of_a_name_are_ssh_login_names():
    assert name_refusal("Ann") is None and name_refusal("ann_b.2-x") is None
    assert name_refusal("Zoë") is None  # letters of any alphabet
    assert "1 to 20 characters" in name_refusal("")
    assert "1 to 20 characters" in name_refusal("a" * 21)
    for bad in ("ann b", "ann😀", "ann\x1b[2J", "a/b"):
        assert "letters, digits" in name_refusal(bad), bad
    assert "web-" in name_refusal("WEB-1a2b")


async def test_a_browser_chooses_a_name_and_is_called_by_it_everywhere(service):
    ann = await login(service, "web-aaaa", key=ANN)
    assert "To choose a name of your own" in (await next_of(ann, "notice"))["text"]
    bob = await login(service, "bob")
    await ann.send("create")
    code = (await room_where(ann, lambda m: m["seat"] == 0))["code"]
    await bob.send("join", code=code)
    await room_where(bob, lambda m: m["seat"] == 1)
    await ann.send("profile", name="web-aaaa")
    assert (await next_of(ann, "profile"))["choose"]  # one's own, in a browser
    await ann.send("name", name="Ann")
    assert (await next_of(ann, "named"))["name"] == "Ann"
    assert "You are Ann now" in (await next_of(ann, "notice"))["text"]
    mine = await next_of(ann, "profile")
    assert mine["name"] == "Ann" and mine["you"] and mine["choose"]
    shown = await room_where(bob, lambda m: m["seats"][0]["name"] == "Ann")
    assert shown["seats"][1]["name"] == "bob"
    await bob.send("leave")
    await next_of(bob, "lobby", online("Ann", "bob"))
    assert ChosenNames(service.host.store).held(ANN) == "Ann"
    await bob.send("profile", name="ANN")  # names are compared without case
    theirs = await next_of(bob, "profile")
    assert theirs["name"] == "Ann" and not theirs["you"] and not theirs["choose"]
    # Coming back: the web front looks the name up (tests/serve/test_players.py).
    await ann.close()
    again = await login(service, "Ann", key=ANN)
    await next_of(again, "lobby")
    assert again.welcome.identity.name == "Ann"
    for client in (again, bob):
        await client.close()


async def test_names_not_the_browsers_to_have_are_refused_each_with_a_log_line(service, caplog):
    caplog.set_level(logging.INFO, "c4tui.server")
    PlayerRecords(service.host.store).claim("dan", "ssh-key:SHA256:dan")  # a key holds it
    cat = await login(service, "cat")  # a keyless ssh player, online
    ann = await login(service, "web-aaaa", key=ANN)
    eve = await login(service, "web-eeee", key="web:" + "e" * 32)
    await ann.send("name", name="Ann")
    await next_of(ann, "named")
    refusals = {
        "ANN": "in use right now",  # another browser's, and online: in any case
        "cat": "in use right now",
        "dan": "another player's",
        "web-1a2b": "the ones the server makes",
        "a b": "letters, digits",
        "x" * 21: "1 to 20 characters",
    }
    caplog.clear()
    for name, words in refusals.items():
        await eve.send("name", name=name)
        refused = await next_of(eve, "refused")
        assert refused["of"] == "name" and words in refused["reason"], name
    lines = [r.getMessage() for r in caplog.records if "refused the name" in r.getMessage()]
    assert len(lines) == len(refusals)
    for gone in (cat, ann):
        await gone.close()
    await eve.send("name", name="Cat")  # gone now, but the name is an ssh player's
    assert "an ssh player's" in (await next_of(eve, "refused"))["reason"]
    await eve.send("name", name="aNN")  # gone now, but the name is held: in any case
    assert "another player's" in (await next_of(eve, "refused"))["reason"]
    keyless = await login(service, "fay")
    await keyless.send("name", name="fay2")
    assert "login name" in (await next_of(keyless, "refused"))["reason"]
    assert ChosenNames(service.host.store).held("web:" + "e" * 32) is None
    for client in (eve, keyless):
        await client.close()


async def test_a_name_chosen_on_one_server_is_shown_on_the_other(postgres, tmp_path):
    async with two_servers(postgres, tmp_path) as (first, second, _):
        ann = await login(first, "web-aaaa", key=ANN)
        twin = await login(second, "web-aaaa", key=ANN)  # another tab, on the other server
        bob = await login(second, "bob")
        await next_of(bob, "lobby", online("web-aaaa", "bob"))
        await ann.send("create")
        code = (await room_where(ann, lambda m: m["seat"] == 0))["code"]
        await bob.send("join", code=code)  # the first server's room, relayed to bob
        await room_where(bob, lambda m: m["seat"] == 1)
        await ann.send("name", name="Ann")
        await next_of(ann, "named")
        assert (await next_of(twin, "named"))["name"] == "Ann"
        await room_where(bob, lambda m: m["seats"][0]["name"] == "Ann")
        await twin.close()  # the first server's people, as its store says: Ann
        cy = await login(second, "cy")
        await next_of(cy, "lobby", online("Ann", "cy"))
        await bob.send("profile", name="ann")
        assert (await next_of(bob, "profile"))["name"] == "Ann"
        for client in (ann, bob, cy):
            await client.close()
        assert ChosenNames(second.host.store).held(ANN) == "Ann"
