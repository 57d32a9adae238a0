"""A room's game that ends off the board (resigned, agreed) is kept with its real result."""

from __future__ import annotations

from c4tui.app.screens.kept_games import game_cells
from c4tui.engine.board.game import Game
from c4tui.engine.board.gamefile import GameRecord
from c4tui.server.rooms.keeping import RoomKeeper, room_record
from c4tui.server.rooms.room import Room, Seat


def a_room() -> Room:
    seats = [Seat(key="ssh-name:ann", name="ann"), Seat(key="ssh-name:bob", name="bob")]
    return Room(1, "ABCD", Game.from_moves("4453"), seats, name="20261125-210000-r1-000001")


def kept(keeper: RoomKeeper, room: Room) -> GameRecord:
    name, text = keeper.kept_games("ssh-name:ann")[0]
    assert name == room.name
    return GameRecord.from_text(text)


def test_a_resigned_room_game_is_kept_won_and_listed_as_finished(store):
    keeper, room = RoomKeeper(store), a_room()
    assert room.resign(0) is None  # ann (●) resigns
    keeper.keep(room)  # a game that is over is kept among its players' games
    record = kept(keeper, room)
    assert (record.result, record.ended.how) == ("0-1", "resigned")
    assert game_cells(record)[3] == "○ won, ● resigned"  # "My games": finished, not "unfinished"
    ((again, _),) = keeper.load()  # the room reads back as it was
    assert (again.ended, again.winner) == ("resigned", 1)


def test_an_agreed_draw_is_kept_as_a_draw(store):
    keeper, room = RoomKeeper(store), a_room()
    assert room.offer(1, "draw") is None and room.answer(0, "draw", True) is None
    keeper.archive(room_record(room))
    record = kept(keeper, room)
    assert (record.result, record.ended.how) == ("1/2-1/2", "agreed")
    assert game_cells(record)[3] == "draw agreed"


def test_alone_in_a_room_there_is_no_one_to_resign_or_offer_a_draw_to():
    # A lone player's resignation ended the game as a win for the empty seat, kept so.
    room = a_room()
    room.seats[1] = Seat()
    assert room.resign(0) is not None and room.ended is None
    assert room.offer(0, "draw") is not None and not room.offers


def test_a_room_read_back_names_its_games_players_as_kept_not_as_its_seats_are_now(store):
    """Who played a game is kept with it (Room.played_by, once one of them left its
    seat); a room loaded from the store (a restart, or another server taking it over)
    keeps them: a bot that left is not renamed "BOT alpha", a player whose freed seat
    another took is not replaced by them."""
    keeper = RoomKeeper(store)
    seats = [Seat(key="ssh-name:ann", name="ann"), Seat(key="bot:alpha", name="alpha")]
    room = Room(1, "ABCD", Game.from_moves("4453"), seats, name="20261125-210000-r1-000002")
    assert room.resign(0) is None
    room.leave(1)  # the bot's game stream closed
    keeper.keep(room)
    ((again, _),) = keeper.load()
    assert again.record().players == ("ann", "alpha")
    under_way = Room(
        2,
        "EFGH",
        Game.from_moves("44"),
        [Seat(key="ssh-name:ann", name="ann"), Seat(key="ssh-name:bob", name="bob")],
        name="20261125-210000-r2-000003",
    )
    under_way.leave(1)  # bob's held seat ran out
    assert under_way.sit("ssh-name:cy", "cy", "SEAT-1") == 1
    keeper.keep(under_way)
    again = dict((r.number, r) for r, _ in keeper.load())[2]
    assert again.record().players == ("ann", "bob")
