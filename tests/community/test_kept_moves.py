"""A kept move writes what it changed (issue 46): its move row, the game's move count and
the clock, not the whole room; a room made, ended or reseated is still written whole,
and whatever was written reads back as the room was."""

from __future__ import annotations

from c4tui.community.clocks import TimeControl
from c4tui.engine.board.game import Game
from c4tui.server.rooms.keeping import RoomKeeper
from c4tui.server.rooms.room import Room, Seat
from c4tui.server.store.store import Store


def a_room(control: TimeControl | None = None) -> Room:
    seats = [Seat(key="ssh-name:ann", name="ann"), Seat(key="ssh-name:bob", name="bob")]
    return Room(
        1, "ABCD", Game.from_moves(""), seats, name="20261128-210000-r1-000001", control=control
    )


def written(store: Store, monkeypatch) -> list[str]:
    """The statements the store runs from now on, as written (BEGIN and COMMIT too)."""
    statements: list[str] = []
    run = store._run

    def counted(sql, params, *, fetch):
        statements.append(sql)
        return run(sql, params, fetch=fetch)

    monkeypatch.setattr(store, "_run", counted)
    return statements


def test_a_move_writes_its_row_and_the_clock_and_nothing_else_of_the_room(store, monkeypatch):
    keeper, room = RoomKeeper(store), a_room(TimeControl(5, 3))
    last = keeper.keep(room)
    now = 100.0
    for ply, column in enumerate([3, 3, 4]):
        assert room.drop(ply % 2, column, ply) is None
        room.settle_clock(now + ply)
        statements = written(store, monkeypatch)
        last = keeper.keep(room, last)
        monkeypatch.undo()
        changed = [s for s in statements if not s.startswith(("BEGIN", "COMMIT"))]
        assert len(changed) == 3, changed  # before: 11 (the room, its seats, offers, moves read)
        assert not [s for s in changed if "room_seats" in s or "room_offers" in s]
        assert not [s for s in changed if s.startswith("SELECT")]
    ((again, _),) = keeper.load()
    assert again.game.position.path == (3, 3, 4)
    assert again.clock is not None and again.clock.running == room.clock.running
    assert again.clock.left == room.clock.left


def test_a_move_on_no_clock_writes_two_statements(store, monkeypatch):
    keeper, room = RoomKeeper(store), a_room()
    last = keeper.keep(room)
    assert room.drop(0, 3, 0) is None
    statements = written(store, monkeypatch)
    keeper.keep(room, last)
    assert [s.split()[0] for s in statements][1:] == ["UPDATE", "INSERT", "COMMIT"]


def test_an_ending_a_take_back_and_a_new_seat_are_written_whole(store, monkeypatch):
    keeper, room = RoomKeeper(store), a_room()
    last = keeper.keep(room)
    for ply, column in enumerate([3, 3, 4, 4]):
        assert room.drop(ply % 2, column, ply) is None
        last = keeper.keep(room, last)
    assert room.offer(0, "take_back") is None and room.answer(1, "take_back", True) is None
    statements = written(store, monkeypatch)
    last = keeper.keep(room, last)
    monkeypatch.undo()
    assert any("room_seats" in s for s in statements)  # not a move: the room whole
    ((again, _),) = keeper.load()
    assert again.game.position.path == room.position.path
    room.seats[1] = Seat(key="ssh-name:cy", name="cy")
    last = keeper.keep(room, last)
    ((again, _),) = keeper.load()
    assert again.seats[1].name == "cy"
    assert room.resign(1) is None
    keeper.keep(room, last)
    ((again, _),) = keeper.load()
    assert (again.ended, again.winner) == ("resigned", 0)
    assert keeper.kept_games("ssh-name:ann")  # an ending is among its players' games
