"""Room files that are tampered with, damaged, doubled or half-written: set aside or kept,
with one log line each, and the service starts with every room it can read."""

from __future__ import annotations

import json
import logging

import pytest

from c4tui.engine.board.game import Game
from c4tui.rooms.room import Room, Seat
from c4tui.rooms.service import RoomService
from c4tui.rooms.store import ROOM_LINE, RoomStore, new_game_name, room_text
from tests.rooms.support import login, next_of


def a_room(number: int, code: str = "ABCDEF", moves: str = "44") -> Room:
    game = Game.from_moves(moves)
    seats = [Seat(f"ssh-name:ann{number}", "ann", code=f"SEAT{number:02d}"), Seat(ai="greedy")]
    return Room(number, code, game, seats, name=new_game_name(number))


def write(state, file_name: str, room: Room, **changes) -> None:
    """A room file, its room line changed as `changes` say."""
    text = room_text(room)
    game, line = text.split(ROOM_LINE)
    meta = json.loads(line)
    meta.update(changes)
    (state / "rooms").mkdir(parents=True, exist_ok=True)
    (state / "rooms" / file_name).write_text(game + ROOM_LINE + json.dumps(meta) + "\n")


def warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"offers": ["draw"]}, "offers should be an object"),
        ({"offers": "draw"}, "offers should be an object"),
        ({"offers": {"draw": 7}}, "offers.draw should be one of 0, 1"),
        ({"winner": 5, "ended": "resigned"}, "winner should be one of 0, 1"),
        ({"seats": [{"key": None, "name": "x", "ai": None, "code": ""}]}, "should be 2 items"),
        ({"seats": "both"}, "seats should be a list"),
        ({"name": "../../../outside"}, "name should be a file name"),
        ({"name": "/tmp/outside"}, "name should be a file name"),
        ({"number": "1"}, "number should be a whole number"),
        ({"public": 1}, "public should be true or false"),
        ({"seats": [{"key": None, "name": "x", "ai": "rm -rf", "code": ""}] * 2}, "an AI seat"),
        (
            {
                "extra": [
                    [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]
                ]
            },
            "nested deeper",
        ),
    ],
)
def test_a_room_line_of_the_wrong_shape_is_set_aside_with_one_line(
    tmp_path, caplog, changes, reason
):
    write(tmp_path, "1.c4", a_room(1), **changes)
    write(tmp_path, "2.c4", a_room(2, code="GHJKMN"))
    rooms = RoomStore(tmp_path).load()
    assert [room.number for room in rooms] == [2]
    assert (tmp_path / "rooms" / "1.c4.damaged").is_file()
    (line,) = warnings(caplog)
    assert reason in line and "1.c4" in line


def test_a_room_line_nested_60000_deep_is_set_aside(tmp_path, caplog):
    room_file = tmp_path / "rooms" / "1.c4"
    room_file.parent.mkdir(parents=True)
    room_file.write_text(room_text(a_room(1)).split(ROOM_LINE)[0] + ROOM_LINE + "[" * 60000 + "\n")
    assert RoomStore(tmp_path).load() == []
    (line,) = warnings(caplog)
    assert "nested deeper" in line


async def test_the_service_starts_beside_a_tampered_room_and_plays_the_rest(tmp_path, caplog):
    state = tmp_path / "state"
    write(state, "1.c4", a_room(1), offers=["draw"])
    write(state, "2.c4", a_room(2, code="GHJKMN"))
    service = RoomService(state)
    await service.start()
    try:
        assert sorted(service.host.rooms) == [2]
        ann = await login(service, "ann", key="ssh-name:ann2")  # back in room 2's seat
        room = await next_of(ann, "room")
        assert (room["room"], room["seat"], room["moves"]) == (2, 0, "44")
        await ann.close()
    finally:
        await service.close()


def test_two_files_with_one_room_number_are_both_kept(tmp_path, caplog):
    write(tmp_path, "1.c4", a_room(1, moves="4"))
    write(tmp_path, "7.c4", a_room(1, moves="444"), number=1)  # a copy that claims room 1
    store = RoomStore(tmp_path)
    rooms = store.load()
    assert [(r.number, r.position.moves) for r in rooms] == [(1, 1), (2, 3)]
    assert rooms[0].code != rooms[1].code
    assert rooms[0].seats[0].code != rooms[1].seats[0].code
    assert sorted(p.name for p in (tmp_path / "rooms").iterdir()) == ["1.c4", "2.c4"]
    # The next change to room 1 leaves the other game alone.
    store.keep(rooms[0])
    assert [r.position.moves for r in RoomStore(tmp_path).load()] == [1, 3]
    (line,) = warnings(caplog)
    assert "7.c4" in line and "kept as room 2" in line


def test_a_damaged_file_never_replaces_an_earlier_one_nor_stops_at_a_directory(tmp_path, caplog):
    rooms = tmp_path / "rooms"
    rooms.mkdir()
    (rooms / "1.c4.damaged").write_text("the first damaged file")
    (rooms / "1.c4.damaged-2").mkdir()  # something in the way
    (rooms / "1.c4").write_text("not a game\n")
    assert RoomStore(tmp_path).load() == []
    assert (rooms / "1.c4.damaged").read_text() == "the first damaged file"
    assert (rooms / "1.c4.damaged-3").read_text() == "not a game\n"
    (line,) = warnings(caplog)
    assert "set aside as '1.c4.damaged-3'" in line


def test_a_room_name_that_is_a_path_is_never_written_to(tmp_path):
    room = a_room(1)
    room.name = "../../../outside"
    with pytest.raises(OSError, match="not a game's name"):
        RoomStore(tmp_path / "state").archive(room)
    assert not list(tmp_path.rglob("outside*"))


def test_temporary_files_of_a_killed_write_are_removed_at_start(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="c4tui.rooms")
    write(tmp_path, "2.c4", a_room(2))
    left = tmp_path / "rooms" / ".2.c4-0123456789ab"
    left.write_text(room_text(a_room(2))[:20])
    games = tmp_path / "players" / "abc" / "games"
    games.mkdir(parents=True)
    (games / ".x.c4-ba9876543210").write_text("half")
    (games / "kept.c4").write_text("a kept game")
    (tmp_path / ".names.json-00112233aabb").write_text("{")
    assert [r.number for r in RoomStore(tmp_path).load()] == [2]
    assert not left.exists()
    assert [p.name for p in games.iterdir()] == ["kept.c4"]
    assert not (tmp_path / ".names.json-00112233aabb").exists()
    assert any("removed 3 temporary files" in r.getMessage() for r in caplog.records)


def test_a_room_survives_its_file_being_read_back(tmp_path):
    room = a_room(3)
    room.offers = {"draw": 1}
    store = RoomStore(tmp_path)
    store.keep(room)
    (back,) = store.load()
    assert (back.number, back.code, back.offers, back.position.path) == (
        3,
        "ABCDEF",
        {"draw": 1},
        room.position.path,
    )
