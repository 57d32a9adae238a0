"""Leaving a room: a seat in a game under way is held, never handed to the room's code;
when a hold runs out the other side may claim the game (a win or a draw), and a side
that never moved forfeits; an empty room whose maker went away goes."""

from __future__ import annotations

import pytest

from c4tui.app.status_words import room_outcome_text
from c4tui.match.room_view import RoomView
from c4tui.server.rooms.views import room_listed
from c4tui.server.service.service import RoomService
from c4tui.server.wire.codec import from_wire
from c4tui.server.wire.lobby_messages import PlayerListed
from c4tui.server.wire.protocol import RoomShown
from tests.rooms.support import login, next_of, room_where, running


async def two_in_a_room(service: RoomService, moves: str = "4"):
    """ann (●) and bob (○) in one room, `moves` played; the room's code, ann's seat code."""
    ann, bob = await login(service, "ann"), await login(service, "bob")
    await ann.send("create")
    made = await room_where(ann, lambda m: m["seat"] == 0)
    code = made["code"]
    await bob.send("join", code=code)
    await room_where(bob, lambda m: m["seat"] == 1)
    for ply, column in enumerate(moves):
        await (ann, bob)[ply % 2].send("drop", column=int(column) - 1, ply=ply)
        await room_where(ann, lambda m, n=ply + 1: len(m["moves"]) == n)
    return ann, bob, code, made["seat_code"]


async def watched_as_both_leave(service: RoomService, ann, bob):
    """cat watching room 1 as its two players both leave; cat's connection."""
    cat = await login(service, "cat")
    await cat.send("watch", room=1)
    await room_where(cat, lambda m: m["seat"] is None)
    await ann.close()
    await bob.close()
    return cat


@pytest.fixture
async def quick_holds(tmp_path):
    """A service whose seats are held for no time at all: the next look frees them."""
    async with running(tmp_path / "state", seat_hold=0.0) as service:
        yield service


async def test_leaving_a_game_under_way_holds_the_seat_from_the_rooms_code(service):
    ann, bob, code, mine = await two_in_a_room(service)
    await ann.send("leave")
    assert "stepped out" in (await next_of(bob, "notice"))["text"]
    held = await room_where(bob, lambda m: m["seats"][0]["held"] is not None)
    assert not held["seats"][0]["open"] and held["seats"][0]["name"] == "ann"
    # A keyless login under ann's name is another identity; the room's code seats nobody.
    mallory = await login(service, "ann", key="ssh-name:mallory")
    await mallory.send("join", code=code)
    assert "Both seats are taken" in (await next_of(mallory, "refused"))["reason"]
    # ann's seat code still takes the seat back, from another terminal or browser.
    web = await login(service, "ann", key="web:ann-browser")
    await web.send("join", code=mine)
    back = await room_where(web, lambda m: m["seat"] == 0)
    assert back["moves"] == "4" and back["seats"][0]["held"] is None
    for client in (ann, bob, mallory, web):
        await client.close()


async def test_coming_back_by_the_rooms_code_sits_down_again(service):
    ann, bob, code, _ = await two_in_a_room(service, "45")
    await ann.send("leave")
    await room_where(bob, lambda m: m["seats"][0]["held"] is not None)
    await ann.send("join", code=code)
    back = await room_where(ann, lambda m: m["seat"] == 0)
    assert back["seats"][0]["held"] is None
    await next_of(bob, "notice", lambda m: m["text"] == "ann is back.")
    await ann.send("drop", column=3, ply=2)
    await room_where(bob, lambda m: m["moves"] == "454")
    for client in (ann, bob):
        await client.close()


async def test_once_a_hold_runs_out_under_way_the_other_side_claims_the_win(quick_holds):
    ann, bob, _, _ = await two_in_a_room(quick_holds, "45")
    await bob.send("claim", win=True)  # too early: ann is still here
    assert "nothing to claim" in (await next_of(bob, "refused"))["reason"]
    await ann.send("leave")
    said = await next_of(bob, "notice", lambda m: "has not come back" in m["text"])
    assert "claim the win or a draw" in said["text"]
    claimable = await room_where(bob, lambda m: m["claim"] == 1)
    assert not claimable["over"] and claimable["moves"] == "45"  # nobody took ann's side
    await bob.send("claim", win=True)
    over = await room_where(bob, lambda m: m["over"])
    assert over["ended"] == "abandoned" and over["winner"] == 1 and over["claim"] is None
    await bob.send("games")
    kept = (await next_of(bob, "games"))["games"]
    assert "Result: 0-1" in kept[0]["text"] and "Ended: abandoned" in kept[0]["text"]
    for client in (ann, bob):
        await client.close()


async def test_a_dropped_connection_under_way_may_be_claimed_as_a_draw(quick_holds):
    ann, bob, _, _ = await two_in_a_room(quick_holds, "45")
    await bob.close()  # hung up, not left: the same rule
    await room_where(ann, lambda m: m["claim"] == 0)
    await ann.send("claim", win=False)
    over = await room_where(ann, lambda m: m["over"])
    assert over["ended"] == "abandoned" and over["winner"] is None
    await ann.send("games")
    kept = (await next_of(ann, "games"))["games"]
    assert "Result: 1/2-1/2" in kept[0]["text"] and "Ended: abandoned" in kept[0]["text"]
    await ann.close()


async def test_a_side_that_never_moved_forfeits_when_its_hold_runs_out(quick_holds):
    ann, bob, _, _ = await two_in_a_room(quick_holds, "4")
    await bob.close()  # ○ never moved
    over = await room_where(ann, lambda m: m["over"])
    assert over["ended"] == "forfeit" and over["winner"] == 0
    await ann.close()


async def test_coming_back_before_anyone_claims_takes_the_claim_away(quick_holds):
    ann, bob, code, _ = await two_in_a_room(quick_holds, "45")
    await ann.send("leave")
    await room_where(bob, lambda m: m["claim"] == 1)
    await ann.send("join", code=code)
    back = await room_where(bob, lambda m: m["claim"] is None and m["seats"][0]["held"] is None)
    assert not back["over"]
    await bob.send("claim", win=True)
    assert "nothing to claim" in (await next_of(bob, "refused"))["reason"]
    for client in (ann, bob):
        await client.close()


async def test_when_both_sides_are_away_neither_loses(quick_holds):
    ann, bob, _, _ = await two_in_a_room(quick_holds, "45")
    cat = await watched_as_both_leave(quick_holds, ann, bob)
    await next_of(cat, "notice", lambda m: m["text"] == "The room has closed.")
    await cat.send("lobby")
    assert (await next_of(cat, "lobby"))["rooms"] == []
    cat2 = await login(quick_holds, "ann")
    await cat2.send("games")
    kept = (await next_of(cat2, "games"))["games"]
    assert "Result: *" in kept[0]["text"]  # kept unfinished, nobody blamed
    for client in (cat, cat2):
        await client.close()


async def test_leaving_a_game_against_the_ai_keeps_the_room_for_its_watchers(service):
    ann = await login(service, "ann")
    await ann.send("create", ai="random")
    made = await room_where(ann, lambda m: m["seat"] == 0)
    cat = await login(service, "cat")
    await cat.send("watch", room=made["room"])
    await room_where(cat, lambda m: m["seat"] is None)
    await ann.send("drop", column=3, ply=0)
    await room_where(cat, lambda m: len(m["moves"]) == 2)  # the AI answered
    await ann.send("leave")
    held = await room_where(cat, lambda m: m["seats"][0]["held"] is not None)
    assert not held["over"]
    await cat.send("lobby")
    rooms = (await next_of(cat, "lobby"))["rooms"]
    assert [room["room"] for room in rooms] == [made["room"]]
    for client in (ann, cat):
        await client.close()


async def test_an_empty_room_goes_when_its_maker_hangs_up(service):
    bob = await login(service, "bob")
    ann = await login(service, "ann")
    await ann.send("create")
    await room_where(ann, lambda m: m["seat"] == 0)
    await next_of(bob, "lobby", lambda m: m["rooms"])
    await ann.close()
    lobby = await next_of(bob, "lobby", lambda m: m["online"] == ["bob"])
    assert lobby["rooms"] == []  # not kept for a seat hold: there was no game to keep
    await bob.close()


async def test_a_finished_games_seat_still_names_who_played_it_once_they_go(service):
    """A player who leaves a finished game gives up the seat, not the name: the room (and
    its ending's words) still say who played, and a rematch starts with the seat empty."""
    ann, bob, _, _ = await two_in_a_room(service, "4455667")  # ann's four in a row
    await bob.send("leave")
    shown = await room_where(ann, lambda m: m["seats"][1]["open"])
    assert shown["seats"][1]["name"] == "bob"
    shown.pop("kind")
    view = RoomView.from_wire(from_wire(RoomShown, shown), 0.0)
    assert view.seats[1].title == "bob"
    assert room_outcome_text(view) == "You win with ●!"
    room = next(iter(service.host.rooms.values()))
    assert room_listed(room, 0).players[1] == PlayerListed("bob", None)  # the lobby's list
    room.new_game("again")
    assert room.seats[0].open and room.seats[0].title() == "(open)"
    await ann.close()


@pytest.mark.slow  # an app or a service run: about 1 s
async def test_the_last_watchers_are_told_how_the_game_ended_as_the_room_closes(quick_holds):
    # ● 4 4 4 4 against ○ 5 5 5: four in column 4, then both leave at once
    ann, bob, _, _ = await two_in_a_room(quick_holds, "4545454")
    cat = await watched_as_both_leave(quick_holds, ann, bob)
    said = await next_of(cat, "notice", lambda m: m["text"].startswith("The room has closed"))
    assert said["text"] == "The room has closed: ann ● won."
    await cat.close()
