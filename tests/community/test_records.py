"""The store's parts for rooms, games and names: kept whole, read back the same."""

from __future__ import annotations

from c4tui.engine.board.gamefile import Ending, GameRecord
from c4tui.server.store.game_records import GameRecords, holder
from c4tui.server.store.player_records import PlayerRecords
from c4tui.server.store.room_records import RoomRecord, RoomRecords, SeatRecord

ANN = SeatRecord("ssh-key:SHA256:ann", "ann", None, "SEAT01")
AI = SeatRecord(None, "", "level:3", "")


def a_room(moves: str = "4453", **changes) -> RoomRecord:
    record = GameRecord(moves, players=("ann", "level:3"), date="2026-11-26T00:30:00Z")
    fields = dict(
        number=3,
        code="ABCDEF",
        public=True,
        game_name="20261126-003000-r3-000001",
        game=record,
        seats=(ANN, AI),
        offers={"draw": 1},
    )
    return RoomRecord(**{**fields, **changes})


def test_a_room_reads_back_as_it_was_kept(store):
    rooms = RoomRecords(store)
    rooms.keep(a_room())
    assert rooms.load() == [a_room()]
    assert rooms.numbers() == {3}
    rooms.forget(3)
    assert rooms.load() == []
    assert GameRecords(store).id_of(a_room().game_name) is not None  # its game stays


def test_only_the_moves_that_changed_are_written(store):
    rooms = RoomRecords(store)
    rooms.keep(a_room("4453"))
    first = store.rows("SELECT ply, col, played FROM moves ORDER BY ply")
    rooms.keep(a_room("44"))  # a take-back of two moves
    rooms.keep(a_room("4412", offers={}))
    assert [
        (p, c) for p, c, _ in store.rows("SELECT ply, col, played FROM moves ORDER BY ply")
    ] == [
        (0, 3),
        (1, 3),
        (2, 0),
        (3, 1),
    ]
    assert store.rows("SELECT ply, col, played FROM moves WHERE ply < 2 ORDER BY ply") == first[:2]
    (back,) = rooms.load()
    assert back.game.moves == "4412" and back.offers == {}


def test_a_game_that_ends_off_the_board_keeps_how_and_its_result(store):
    rooms = RoomRecords(store)
    ended = a_room(game=GameRecord("44", players=("ann", "bob"), ended=Ending("resigned", 1)))
    rooms.keep(ended)
    row = store.row("SELECT ended, winner, result, plies, key1 FROM games")
    assert row == ("resigned", 1, "0-1", 2, ANN.key)
    assert rooms.load()[0].game.ended == Ending("resigned", 1)


def test_a_persons_games_are_the_newest_first_and_only_theirs(store):
    games = GameRecords(store)
    for number in range(1, 4):
        name = f"2026112{number}-000000-r1-00000{number}"
        game = games.keep(name, GameRecord("4" * number, players=("ann", "bob")))
        games.hold(game, ["ssh-name:ann"] + (["ssh-name:bob"] if number == 2 else []))
    games.hold(game, ["ssh-name:ann"])  # again: no second copy
    kept = games.kept("ssh-name:ann")
    assert [(k.name[:8], k.record.moves) for k in kept] == [
        ("20261123", "444"),
        ("20261122", "44"),
        ("20261121", "4"),
    ]
    assert [k.record.moves for k in games.kept("ssh-name:bob")] == ["44"]
    assert games.kept("ssh-name:eve") == []
    assert len(games.kept("ssh-name:ann", limit=2)) == 2
    assert len(holder("ssh-name:ann")) == 24


def test_a_name_belongs_to_one_player_whatever_its_case(store):
    players = PlayerRecords(store)
    assert players.claim("Ann", "ssh-key:SHA256:ann")
    assert not players.claim("ANN", "ssh-key:SHA256:eve")
    ann = players.player_of("ssh-key:SHA256:ann")
    assert players.holder_of("aNN") == ann and ann is not None
    assert players.claim("ann", "ssh-key:SHA256:ann")  # again: still hers
    assert players.player_of("ssh-key:SHA256:eve") != ann
    assert store.value("SELECT name FROM names") == "Ann"
