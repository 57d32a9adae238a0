"""A dropped player's seat is held and reclaimed; a full disk refuses a move and loses none."""

from __future__ import annotations

from c4tui.server.service.service import RoomLimits, RoomService
from c4tui.server.store.store import StoreFull
from tests.rooms.support import login, next_of, room_where


async def test_a_dropped_seat_is_held_then_taken_back(service):
    ann, bob = await login(service, "ann"), await login(service, "bob")
    await ann.send("create")
    code = (await room_where(ann, lambda m: m["seat"] == 0))["code"]
    await bob.send("join", code=code)
    await room_where(bob, lambda m: m["seat"] == 1)
    await ann.send("drop", column=3, ply=0)
    await room_where(bob, lambda m: m["moves"] == "4")
    await bob.close()
    held = await room_where(ann, lambda m: m["seats"][1]["held"] is not None)
    assert 0 < held["seats"][1]["held"] <= 300 and held["seats"][1]["name"] == "bob"
    bob = await login(service, "bob")  # the same identity, a new connection
    back = await room_where(bob, lambda m: m["seat"] == 1)
    assert back["moves"] == "4" and back["seats"][1]["held"] is None
    await next_of(ann, "notice", lambda m: m["text"] == "bob is back.")
    await room_where(ann, lambda m: m["seats"][1]["here"])
    await bob.send("drop", column=3, ply=1)
    await room_where(ann, lambda m: m["moves"] == "44")
    await ann.close()
    await bob.close()


async def test_a_seat_not_taken_back_in_time_opens(tmp_path):
    service = RoomService(tmp_path / "state", RoomLimits(seat_hold=0.0))
    await service.start()
    ann, bob = await login(service, "ann"), await login(service, "bob")
    await ann.send("create")
    code = (await room_where(ann, lambda m: m["seat"] == 0))["code"]
    await bob.send("join", code=code)
    await room_where(bob, lambda m: m["seat"] == 1)
    await bob.close()
    opened = await room_where(ann, lambda m: m["seats"][1]["open"])
    # An open seat names nobody on the wire; the client words it ("(open)", room_view).
    assert opened["seats"][1]["name"] == "" and not opened["seats"][1]["here"]
    await ann.close()
    await service.close()


def moves_kept(state, number: int = 1) -> str:
    """The moves of room `number`'s game as the database holds them."""
    from c4tui.server.rooms.keeping import RoomKeeper
    from c4tui.server.store.opening import open_store

    with open_store(state) as kept:
        rooms = RoomKeeper(kept).load()
    return next(room.position.to_moves() for room, _ in rooms if room.number == number)


async def test_a_full_disk_refuses_the_move_says_so_and_loses_nothing(service, monkeypatch):
    ann, bob = await login(service, "ann"), await login(service, "bob")
    await ann.send("create")
    code = (await room_where(ann, lambda m: m["seat"] == 0))["code"]
    await bob.send("join", code=code)
    await room_where(bob, lambda m: m["seat"] == 1)
    await ann.send("drop", column=3, ply=0)
    await room_where(bob, lambda m: m["moves"] == "4")
    store = service.host.line.writers.of(1).store  # the connection that writes room 1
    run = store._run

    def full(sql, params, *, fetch):  # the game's row is written, then its move finds no room
        if sql.startswith("INSERT INTO moves"):
            raise StoreFull(f"{store.where}: the disk is full (database or disk is full)")
        return run(sql, params, fetch=fetch)

    monkeypatch.setattr(store, "_run", full)
    await bob.send("drop", column=3, ply=1)
    said = await room_where(ann, lambda m: m["trouble"] is not None)
    assert said["moves"] == "4"  # refused: nobody is shown a move that is not kept
    assert "disk is full" in said["trouble"] and "was not made" in said["trouble"]
    assert "disk is full" in (await room_where(bob, lambda m: m["trouble"] is not None))["trouble"]
    assert moves_kept(service.state_dir) == "4"
    assert store.value("SELECT plies FROM games") == 1  # the half-written change rolled back
    monkeypatch.undo()
    await bob.send("drop", column=3, ply=1)
    well = await room_where(ann, lambda m: m["moves"] == "44")
    assert well["trouble"] is None
    assert moves_kept(service.state_dir) == "44"
    await ann.close()
    await bob.close()


async def test_a_seat_code_takes_the_seat_back_from_another_identity(service):
    ann, bob = await login(service, "ann"), await login(service, "web-1234", "web:aaa")
    await ann.send("create")
    code = (await room_where(ann, lambda m: m["seat"] == 0))["code"]
    await bob.send("join", code=code)
    seat_code = (await room_where(bob, lambda m: m["seat"] == 1))["seat_code"]
    assert seat_code.replace("-", "") != code.replace("-", "")
    await bob.close()
    other_browser = await login(service, "web-9876", "web:bbb")
    await other_browser.send("join", code=seat_code)
    back = await room_where(other_browser, lambda m: m["seat"] == 1)
    assert back["seats"][1]["name"] == "web-1234" and back["seat_code"] == seat_code
    await ann.close()
    await other_browser.close()


async def test_leaving_a_game_keeps_it_among_your_games(service):
    ann = await login(service, "ann")
    await ann.send("create", ai="random")
    await room_where(ann, lambda m: m["seat"] == 0)
    await ann.send("drop", column=3, ply=0)
    await room_where(ann, lambda m: len(m["moves"]) == 2)
    await ann.send("leave")
    await next_of(ann, "lobby")
    await ann.send("games")
    games = (await next_of(ann, "games"))["games"]
    assert len(games) == 1 and "Player2: random" in games[0]["text"]
    assert oct((service.state_dir / "community.sqlite3").stat().st_mode & 0o777) == "0o600"
    await ann.close()


async def test_a_room_made_on_a_full_disk_is_not_made_and_says_why(service, monkeypatch):
    ann = await login(service, "ann")
    await next_of(ann, "lobby")
    store = service.host.line.writers.of(1).store  # the connection that writes rooms

    def full(sql, params, *, fetch):
        raise StoreFull(f"{store.where}: the disk is full (database or disk is full)")

    monkeypatch.setattr(store, "_run", full)
    await ann.send("create")
    said = await next_of(ann, "notice")
    assert "cannot keep games now (its disk is full)" in said["text"]
    assert (await next_of(ann, "lobby"))["rooms"] == []
    assert service.host.rooms == {}
    monkeypatch.undo()
    await ann.send("create")
    made = await room_where(ann, lambda m: m["seat"] == 0)  # room again: made and kept
    assert moves_kept(service.state_dir, made["room"]) == ""
    await ann.close()
