"""The lobby's list of rooms changes in place, a row at a time (widgets/keyed_rows.py):
a lobby of hundreds of rooms is not cleared and refilled for every change."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import DataTable

from c4tui.app.screens.lobby import LobbyScreen
from c4tui.app.widgets.keyed_rows import KeyedRows, RowsTable
from tests.app.test_served import served_app, service, until  # noqa: F401 (a fixture)
from tests.rooms.support import login, room_where


class Calls:
    """The DataTable methods a test watches, counted."""

    def __init__(self, monkeypatch, *names: str) -> None:
        self.counts = dict.fromkeys(names, 0)
        for name in names:
            real = getattr(DataTable, name)

            def counted(table, *args, _real=real, _name=name, **kwargs):
                self.counts[_name] += 1
                return _real(table, *args, **kwargs)

            monkeypatch.setattr(DataTable, name, counted)


async def two_public_rooms(service):  # noqa: F811
    """bob and cy each in a public room of their own, dan in the lobby; bob's room."""
    bob, cy, dan = [await login(service, name) for name in ("bob", "cy", "dan")]
    for person in (bob, cy):
        await person.send("create", public=True)
    made = await room_where(bob, lambda m: m["seat"] == 0)
    await room_where(cy, lambda m: m["seat"] == 0)
    return bob, cy, dan, made


def rows_of(table: DataTable) -> list[list[str]]:
    return [list(map(str, table.get_row_at(index))) for index in range(table.row_count)]


async def test_a_seat_taken_in_one_room_changes_that_row_alone(service, monkeypatch):  # noqa: F811
    bob, cy, dan, made = await two_public_rooms(service)
    app = served_app(service)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        lobby = app.lobby_screen
        await until(pilot, lambda: len(lobby.rooms) == 2)
        table = lobby.query_one("#rooms", DataTable)
        calls = Calls(monkeypatch, "clear", "add_row", "update_cell")
        second = rows_of(table)[1]
        await dan.send("join", code=made["code"])
        await until(pilot, lambda: "dan" in rows_of(table)[0][2])
        # Before, each lobby cleared the table and added every row again; now the row's
        # two cells that changed, its second seat and its state, are written.
        assert calls.counts == {"clear": 0, "add_row": 0, "update_cell": 2}
        assert rows_of(table)[1] == second
    for person in (bob, cy, dan):
        await person.close()


class OneTable(App[None]):
    def compose(self) -> ComposeResult:
        yield RowsTable()


async def test_rows_come_go_change_and_move_by_their_keys():
    app = OneTable()
    async with app.run_test() as pilot:
        table = app.query_one(DataTable)
        rows = KeyedRows(table)
        rows.add_columns([("#", 3), ("who", 8)])
        assert rows.show({"1": ("1", "ann"), "2": ("2", "bob"), "3": ("3", "cy")})
        assert not rows.show({"1": ("1", "ann"), "2": ("2", "bob"), "3": ("3", "cy")})
        assert rows.show({"3": ("3", "cy!"), "1": ("1", "ann"), "4": ("4", "dan")})
        await pilot.pause()
        assert rows_of(table) == [["3", "cy!"], ["1", "ann"], ["4", "dan"]]
        assert [table.coordinate_to_cell_key((n, 0)).row_key.value for n in range(3)] == [
            "3",
            "1",
            "4",
        ]
