"""A server started on a state directory from before the database: its rooms, kept games
and names come into the database once, the files are set aside (never deleted), and the
games go on."""

from __future__ import annotations

import logging
import shutil

import pytest

from c4tui.engine.board.game import Game
from c4tui.server.rooms.old_state import ASIDE, bring_in
from c4tui.server.rooms.room import Room, Seat
from c4tui.server.service.service import RoomService
from c4tui.server.store.opening import open_store
from c4tui.server.store.player_records import PlayerRecords
from tests.rooms.old_state_files import write_kept_game, write_names, write_room
from tests.rooms.support import login, next_of, room_where

ANN, BOB = "ssh-name:ann", "ssh-key:SHA256:bob"


def a_room(number: int, moves: str = "4453", code: str = "ABCDEF", **fields) -> Room:
    seats = [Seat(ANN, "ann", code=f"SEAT{number:02d}"), Seat(BOB, "bob", code=f"SEAT{number}B")]
    name = f"20261120-1200{number:02d}-r{number}-000001"
    return Room(number, code, Game.from_moves(moves), seats, name=name, **fields)


def warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


async def test_an_old_state_directory_is_brought_in_and_its_games_go_on(tmp_path, caplog):
    state = tmp_path / "state"
    going = a_room(1, offers={"draw": 1}, public=True)
    write_room(state, going)
    over = a_room(2, "44", code="GHJKMN", ended="resigned", winner=0)
    write_room(state, over)
    write_kept_game(state, ANN, over.name, over)  # the old server kept finished games so
    old = a_room(9, "1234567")  # a game of ann's from a room long closed
    write_kept_game(state, ANN, old.name, old)
    write_names(state, {"bob": BOB})
    service = RoomService(state)
    await service.start()
    try:
        assert sorted(service.host.rooms) == [1, 2]
        ann = await login(service, "ann")
        back = await room_where(ann, lambda m: m["seat"] == 0)
        assert (back["room"], back["moves"], back["offers"]) == (1, "4453", {"draw": 1})
        await ann.send("games")
        games = (await next_of(ann, "games"))["games"]
        assert [g["name"] for g in games] == [old.name, over.name]
        assert "Result: 1-0" in games[1]["text"]
        bob = await login(service, "bob", key=BOB)
        await room_where(bob, lambda m: m["seat"] == 1)
        await ann.send("drop", column=0, ply=4)
        await room_where(bob, lambda m: m["moves"] == "44531")
        await ann.close()
        await bob.close()
    finally:
        await service.close()
    aside = state / ASIDE
    assert sorted(p.name for p in aside.iterdir()) == ["names.json", "players", "rooms"]
    assert (aside / "rooms" / "1.c4").is_file()
    assert not (state / "rooms").exists() and not (state / "names.json").exists()
    assert any("brought 2 rooms, 2 kept games and 1 names" in line for line in warnings(caplog))
    with open_store(state) as store:
        players = PlayerRecords(store)
        assert players.holder_of("Bob") == players.player_of(BOB) is not None
    caplog.clear()
    again = RoomService(state)  # a restart: nothing to bring in, the move is there
    await again.start()
    try:
        assert again.host.rooms[1].position.to_moves() == "44531"
        assert warnings(caplog) == []
    finally:
        await again.close()


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"offers": ["draw"]}, "offers should be an object"),
        ({"winner": 5, "ended": "resigned"}, "winner should be one of 0, 1"),
        ({"name": "../../../outside"}, "name should be a file name"),
        ({"seats": [{"key": None, "name": "x", "ai": "rm -rf", "code": ""}] * 2}, "rm -rf"),
        (
            {"extra": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]},
            "nested",
        ),
    ],
)
def test_a_room_file_that_cannot_be_read_is_left_out_and_kept(tmp_path, caplog, changes, reason):
    write_room(tmp_path, a_room(1), **changes)
    write_room(tmp_path, a_room(2, code="GHJKMN"))
    with open_store(tmp_path) as store:
        assert bring_in(tmp_path, store) == "1 rooms, 0 kept games and 0 names"
    (line, _) = warnings(caplog)
    assert "'1.c4' left out" in line and reason in line
    assert (tmp_path / ASIDE / "rooms" / "1.c4").is_file()  # set aside with the rest


def test_two_files_with_one_room_number_both_come_in(tmp_path):
    write_room(tmp_path, a_room(1, "4"))
    write_room(tmp_path, a_room(1, "444", code="GHJKMN"), file_name="7.c4")
    with open_store(tmp_path) as store:
        bring_in(tmp_path, store)
        assert store.rows(
            "SELECT r.number, g.plies FROM rooms r JOIN games g ON g.id = r.game ORDER BY r.number"
        ) == [(1, 1), (2, 3)]


def test_files_brought_in_before_a_kill_are_set_aside_not_brought_in_twice(tmp_path):
    write_room(tmp_path, a_room(1))
    with open_store(tmp_path) as store:
        bring_in(tmp_path, store)
        # As if killed after the commit, before the files were moved: they are still here.
        shutil.copytree(tmp_path / ASIDE / "rooms", tmp_path / "rooms")
        assert bring_in(tmp_path, store) == "1 rooms, 0 kept games and 0 names"
        assert store.value("SELECT count(*) FROM games") == 1
    assert (tmp_path / f"{ASIDE}-2" / "rooms" / "1.c4").is_file()
    assert (tmp_path / ASIDE / "rooms" / "1.c4").is_file()
